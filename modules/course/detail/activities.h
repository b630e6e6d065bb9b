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

/// The model rules of one activity's content (validate.cpp): ids, counts, cross references, line ranges, non-empty
/// text. Problems go to `out` at the JSON pointers of the activity's file; lesson pages are checked by their parser.
void checkActivity(const Activity& activity, Reporter& out);

/// The model rules of a module's own fields and activity list (module.json pointers).
void checkModuleFields(const Module& module, Reporter& out);

/// Passes model-rule problems on to a content file, except where a parse error of that file already spoke.
class ModelRulesInto : public Reporter
{
public:
    explicit ModelRulesInto(JsonFile& file) : m_file(file) {}
    void add(const std::string& pointer, Severity severity, std::string message, bool atKey = false) override;
    void missing(const std::string& object, const std::string& field, std::string message) override;

private:
    JsonFile& m_file;
};

/// Checks a step-through step's `state` against its diagram's fields (content-format.md table).
void checkDiagramState(Diagram diagram, const nlohmann::json& state, Reporter& file, const std::string& pointer);

} // namespace tkm::course::detail
