#include "modules/progress/course_outline.h"

namespace tkm::progress {

ModuleOutline outlineOf(const course::Module& module)
{
    ModuleOutline out{module.id, module.title, {}};
    for (const course::Activity& activity : module.activities) {
        ActivityOutline a{activity.id, activity.kind, activity.title, {}};
        if (const auto* quiz = activity.as<course::Quiz>()) {
            for (const course::Question& q : quiz->questions) {
                a.questionIds.push_back(q.id);
            }
        }
        out.activities.push_back(std::move(a));
    }
    return out;
}

std::vector<ModuleOutline> outlineOf(const course::Course& course)
{
    std::vector<ModuleOutline> out;
    for (const course::Module& module : course.modules) {
        out.push_back(outlineOf(module));
    }
    return out;
}

} // namespace tkm::progress
