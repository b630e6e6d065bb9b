#pragma once
// One job for the engine: an exercise folder + a kernel source + meta-parameter values + what to do.
// Also the progress messages a job emits while it runs (the worker forwards them as "progress" lines).

#include "engine/problem/instance.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tkm::runner {

/// What a job does.
enum class Mode {
    CompileOnly, ///< compile and check the signature; no GPU needed (verdict "compiled" or "compile_error")
    Run,         ///< compile, then run and check every case on the GPU
};

/// Where a job runs (request field "device"; `tkm-run run --device`).
enum class Device {
    Auto, ///< CUDA C++: the GPU. Triton: the GPU when one is usable (else the CPU interpreter); compile-only: checked
    Cpu,  ///< the CPU interpreter (Triton kernels only): correctness, no timing or traffic
    Gpu,  ///< the GPU; an error when there is none
};

/// "auto", "cpu", "gpu".
const char* deviceName(Device d);
/// Parses "auto" / "cpu" / "gpu"; nullopt otherwise.
std::optional<Device> parseDevice(const std::string& text);

/// Kernel language of a job: Triton for a `.py` source name, CUDA C++ otherwise.
bool isTritonSource(const std::string& sourceName);

/// One job.
struct Job
{
    std::filesystem::path exercise;       ///< exercise folder (holds exercise.json)
    std::string source;                   ///< kernel text as the learner wrote it
    std::string sourceName = "kernel.cu"; ///< file name shown in diagnostics
    problem::MetaValues meta;             ///< meta-parameter overrides (defaults for the rest)
    Mode mode = Mode::Run;                ///< compile only, or run the cases
    bool measure = false;                 ///< after every case passes, run the measure phase (when one is installed)
    std::vector<int> cases;               ///< case indices to run (empty: all)
    std::optional<int> computeCapability; ///< compile for this cc (major·10 + minor) instead of the GPU's
    Device device = Device::Auto;         ///< where to run (Triton kernels may run on the CPU interpreter)
    /// Outputs zeroed before every launch (request field "reset_to_zero"). In a plain job it replaces the spec's
    /// list (a bug variant's "reset_to_zero", docs/exercise-spec.md); in a tuning job it is the learner's
    /// declaration, as @triton.autotune(reset_to_zero=[…]): the outputs zeroed between the autotuner's launches.
    std::optional<std::vector<std::string>> resetToZero;
    /// Tuning job (request field "configs"): meta-parameter sets, each checked on the cases and then timed on
    /// every shape of the spec's `autotune` block (values not named come from `meta`, then the defaults).
    std::vector<problem::MetaValues> configs;
    /// Deep check (request field "deep_check": true or a case index): after the cases, run the first failing case
    /// — or this case, or a default one — under compute-sanitizer (runner/deep_check.h); report `deep_check`.
    bool deepCheck = false;
    std::optional<int> deepCheckCase; ///< the case to check when none fails (spec index)
};

/// A progress message (worker protocol: {"type": "progress", "stage", "case", "of", "text"}).
struct Progress
{
    /// "compile", "case", "print" (before a launch of a kernel that prints), "timing", "traffic", "baseline",
    /// "diagnose"
    std::string stage;
    int index = 0;        ///< 1-based step within the stage (e.g. case 2), 0 when not counted
    int of = 0;           ///< number of steps in the stage, 0 when not counted
    std::string text;     ///< "checking case 2 of 7: n = 3"
    std::string caseName; ///< the case being run, when stage is "case"
};

/// Receives progress messages; called on the thread that runs the job.
using ProgressFn = std::function<void(const Progress&)>;

} // namespace tkm::runner
