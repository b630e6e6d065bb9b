#pragma once
// `tkm-run validate <pack-or-folder>`: checks a .tkmpack file, a pack folder, a content root, one module folder or
// one exercise folder. Schema and content rules come from tkm_course (docs/content-format.md, docs/exercise-spec.md);
// every exercise goes through checkExercise (exercise_check.h): its sources (starter, solution, reference, each bug
// variant) compiled with NVRTC for kDefaultCc (no GPU needed), the weak-case warnings, and, given a worker client on
// a machine with a GPU, the verdict table (solution passes, bug variants fail as declared, starter fails). Qt-free.

#include "modules/course/loader.h"
#include "modules/packs/archive.h"
#include "modules/packs/exercise_check.h"

#include <functional>

#include <filesystem>
#include <string>
#include <vector>

namespace tkm::packs {

/// Exit codes of validatePackOrFolder (and `tkm-run validate`).
enum ValidateExit : int {
    kValidateOk = 0,       ///< no errors (warnings allowed)
    kValidateFailed = 1,   ///< at least one Error diagnostic
    kValidateUnusable = 2, ///< the path does not exist or is not a pack, pack file, content root, module or
                           ///< exercise folder
};

/// Options of validatePackOrFolder.
struct ValidateOptions
{
    bool compile = true;                  ///< compile every exercise source with NVRTC
    int computeCapability = 90;           ///< major·10 + minor of the target (sm_90 = H200)
    bool useCompileCache = true;          ///< use the engine's CUBIN cache
    std::filesystem::path workDir;        ///< where a .tkmpack is unpacked (empty: the system temp folder)
    ArchiveLimits limits;                 ///< limits for a .tkmpack
    bool weakCases = true;                ///< add the weak-case warnings of every exercise (weak_cases.h)
    worker::Client* gpu = nullptr;        ///< run every exercise's GPU verdicts through this client when set
    bool strict = false;                  ///< warnings count as failures (exit code kValidateFailed)
    /// Receives one line per step ("vector-add: bugs/no-mask.cu: running on the GPU"); may be empty.
    std::function<void(const std::string&)> progress;
};

/// Result of a validation.
struct ValidationResult
{
    std::vector<course::Diagnostic> diagnostics; ///< every problem; files inside a .tkmpack read "<file>.tkmpack/<entry>"
    int exitCode = kValidateOk;                  ///< a ValidateExit value
    int modules = 0;                             ///< modules checked
    int sourcesCompiled = 0;                     ///< exercise sources given to NVRTC
    std::vector<ExerciseCheck> exercises;        ///< every exercise found, in the order checked
};

/// Validates `path`: a `.tkmpack` file, a pack folder (pack.json), a content root (course.json), a module folder
/// (module.json) or an exercise folder (exercise.json). Never throws; unreadable input becomes a diagnostic and exit
/// code kValidateUnusable. Every ExerciseCheck problem is also a diagnostic: compile and GPU-verdict problems as
/// errors on the source file, a spec error and weak-case warnings on exercise.json at the line of their field.
ValidationResult validatePackOrFolder(const std::filesystem::path& path, const ValidateOptions& options = {});

/// Compiles every source of one loaded exercise; appends an Error per failure (a bug variant declared
/// `compile_error` must fail to compile). Returns the number of sources compiled. (No warnings, no GPU.)
int compileExerciseSources(const course::Exercise& exercise, const ValidateOptions& options,
                           std::vector<course::Diagnostic>& diagnostics);

/// Appends the diagnostics of one exercise check (see validatePackOrFolder); returns the number of sources compiled.
int appendCheckDiagnostics(const ExerciseCheck& check, std::vector<course::Diagnostic>& diagnostics);

} // namespace tkm::packs
