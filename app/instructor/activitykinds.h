#pragma once
// Instructor mode's table of activity kinds: for each kind of modules/course/model.h, its name in the app, its
// editor, its preview (the learner's view) and the content a new activity of the kind starts with. The instructor
// page reads only this table, so a new kind is one row here plus its editor (<kind>editor.{h,cpp}).

#include "modules/course/model.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace tkm::app {

class ActivityEditor;
class ActivityView;
struct ActivityContext;

/// One activity kind as instructor mode handles it.
struct ActivityKindEntry {
  course::ActivityKind kind;                                       ///< the kind
  std::function<QString()> displayName;                           ///< "Quiz", "Code walkthrough", … (translated)
  std::function<ActivityEditor *(QWidget *parent)> createEditor;   ///< the form that edits its content
  /// The learner's view of a valid activity of this kind (the live preview).
  std::function<ActivityView *(const course::Activity &, const ActivityContext &, QWidget *)> createPreview;
  /// A small valid content for a new activity with this id; empty for kinds not added from the Add menu
  /// (exercises come from a folder, InstructorPage::addExerciseActivity).
  std::function<course::Activity(const std::string &id)> newActivity;
};

/// Every kind, in the order of the Add menu.
const std::vector<ActivityKindEntry> &activityKinds();
/// The entry of `kind` (every ActivityKind has one).
const ActivityKindEntry &activityKindEntry(course::ActivityKind kind);
/// The editor for `kind`.
ActivityEditor *createActivityEditor(course::ActivityKind kind, QWidget *parent = nullptr);

} // namespace tkm::app
