#pragma once
// What a feature (progress, instructor mode) may ask of the main window: the window's interface, so that feature
// folders depend on app/common and never on app/shell. app/shell/mainwindow.h implements it.

#include <QMainWindow>
#include <QString>

#include <functional>

class QDockWidget;
class QMenu;

namespace tkm::course {
struct Course;
struct CourseLoadResult;
} // namespace tkm::course

namespace tkm::app {

class ActivityStateStore;
class ActivityView;
class CourseNavigator;
class ResultsView;

/// Menus other features may add actions to.
enum class MenuId { File, Navigate, Activity, View, Help };

/// The application window as the features see it.
class Shell : public QMainWindow
{
    Q_OBJECT
public:
    /// A top-level window with `parent`.
    explicit Shell(QWidget* parent = nullptr);
    ~Shell() override;

    /// Loads a content root (docs/content-format.md); on errors shows them in the centre and returns false.
    virtual bool loadCourse(const QString& contentRoot) = 0;
    /// The loaded course (nullptr before a successful loadCourse).
    virtual const course::Course* course() const = 0;
    /// Opens an activity by index [0-based]; returns false when out of range.
    virtual bool openActivity(int module, int activity) = 0;
    /// Opens an activity by ids; returns false when not found.
    virtual bool openActivity(const QString& moduleId, const QString& activityId) = 0;
    /// Opens the activity shown last (QSettings), or the first one.
    virtual void openLastActivity() = 0;
    /// The view of the open activity (nullptr when a page or nothing is shown).
    virtual ActivityView* currentView() const = 0;
    /// The course navigator.
    virtual CourseNavigator* navigator() const = 0;
    /// The results view in its dock.
    virtual ResultsView* results() const = 0;
    /// The results dock.
    virtual QDockWidget* resultsDock() const = 0;
    /// Replaces the activity-state store (e.g. with the SQLite one); the window takes ownership.
    virtual void setStateStore(ActivityStateStore* store) = 0;
    /// A menu other features can add to.
    virtual QMenu* menu(MenuId id) const = 0;
    /// Adds a dock (e.g. the progress dashboard) with a toggle in the View menu; the window takes ownership.
    virtual void addFeatureDock(QDockWidget* dock, Qt::DockWidgetArea area) = 0;
    /// Adds a centre page (e.g. the dashboard or an instructor editor) shown instead of an activity by showPage.
    virtual void addPage(const QString& id, const QString& title, QWidget* page) = 0;
    /// Shows a page added with addPage; false for an unknown id.
    virtual bool showPage(const QString& id) = 0;
    /// Replaces how loadCourse reads a content root (e.g. the built-in course with instructor packs applied).
    virtual void setCourseLoader(std::function<course::CourseLoadResult(const QString& contentRoot)> loader) = 0;
    /// Asks `question` through the confirm handler; true when confirmed.
    virtual bool confirm(const QString& question) const = 0;

signals:
    /// An activity was opened (its view is the current one).
    void activityOpened(const QString& moduleId, const QString& activityId);
};

} // namespace tkm::app
