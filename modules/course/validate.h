#pragma once
// The rules a course module's content obeys once it is parsed (docs/content-format.md), on the model itself: ids
// well formed and unique, counts (at least two choices, at most kMaxDragTargets targets, …), cross references
// (a drag item's target, a note's or bug line's place in its listing), non-empty text, diagram states. Qt-free.
//
// The loader (loader.h) runs these same rules after building the model and locates their findings in the files;
// the instructor's editor runs them on the module being edited, with no file written, and marks the fields.
// What only a file can be wrong about (JSON syntax, types, unknown fields, paths, front matter) stays the loader's.

#include "modules/course/loader.h"
#include "modules/course/model.h"

#include <string>
#include <vector>

namespace tkm::course {

/// One finding of validate(), keyed by where its field is written in the module's content files.
struct FieldDiagnostic
{
    /// Index into Module::activities of the activity whose file holds the field; -1: module.json (the module's
    /// own fields and the activity list, e.g. "/activities/2/id").
    int activity = -1;
    /// JSON pointer of the field in that file ("/questions/1/choices/0/explanation"). Lesson pages: "/title",
    /// "/minutes" and "/markdown/<1-based line of Lesson::markdown>".
    std::string pointer;
    int column = 0;                      ///< [1-based, UTF-8 code points] in a "/markdown/<line>" line; 0 otherwise
    bool atKey = false;                  ///< the key is at fault (a note's line number), not its value
    Severity severity = Severity::Error; ///< Error: the loader would refuse the module
    std::string message;                 ///< one sentence: what is wrong and what to do (the loader's wording)
};

/// Checks `module` (as built by the loader or edited in memory) against the content rules. Empty = valid. Exercise
/// activities are not looked into: their spec is checked by the engine when their folder is loaded.
std::vector<FieldDiagnostic> validate(const Module& module);

/// The callouts of a lesson body (Lesson::markdown), with lines counted from `bodyFirstLine` [1-based line of the
/// page]; malformed callouts are left out (validate() names them).
std::vector<Callout> lessonCallouts(const std::string& markdown, int bodyFirstLine);

} // namespace tkm::course
