#pragma once
// The app's ActivityStateStore kept in the learner's progress database (modules/progress): the navigator states and
// the views' small values (quiz flags, meta-parameters, hints shown) live in the store's activity_values table, and
// every event the views report (quiz answers, spot-the-bug picks, drag-match attempts, step-through completions,
// hints and solutions shown, kernel runs) becomes a record. Values are read once at construction and cached; every
// write goes to the database at once (one transaction each).

#include "app/course/activitystate.h"

#include "modules/progress/store.h"

#include <QHash>

#include <memory>

namespace tkm::app {

/// Activity states, values and events in a progress::Store.
class SqliteStateStore : public ActivityStateStore
{
    Q_OBJECT
public:
    /// Reads every stored value of `store` (shared with the rest of the progress feature).
    explicit SqliteStateStore(std::shared_ptr<progress::Store> store, QObject* parent = nullptr);

    /// The progress store.
    progress::Store& store() const { return *m_store; }

    QVariant value(const QString& moduleId, const QString& activityId, const QString& key,
                   const QVariant& fallback = {}) const override;
    void setValue(const QString& moduleId, const QString& activityId, const QString& key,
                  const QVariant& value) override;
    /// Deletes the activity's records and values; emits stateChanged(New) and recorded.
    void resetActivity(const QString& moduleId, const QString& activityId) override;
    /// Deletes every record and value of a module (or of every module when `moduleId` is empty, which also clears
    /// the resume point); emits stateChanged(New) for each activity that had a state, then recorded.
    bool resetModule(const QString& moduleId);

    void recordQuizAnswer(const QString& moduleId, const QString& activityId, const QString& questionId,
                          const QList<int>& choices, bool correct) override;
    void recordSpotPick(const QString& moduleId, const QString& activityId, int line, bool correct) override;
    void recordDragAttempt(const QString& moduleId, const QString& activityId, const QJsonObject& placement,
                           int right, int items) override;
    void recordStepCompletion(const QString& moduleId, const QString& activityId, int steps) override;
    void recordHelpView(const QString& moduleId, const QString& activityId, bool solution, int hintIndex) override;
    void recordKernelRun(const QString& moduleId, const QString& activityId, const QString& source,
                         const QList<QPair<QString, qint64>>& meta, const report::RunReport& report) override;
    QString latestRunSource(const QString& moduleId, const QString& activityId) const override;

signals:
    /// A write failed (e.g. another program held the database past the busy timeout): a sentence for the learner.
    void writeFailed(const QString& sentence);

private:
    template <class T> bool check(const progress::Expected<T>& result, const QString& moduleId, const QString& activityId);
    static QString cacheKey(const QString& moduleId, const QString& activityId, const QString& key);

    std::shared_ptr<progress::Store> m_store;
    QHash<QString, QVariant> m_values; ///< "module/activity/key" → value
};

/// QJsonObject → nlohmann::json (through its compact text).
nlohmann::json toNlohmann(const QJsonObject& object);
/// nlohmann::json object → QJsonObject (empty for anything else).
QJsonObject toQJson(const nlohmann::json& object);

} // namespace tkm::app
