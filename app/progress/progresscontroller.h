#pragma once
// Wires the learner's progress database into the main window:
//   - opens it (app/progress/progressdatabase.h) and replaces the window's ActivityStateStore with the SQLite one,
//     so states, quiz flags and every event survive restarts; the learner's code folder follows the database;
//   - records the resume point and the time spent in the open activity (while the app is active);
//   - resume(): reopens the activity the learner was at;
//   - the progress dashboard page (View → Progress dashboard), refreshed after every event; its review list opens
//     the activity it names;
//   - the run history dock of the open exercise: restore an earlier source (asks, undoable), compare two runs;
//   - File → Export progress report… (PDF A4/Letter, HTML, CSV, JSON) and File → Learner name…;
//   - Activity → Reset progress of the activity / the module / everything (asks through the window's confirm).

#include "app/progress/progressdatabase.h"

#include <QObject>
#include <QPageSize>
#include <QPointer>

#include <vector>

class QAction;
class QDockWidget;
class QTimer;

namespace tkm::progress {
struct ModuleOutline;
struct KernelRun;
} // namespace tkm::progress

namespace tkm::app {

class DashboardWidget;
class Shell;
class RunHistoryWidget;
class SqliteStateStore;

/// QSettings key of the learner's name shown on reports.
inline constexpr char kLearnerNameKey[] = "learner/name";

/// The progress feature of one main window.
class ProgressController : public QObject
{
    Q_OBJECT
public:
    /// Opens the database at `databasePath` (empty: defaultDatabasePath()) and attaches to `window`; call after
    /// window->loadCourse(). The controller is a child of the window.
    explicit ProgressController(Shell* window, const QString& databasePath = {});
    ~ProgressController() override;

    /// The database in use and what the learner is told about it.
    const ProgressDatabase& database() const { return m_db; }
    /// The SQLite-backed state store given to the window (nullptr when no database could be opened at all).
    SqliteStateStore* states() const { return m_states; }
    DashboardWidget* dashboard() const { return m_dashboard; } ///< the dashboard page
    RunHistoryWidget* history() const { return m_history; }    ///< the run history of the open exercise
    QDockWidget* historyDock() const { return m_historyDock; } ///< its dock

    /// Opens the resume point (the store's position), else the activity shown last, else the first one.
    void resume();
    /// Shows the database notice (moved aside, refused, shared) in a message box that does not block; returns it
    /// (empty when there is nothing to say, and then nothing is shown).
    QString showOpenNotice();
    /// Writes a report or raw export (format by suffix, exportProgressFile); false with `error` set on failure.
    bool exportReport(const QString& path, QPageSize::PageSizeId page, QString* error = nullptr);
    /// Asks for a file and format, then exports (File → Export progress report…).
    void exportWithDialog();
    /// Resets the progress of the open activity, its module, or everything, after asking; true when done.
    bool resetActivityProgress();
    /// See resetActivityProgress().
    bool resetModuleProgress();
    /// See resetActivityProgress().
    bool resetAllProgress();
    /// Re-reads the dashboard now (it also refreshes shortly after each event).
    void refreshDashboard();
    /// Closes or extends the time span of the open activity (a timer and window activation call it).
    void sampleTime();

    /// The learner's name from settings (may be empty).
    static QString learnerName();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    void onActivityOpened(const QString& moduleId, const QString& activityId);
    void onRestoreRequested(const progress::KernelRun& run);
    void onCompareRequested(const progress::KernelRun& older, const progress::KernelRun& newer);
    void onWriteFailed(const QString& sentence);
    std::vector<progress::ModuleOutline> outline() const;
    QString activityTitle(const QString& moduleId, const QString& activityId) const;
    bool reopenCurrent();

    Shell* m_window = nullptr;
    ProgressDatabase m_db;
    SqliteStateStore* m_states = nullptr;
    DashboardWidget* m_dashboard = nullptr;
    RunHistoryWidget* m_history = nullptr;
    QDockWidget* m_historyDock = nullptr;
    QTimer* m_timeTimer = nullptr;
    QTimer* m_refreshTimer = nullptr;
    QString m_openModule;   ///< activity open now (empty when none)
    QString m_openActivity; ///< see m_openModule
    QString m_spanModule;   ///< activity of the time span being extended
    QString m_spanActivity; ///< see m_spanModule
    qint64 m_spanId = 0;    ///< the span being extended (0: none, e.g. while the app is not active)
    bool m_writeErrorShown = false;
};

} // namespace tkm::app
