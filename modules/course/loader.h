#pragma once
// Loading and validating course content (docs/content-format.md). Qt-free.
//
// Everything is checked before anything is returned: when any diagnostic of severity Error is found, the result
// holds no Course / Module at all (nothing half-loaded reaches the app). Warnings never block loading.
// Positions: JSON problems carry line and column of the offending key or value ([1-based], column counted in
// UTF-8 code points); Markdown problems carry the line (column 0 = whole line, or the column of the bad token).

#include "modules/course/model.h"

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace tkm::course {

/// Largest Markdown page (lesson, course summary, exercise prompt) the loader accepts [bytes]: the app renders a
/// page at once, and a longer one is better split into several lessons.
inline constexpr std::size_t kMaxMarkdownBytes = 256 * 1024;

/// How bad a problem is.
enum class Severity { Error, Warning };

/// One problem found in the content, located as precisely as the file format allows.
struct Diagnostic
{
    std::filesystem::path file;          ///< the file at fault (the folder when a whole file is missing from it)
    int line = 0;                        ///< [1-based]; 0 when the problem concerns the whole file
    int column = 0;                      ///< [1-based, UTF-8 code points]; 0 when unknown or not applicable
    Severity severity = Severity::Error; ///< Error blocks loading
    std::string message;                 ///< one sentence: what is wrong and what to do

    /// "file:line:column: error: message" (line/column left out when 0); `base` shortens the path when given.
    std::string format(const std::filesystem::path& base = {}) const;
};

/// Whether any diagnostic is an Error.
bool hasErrors(const std::vector<Diagnostic>& diagnostics);

/// Result of loadCourse: `course` is set exactly when `diagnostics` holds no Error.
struct CourseLoadResult
{
    std::optional<Course> course;        ///< the validated course, or nullopt
    std::vector<Diagnostic> diagnostics; ///< every problem found, in the order found
};

/// Result of loadModule: `module` is set exactly when `diagnostics` holds no Error.
struct ModuleLoadResult
{
    std::optional<Module> module;        ///< the validated module, or nullopt
    std::vector<Diagnostic> diagnostics; ///< every problem found
};

/// Result of loadExercise: `exercise` is set exactly when `diagnostics` holds no Error.
struct ExerciseLoadResult
{
    std::optional<Exercise> exercise;    ///< the exercise, or nullopt
    std::vector<Diagnostic> diagnostics; ///< every problem found in the folder
};

/// Loads one exercise folder (exercise.json through the engine's spec parser, its prompt, starter and solution),
/// as a module's exercise activity does.
ExerciseLoadResult loadExercise(const std::filesystem::path& exerciseFolder);

/// Loads a content root: `course.json` plus every sub-folder that holds a `module.json`.
/// Checks, besides each module: module ids and orders unique, prerequisites name earlier modules of the course,
/// the course summary file. Never throws for bad content; I/O problems become diagnostics.
CourseLoadResult loadCourse(const std::filesystem::path& contentRoot);

/// Loads one module folder (a built-in module or one from an instructor's pack). Prerequisites are checked for
/// form only (a pack may require built-in modules that are not loaded here).
ModuleLoadResult loadModule(const std::filesystem::path& moduleFolder);

/// Validates a content root (has `course.json` or module sub-folders) or a single module folder (has
/// `module.json`), for `tkm-run validate`; returns every diagnostic (empty = valid).
std::vector<Diagnostic> validateTree(const std::filesystem::path& path);

/// Number of quiz questions over all quiz activities of a module (the course asks for ≥ 6 per module).
int quizQuestionCount(const Module& module);

} // namespace tkm::course
