#pragma once
// The outline the completion rules need (completion.h), taken from a loaded course module (modules/course/model.h).

#include "modules/course/model.h"
#include "modules/progress/completion.h"

#include <vector>

namespace tkm::progress {

/// The module's id, title, and each activity's id, kind, title and (for a quiz) question ids, in course order.
ModuleOutline outlineOf(const course::Module& module);
/// outlineOf() for every module of the course, in course order.
std::vector<ModuleOutline> outlineOf(const course::Course& course);

} // namespace tkm::progress
