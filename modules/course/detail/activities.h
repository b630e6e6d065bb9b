#pragma once
// Internal: loading and validating one activity of a module (docs/content-format.md).

#include "modules/course/detail/json_file.h"
#include "modules/course/loader.h"
#include "modules/course/model.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tkm::course::detail {

/// Resolves `rel` (a path written in `file` at `pointer`) against the module folder: rejects absolute paths and
/// paths that leave the folder, and checks that a file (or, with wantFolder, a folder) exists there.
std::optional<std::filesystem::path> resolveModulePath(const std::filesystem::path& moduleFolder, JsonFile& file,
                                                       const std::string& pointer, const std::string& rel,
                                                       bool wantFolder);

/// Number of lines of a listing (a final newline does not start a new line).
int listingLineCount(const std::string& code);

/// Loads the JSON file of a walkthrough, quiz, spot-the-bug, drag-match or step-through activity into
/// `activity` (payload and title). False when any error was reported.
bool loadActivityFile(const std::filesystem::path& moduleFolder, const std::filesystem::path& file, Activity& activity,
                      std::vector<Diagnostic>& diagnostics);

/// Loads an exercise folder through the engine's spec parser and reads its prompt, starter and solution.
/// Spec errors are located in exercise.json by the JSON pointer the parser names.
std::optional<Exercise> loadExerciseFolder(const std::filesystem::path& folder, std::vector<Diagnostic>& diagnostics);

/// Checks a step-through step's `state` against its diagram's fields (content-format.md table).
void checkDiagramState(Diagram diagram, const nlohmann::json& state, JsonFile& file, const std::string& pointer);

} // namespace tkm::course::detail
