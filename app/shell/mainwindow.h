#pragma once
// The main window: course navigator (left dock), the activity in the centre, run results (bottom dock, hideable),
// menus and shortcuts, the GPU status. Later features (progress dashboard, instructor mode) plug in through
// addDock / addPage / menu and by replacing the ActivityStateStore.

#include "app/common/shell.h"
#include "app/course/activitystate.h"

#include <QHash>
#include <QJsonObject>
#include <QMainWindow>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QStackedWidget;

namespace tkm::course {
struct Activity;
struct Course;
struct CourseLoadResult;
struct Diagnostic;
} // namespace tkm::course

namespace tkm::app {

class ActivityFooter;
class ActivityView;
class CoursePage;
class CourseNavigator;
class EngineClient;
class ResultsView;
class StatusArea;

/// The application window.
class MainWindow : public Shell
{
    Q_OBJECT
public:
    /// Builds the window; `workerPath` is the tkm-run executable (app/common/paths.h workerPath() by default).
    explicit MainWindow(const QString& workerPath = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads a content root (docs/content-format.md); on errors shows them in the centre and returns false.
    bool loadCourse(const QString& contentRoot) override;
    /// The loaded course (nullptr before a successful loadCourse).
    const course::Course* course() const override { return m_course.get(); }
    /// Opens an activity by index [0-based]; returns false when out of range.
    bool openActivity(int module, int activity) override;
    /// Opens an activity by ids; returns false when not found.
    bool openActivity(const QString& moduleId, const QString& activityId) override;
    /// Opens the activity shown last (QSettings), or the first one.
    void openLastActivity() override;
    /// Next / previous activity across modules; false at the end.
    bool goNext();
    /// See goNext.
    bool goPrevious();
    /// Asks the worker for its GPU (status area) and warms it (EngineClient::warmUp); call once the window is up.
    void queryDevices();
    /// Shows the welcome page (what the course is, how long, what works without a GPU, where to start).
    void showWelcome();
    /// On the first start (no activity ever opened, welcome never shown) shows the welcome page and returns true.
    bool showWelcomeOnFirstStart();
    /// Shows the overview of a module [0-based]: its activities, progress and the interviewer's probes.
    bool showModuleOverview(int module);
    /// The welcome and module overview page.
    CoursePage* coursePage() const { return m_coursePage; }
    /// The bar under the activity with ← Previous and Next →.
    ActivityFooter* footer() const { return m_footer; }
    /// Whether results are shown for an activity: exercises and spot-the-bugs with a runnable kernel.
    static bool showsResults(const course::Activity& activity);
    /// Shrinks and moves the window so that it lies inside its screen's available area (after restoring a geometry
    /// saved on a larger screen, or at 150 % scaling).
    void fitToScreen();

    /// The view of the open activity (nullptr when a page or nothing is shown).
    ActivityView* currentView() const override { return m_view; }
    /// The course navigator.
    CourseNavigator* navigator() const override { return m_navigator; }
    /// The results view in its dock.
    ResultsView* results() const override { return m_results; }
    /// The results dock.
    QDockWidget* resultsDock() const override { return m_resultsDock; }
    /// The engine client shared by every view.
    EngineClient* engine() const { return m_engine; }
    /// The GPU status area.
    StatusArea* statusArea() const { return m_status; }
    /// The activity-state store.
    ActivityStateStore* states() const { return m_states; }
    /// Replaces the activity-state store (e.g. with the SQLite one); the window takes ownership.
    void setStateStore(ActivityStateStore* store) override;

    /// A menu other features can add to.
    QMenu* menu(MenuId id) const override;
    /// Adds a dock (e.g. the progress dashboard) with a toggle in the View menu; the window takes ownership.
    void addFeatureDock(QDockWidget* dock, Qt::DockWidgetArea area) override;
    /// Adds a centre page (e.g. the dashboard or an instructor editor) shown instead of an activity by showPage.
    void addPage(const QString& id, const QString& title, QWidget* page) override;
    /// Shows a page added with addPage; false for an unknown id.
    bool showPage(const QString& id) override;
    /// Replaces how loadCourse reads a content root (e.g. the built-in course with instructor packs applied,
    /// app/instructor); by default course::loadCourse.
    void setCourseLoader(std::function<course::CourseLoadResult(const QString& contentRoot)> loader) override;
    /// Answers every confirmation question (tests); by default a message box asks.
    void setConfirmHandler(std::function<bool(const QString&)> handler);
    /// Asks `question` through the confirm handler; true when confirmed.
    bool confirm(const QString& question) const override;

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void buildMenus();
    void showCourseErrors(const std::vector<course::Diagnostic>& diagnostics, const QString& root);
    void updateActions();
    void updateFooter();
    void closeView(bool now);
    void showCentrePage(QWidget* page);
    void buildThemeMenu(QMenu* view);
    void onJobStarted(int jobId, const QString& title);
    void onJobFinished(int jobId, const report::RunReport& report);

    std::unique_ptr<course::Course> m_course;
    EngineClient* m_engine = nullptr;
    ActivityStateStore* m_states = nullptr;
    CourseNavigator* m_navigator = nullptr;
    QDockWidget* m_navigatorDock = nullptr;
    ResultsView* m_results = nullptr;
    QDockWidget* m_resultsDock = nullptr;
    StatusArea* m_status = nullptr;
    QStackedWidget* m_centre = nullptr;
    QWidget* m_activityHost = nullptr;
    ActivityView* m_view = nullptr;
    QScrollArea* m_viewScroll = nullptr;
    ActivityFooter* m_footer = nullptr;
    CoursePage* m_coursePage = nullptr;
    QLabel* m_message = nullptr;
    QHash<QString, QWidget*> m_pages;
    QHash<MenuId, QMenu*> m_menus;
    QAction* m_run = nullptr;
    QAction* m_cancel = nullptr;
    QAction* m_reset = nullptr;
    QAction* m_find = nullptr;
    QAction* m_next = nullptr;
    QAction* m_previous = nullptr;
    std::function<bool(const QString&)> m_confirm;
    std::function<course::CourseLoadResult(const QString&)> m_loader;
};

} // namespace tkm::app
