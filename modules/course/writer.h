#pragma once
// Writing the course model back to the on-disk format (docs/content-format.md), for instructor mode. Qt-free.
//
// The writer is the loader's inverse: loadModule(writeModule(m)) gives a module whose content equals m (ids,
// titles, texts, choices, lines, notes, states, …); only file paths and Markdown line numbers may differ.
// Listings are written inline (`code`, `fixed_code`), never as `code_file`. An activity keeps the file it was
// loaded from (its path relative to Module::folder); a new activity gets `lessons/<id>.md` or
// `activities/<id>.json`. Exercise folders are not written from the model: they are copied as they are.

#include "engine/common/error.h"
#include "modules/course/model.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::course {

/// One text file of a written module.
struct ModuleFile
{
    std::filesystem::path relative; ///< path inside the module folder, e.g. "activities/quiz.json"
    std::string text;               ///< the file's full text (UTF-8, '\n' line ends, trailing newline)
    int activity = -1;              ///< index into Module::activities; -1 for module.json
};

/// The relative path activity `index` [0-based] is written to: its `source` relative to `module.folder` when it
/// lies inside, else `lessons/<id>.md` (lesson), `activities/<id>.json` (other kinds) or `exercises/<id>` (exercise
/// folder), with "-2", "-3", … added when another activity of the module already uses that path.
std::filesystem::path activityRelativePath(const Module& module, std::size_t index);

/// module.json plus one file per non-exercise activity, in activity order. Never fails: it writes what the model
/// holds; whether that is valid content is for the loader to say.
std::vector<ModuleFile> moduleFiles(const Module& module);

/// Writes moduleFiles(module) into `destFolder` (created when missing; each file through a temporary file and a
/// rename) and copies every exercise folder from its current place (Activity::source / Exercise::folder) into
/// `destFolder` when the two differ. Files of `destFolder` that the module does not name are left alone.
/// Errors: Io naming the file or folder that could not be written or copied.
engine::Status writeModule(const Module& module, const std::filesystem::path& destFolder);

/// The first difference in content between two modules, as a short phrase ("activity \"q\": question 2, choice 1:
/// explanation differs"); "" when they hold the same content. Compares every field the writer writes and ignores
/// paths (Module::folder, Activity::source, listings' files), Markdown line numbers and the callout list (parsed
/// from the Markdown, which is compared). For exercises, compares
/// the spec id, title, prompt, starter, solution and hints, and the Triton track's prompt and hints.
std::string contentDifference(const Module& a, const Module& b);

/// The JSON pointer ("/questions/1/choices/0/explanation") of the key or value that starts at `line`, `column`
/// [1-based; column in UTF-8 code points] of a valid JSON `text`, as the loader's diagnostics locate them; the
/// innermost value containing the position when none starts exactly there; "" for the root or invalid text.
std::string jsonPointerAt(std::string_view text, int line, int column);

} // namespace tkm::course
