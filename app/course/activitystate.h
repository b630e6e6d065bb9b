#pragma once
// The learner's state of each activity (new, in progress, done) and small per-activity values (quiz scores).
// Kept in memory and in QSettings; app/progress/sqlitestatestore.h keeps them in the learner's progress database
// instead and also records every event (answers, picks, runs, help) through the record*() hooks, which this base
// store ignores.

#include "engine/report/run_report.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>
#include <QVariant>

namespace tkm::app {

/// Where the learner stands on one activity.
enum class ActivityState { New = 0, InProgress = 1, Done = 2 };

/// Activity states of one learner.
class ActivityStateStore : public QObject {
  Q_OBJECT
public:
  explicit ActivityStateStore(QObject *parent = nullptr);

  /// The state of an activity (New when never touched).
  virtual ActivityState state(const QString &moduleId, const QString &activityId) const;
  /// Sets the state exactly (reset uses New).
  virtual void setState(const QString &moduleId, const QString &activityId, ActivityState state);
  /// Moves the state forward only (New → InProgress → Done); a done activity stays done.
  void advance(const QString &moduleId, const QString &activityId, ActivityState state);
  /// A stored value of an activity (e.g. "score"), or `fallback`.
  virtual QVariant value(const QString &moduleId, const QString &activityId, const QString &key,
                         const QVariant &fallback = {}) const;
  /// Stores a value of an activity.
  virtual void setValue(const QString &moduleId, const QString &activityId, const QString &key,
                        const QVariant &value);
  /// Forgets the state and values of one activity.
  virtual void resetActivity(const QString &moduleId, const QString &activityId);

  /// Human-readable state ("new", "in progress", "done").
  static QString stateName(ActivityState state);

  // ---- events: a store that keeps history records them (the base store keeps none) ----
  /// A quiz question was checked: `choices` [0-based] selected, graded right or not.
  virtual void recordQuizAnswer(const QString &moduleId, const QString &activityId, const QString &questionId,
                                const QList<int> &choices, bool correct);
  /// A spot-the-bug line was picked [1-based line]; `correct` is false for a revealed answer.
  virtual void recordSpotPick(const QString &moduleId, const QString &activityId, int line, bool correct);
  /// A drag-match placement was checked: `placement` item id → target id; `right` of `items` on their target.
  virtual void recordDragAttempt(const QString &moduleId, const QString &activityId, const QJsonObject &placement,
                                 int right, int items);
  /// A step-through reached its last step (`steps` in the sequence).
  virtual void recordStepCompletion(const QString &moduleId, const QString &activityId, int steps);
  /// A hint [0-based `hintIndex`] or the solution (`solution` true) was shown.
  virtual void recordHelpView(const QString &moduleId, const QString &activityId, bool solution, int hintIndex);
  /// A kernel run of an exercise finished: its source, meta-parameters and run report (docs/run-report.md).
  virtual void recordKernelRun(const QString &moduleId, const QString &activityId, const QString &source,
                               const QList<QPair<QString, qint64>> &meta, const report::RunReport &report);
  /// The source of the latest recorded run of an exercise (empty when none or not kept): the exercise view starts
  /// from it when the learner's code file is missing (e.g. a database brought from another machine).
  virtual QString latestRunSource(const QString &moduleId, const QString &activityId) const;

signals:
  /// An activity's state changed.
  void stateChanged(const QString &moduleId, const QString &activityId, tkm::app::ActivityState state);
  /// An event of an activity was recorded (answers, picks, runs, help): dashboards refresh on it.
  void recorded(const QString &moduleId, const QString &activityId);

private:
  static QString key(const QString &moduleId, const QString &activityId, const QString &leaf);
  mutable QHash<QString, QVariant> m_cache;
};

} // namespace tkm::app
