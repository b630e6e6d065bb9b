#pragma once
// `tkm-run validate <pack-or-folder>`: checks a .tkmpack file, a pack folder, a content root or one module folder.
// Schema and content rules come from tkm_course (docs/content-format.md, docs/exercise-spec.md); every exercise
// source (starter, solution, reference, each bug variant) is compiled with NVRTC for kDefaultCc (no GPU needed).
// GPU verdicts (solution passes, bug variants fail as declared) are not run here. Qt-free.

#include "modules/course/loader.h"
#include "modules/packs/archive.h"

#include <filesystem>
#include <string>
#include <vector>

namespace tkm::packs {

/// Exit codes of validatePackOrFolder (and `tkm-run validate`).
enum ValidateExit : int {
    kValidateOk = 0,       ///< no errors (warnings allowed)
    kValidateFailed = 1,   ///< at least one Error diagnostic
    kValidateUnusable = 2, ///< the path does not exist or is not a pack, pack file, content root or module folder
};

/// Options of validatePackOrFolder.
struct ValidateOptions
{
    bool compile = true;                  ///< compile every exercise source with NVRTC
    int computeCapability = 90;           ///< major·10 + minor of the target (sm_90 = H200)
    bool useCompileCache = true;          ///< use the engine's CUBIN cache
    std::filesystem::path workDir;        ///< where a .tkmpack is unpacked (empty: the system temp folder)
    ArchiveLimits limits;                 ///< limits for a .tkmpack
};

/// Result of a validation.
struct ValidationResult
{
    std::vector<course::Diagnostic> diagnostics; ///< every problem; files inside a .tkmpack read "<file>.tkmpack/<entry>"
    int exitCode = kValidateOk;                  ///< a ValidateExit value
    int modules = 0;                             ///< modules checked
    int sourcesCompiled = 0;                     ///< exercise sources given to NVRTC
};

/// Validates `path`: a `.tkmpack` file, a pack folder (pack.json), a content root (course.json) or a module folder
/// (module.json). Never throws; unreadable input becomes a diagnostic and exit code kValidateUnusable.
ValidationResult validatePackOrFolder(const std::filesystem::path& path, const ValidateOptions& options = {});

/// Compiles every source of one loaded exercise; appends an Error per failure (a bug variant declared
/// `compile_error` must fail to compile). Returns the number of sources compiled.
int compileExerciseSources(const course::Exercise& exercise, const ValidateOptions& options,
                           std::vector<course::Diagnostic>& diagnostics);

} // namespace tkm::packs
