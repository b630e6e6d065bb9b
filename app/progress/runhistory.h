#pragma once
// The run history of the open exercise (a dock): every kernel run recorded in the progress store, newest first,
// with its time, verdict, median time, bandwidth, share of the bandwidth ceiling, meta-parameters and device.
// Select one run to show its report or restore its source into the editor; select two to compare them side by
// side (RunComparisonDialog, and both drawn in the results charts).

#include "modules/progress/store.h"

#include <QDialog>
#include <QJsonObject>
#include <QWidget>

#include <memory>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace tkm::app {

/// Lists the runs of one exercise.
class RunHistoryWidget : public QWidget
{
    Q_OBJECT
public:
    explicit RunHistoryWidget(QWidget* parent = nullptr);

    /// Shows the runs of an exercise (`title` for the heading); an empty activityId shows a hint to open one.
    void setExercise(std::shared_ptr<progress::Store> store, const QString& moduleId, const QString& activityId,
                     const QString& title);
    /// Re-reads the runs of the exercise shown.
    void refresh();
    /// Selects the runs with these ids (tests, and after a compare).
    void selectRuns(const QList<qint64>& runIds);
    /// Ids of the selected runs, newest first.
    QList<qint64> selectedRuns() const;

    QTreeWidget* table() const { return m_table; } ///< one row per run (for tests)
    QString moduleId() const { return m_moduleId; }     ///< exercise shown
    QString activityId() const { return m_activityId; } ///< exercise shown

signals:
    /// Restore this run's source into the editor (the owner asks first).
    void restoreRequested(const progress::KernelRun& run);
    /// Show this run's report in the results view.
    void showReportRequested(const progress::KernelRun& run);
    /// Compare these two runs (older first).
    void compareRequested(const progress::KernelRun& older, const progress::KernelRun& newer);

private:
    void updateButtons();
    std::optional<progress::KernelRun> loadRun(qint64 id);

    std::shared_ptr<progress::Store> m_store;
    QString m_moduleId;
    QString m_activityId;
    QLabel* m_heading = nullptr;
    QTreeWidget* m_table = nullptr;
    QPushButton* m_show = nullptr;
    QPushButton* m_restore = nullptr;
    QPushButton* m_compare = nullptr;
};

/// Two runs of one exercise side by side: a table of their figures (verdict, time, bandwidth, traffic,
/// efficiency, meta-parameters, device) with the better value marked.
class RunComparisonDialog : public QDialog
{
    Q_OBJECT
public:
    RunComparisonDialog(const progress::KernelRun& older, const progress::KernelRun& newer,
                        QWidget* parent = nullptr);
    QTreeWidget* figures() const { return m_figures; } ///< rows: figure, older, newer (for tests)

private:
    QTreeWidget* m_figures = nullptr;
};

/// "2026-11-30 09:41" in local time for [ms since epoch, UTC].
QString formatRunTime(int64_t atMs);
/// "BLOCK_SIZE=1024, NUM_WARPS=4" from a run's meta-parameters.
QString formatMeta(const nlohmann::json& meta);

} // namespace tkm::app
