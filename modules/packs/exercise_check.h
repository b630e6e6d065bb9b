#pragma once
// Validation of one exercise folder, as an instructor needs it before handing the exercise to a class
// (docs/exercise-spec.md, "Validating an exercise"): the spec parses; the starter, solution, reference and every bug
// variant compile with NVRTC (a bug declared compile_error must not); the weak-case warnings (weak_cases.h); and,
// given a worker client on a machine with a GPU, the verdict table: the solution passes every case, each bug variant
// gets the diagnosis its `expect` declares, the starter compiles and fails (or faults) without crashing the worker.
// Qt-free; `tkm-run validate` and the app's exercise editor (through `tkm-run validate --json`) use it.

#include "engine/compile/compiler.h"
#include "engine/problem/spec.h"
#include "engine/report/run_report.h"
#include "modules/packs/weak_cases.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tkm::worker {
class Client;
}

namespace tkm::packs {

/// The part a source plays in an exercise.
enum class SourceRole { Solution, Bug, Starter, Reference };

/// "solution", "bug", "starter", "reference".
std::string sourceRoleName(SourceRole role);

/// One row of the verdict table: a source, its compile outcome and (with a GPU) its run.
struct SourceCheck
{
    SourceRole role = SourceRole::Solution; ///< what the source is
    std::string file;                       ///< spec-relative path, e.g. "bugs/no-mask.cu"
    std::string pointer;                    ///< JSON pointer of the field naming the file, e.g. "/bugs/0/file"
    std::string title;                      ///< bug variants: their title; empty otherwise
    int bugIndex = -1;                      ///< bug variants: index in `bugs` (or `triton.bugs`); -1 otherwise
    bool triton = false;                    ///< a source of the Triton track (.py), run on the CPU interpreter

    bool compileRan = false;                      ///< NVRTC was asked
    bool compiled = false;                        ///< CUBIN produced and the signature matches
    bool compileExpected = true;                  ///< false for a bug variant declared compile_error
    std::vector<compile::Diagnostic> diagnostics; ///< NVRTC errors and warnings on the source's own lines
    std::string compileProblem; ///< why the compile outcome is wrong (doesn't compile, NVRTC unusable); "" when right

    std::string expected;   ///< diagnosis it must get on the GPU ("pass", "fail or fault", "fault read-past-end in
                            ///< x"); empty for the reference, which is the judge and is not run on its own
    bool ran = false;       ///< run (CUDA: on the GPU; Triton: on the CPU interpreter)
    std::optional<report::Verdict> verdict; ///< the run report's verdict (absent when not run)
    std::string got;        ///< the diagnosis in the words of `expected`, e.g. "fail (unwritten) in case \"n = 3\""
    std::string summary;    ///< the run report's summary sentence
    std::string runProblem; ///< why `got` does not match `expected`; "" when it does or when not run
    std::optional<double> maxAbsError; ///< largest |got − ref| over every checked case and output (when run)
    std::optional<double> maxRelError; ///< largest |got − ref| / |ref| over the same (when run)

    /// Compiled as expected, and (when run) diagnosed as expected.
    bool ok() const { return compileProblem.empty() && runProblem.empty(); }
};

/// Whether GPU verdicts were run, and on what.
struct GpuStatus
{
    bool available = false; ///< a worker listed at least one NVIDIA GPU
    std::string device;     ///< "NVIDIA H200 (cc 9.0)" when available
    std::string reason;     ///< why not, as a sentence ("GPU verdicts were not asked for (--no-gpu).", …)
};

/// The whole check of one exercise folder.
struct ExerciseCheck
{
    std::filesystem::path folder;      ///< the exercise folder
    std::string id;                    ///< spec id (empty when the spec did not parse)
    std::string title;                 ///< spec title
    std::string specError;             ///< parser message without the "exercise.json: " prefix; "" when it parsed
    std::string specErrorPointer;      ///< JSON pointer of the field at fault ("/" for the whole document)
    std::vector<SourceCheck> sources;  ///< solution, bug variants in spec order, starter, reference
    std::vector<SpecWarning> warnings; ///< weak cases, then bug variants that pass on the GPU
    bool gpuRan = false;               ///< the GPU verdicts were run
    bool tritonRan = false;            ///< the Triton track's verdicts were run on the CPU interpreter

    /// No spec error and every source as expected (warnings do not count).
    bool ok() const;
};

/// What checkExercise does.
struct ExerciseCheckOptions
{
    bool compile = true;                         ///< compile every source with NVRTC
    int computeCapability = compile::kDefaultCc; ///< target of those compiles (major·10 + minor)
    bool useCompileCache = true;                 ///< the engine's CUBIN cache
    bool weakCases = true;                       ///< add weakCaseWarnings()
    worker::Client* gpu = nullptr;               ///< run the GPU verdicts through this worker client when set
    bool triton = true;                          ///< check and run the Triton track on the CPU interpreter
    /// Receives one line per step ("bugs/no-mask.cu: running on the GPU"); may be empty.
    std::function<void(const std::string&)> progress;
};

/// Checks the exercise folder `folder` (holds exercise.json). Never throws; a spec that does not parse gives
/// `specError` and nothing else.
ExerciseCheck checkExercise(const std::filesystem::path& folder, const ExerciseCheckOptions& options = {});

/// Checks an already parsed spec (its `dir` is the folder).
ExerciseCheck checkExerciseSpec(const problem::ExerciseSpec& spec, const ExerciseCheckOptions& options = {});

/// Splits a parseSpec() message "exercise.json: /params/2/role: what" into {"/params/2/role", "what"};
/// messages without a pointer give {"/", message-without-the-file-label}.
std::pair<std::string, std::string> splitSpecError(const std::string& message);

/// The declared diagnosis in words: "fault read-past-end in x", "fail (unwritten) in case \"n = 3\"", "timeout".
std::string describeExpect(const problem::BugExpect& expect);
/// A run's diagnosis in the words of describeExpect (the first failing case and its reason for "fail").
std::string describeReport(const report::RunReport& report);
/// Why `report` does not match `expect`, or "" when it does (docs/exercise-spec.md, "bug"): verdict, fault kind and
/// buffer, first failing case and its reason (unwritten > nan > mismatch > nondeterministic).
std::string expectationMismatch(const problem::BugExpect& expect, const report::RunReport& report);

/// Asks the worker for its devices: available with the first device's name, or the reason there is none.
GpuStatus probeGpu(worker::Client& client);

/// The check as JSON (docs/packs.md, "tkm-run validate --json").
nlohmann::json toJson(const ExerciseCheck& check);

} // namespace tkm::packs
