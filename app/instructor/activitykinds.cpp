// The table of activity kinds for instructor mode (activitykinds.h).
#include "app/instructor/activitykinds.h"

#include "app/activities/dragmatchview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/lessonview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/activities/walkthroughview.h"
#include "app/common/qtconvert.h"
#include "app/course/coursenavigator.h"
#include "app/instructor/dragmatcheditor.h"
#include "app/instructor/exerciseactivityeditor.h"
#include "app/instructor/lessoneditor.h"
#include "app/instructor/quizeditor.h"
#include "app/instructor/spotthebugeditor.h"
#include "app/instructor/stepthrougheditor.h"
#include "app/instructor/walkthrougheditor.h"

#include <algorithm>

namespace tkm::app {

namespace {

// One row: the kind, its editor E and its learner's view V; `addable` kinds start from E::newActivity.
template <class E, class V> ActivityKindEntry row(course::ActivityKind kind, bool addable)
{
    ActivityKindEntry e{kind, {}, {}, {}, {}};
    e.displayName = [kind] { return activityKindLabel(qs(course::activityKindName(kind))); };
    e.createEditor = [](QWidget* parent) -> ActivityEditor* { return new E(parent); };
    e.createPreview = [](const course::Activity& a, const ActivityContext& c, QWidget* parent) -> ActivityView* {
        return new V(a, c, parent);
    };
    if constexpr (requires { E::newActivity(std::string()); }) {
        if (addable)
            e.newActivity = [](const std::string& id) { return E::newActivity(id); };
    }
    return e;
}

} // namespace

const std::vector<ActivityKindEntry>& activityKinds()
{
    using K = course::ActivityKind;
    static const std::vector<ActivityKindEntry> kinds = {
        row<LessonEditor, LessonView>(K::Lesson, true),
        row<WalkthroughEditor, WalkthroughView>(K::Walkthrough, true),
        row<QuizEditor, QuizView>(K::Quiz, true),
        row<SpotTheBugEditor, SpotTheBugView>(K::SpotTheBug, true),
        row<DragMatchEditor, DragMatchView>(K::DragMatch, true),
        row<StepThroughEditor, StepThroughView>(K::StepThrough, true),
        row<ExerciseActivityEditor, ExerciseView>(K::Exercise, false),
    };
    return kinds;
}

const ActivityKindEntry& activityKindEntry(course::ActivityKind kind)
{
    const auto& kinds = activityKinds();
    return *std::find_if(kinds.begin(), kinds.end(), [kind](const ActivityKindEntry& e) { return e.kind == kind; });
}

ActivityEditor* createActivityEditor(course::ActivityKind kind, QWidget* parent)
{
    return activityKindEntry(kind).createEditor(parent);
}

} // namespace tkm::app
