#pragma once
// The course navigator: modules → activities, each with its state (new, in progress, done).

#include "app/course/activitystate.h"

#include <QTreeWidget>

namespace tkm::course {
struct Course;
}

namespace tkm::app {

/// Tree of the course; activating an activity (click, Enter) emits activityChosen.
class CourseNavigator : public QTreeWidget {
  Q_OBJECT
public:
  explicit CourseNavigator(QWidget *parent = nullptr);

  /// Shows `course` (not owned; must outlive the navigator or the next setCourse) with states from `states`.
  void setCourse(const course::Course *course, ActivityStateStore *states);
  /// Selects an activity by index [0-based module, 0-based activity]; returns false when out of range.
  bool selectActivity(int module, int activity);
  /// The selected activity as {module, activity} [0-based], or {-1, -1}.
  QPair<int, int> currentActivity() const;
  /// The activity after the selected one (across modules), or {-1, -1} at the end.
  QPair<int, int> nextActivity() const;
  /// The activity before the selected one, or {-1, -1} at the start.
  QPair<int, int> previousActivity() const;
  /// The tree item of an activity (nullptr when out of range).
  QTreeWidgetItem *activityItem(int module, int activity) const;
  /// Selects a module row [0-based] without emitting moduleChosen; false when out of range.
  bool selectModule(int module);
  /// Activities done and activities in a module [0-based]: the counts the row shows, as the dashboard counts them.
  QPair<int, int> moduleCounts(int module) const;
  /// Re-reads every state from the store (after a bulk change).
  void refreshStates();

signals:
  /// The learner chose an activity [0-based indices].
  void activityChosen(int module, int activity);
  /// The learner chose a module row [0-based]: the window shows its overview.
  void moduleChosen(int module);

private:
  void updateItem(QTreeWidgetItem *item, int module, int activity);
  void updateModule(int module);
  void onStateChanged(const QString &moduleId, const QString &activityId, ActivityState state);

  const course::Course *m_course = nullptr;
  ActivityStateStore *m_states = nullptr;
  bool m_selecting = false;
};

/// Icon of an activity kind ("lesson", "quiz", …).
QIcon activityKindIcon(const QString &kind);
/// Icon of a state.
QIcon activityStateIcon(ActivityState state);
/// Human-readable kind ("Lesson", "Spot the bug", …).
QString activityKindLabel(const QString &kind);

} // namespace tkm::app
