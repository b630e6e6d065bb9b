#pragma once
// Internal to the runner: one correctness case of one kernel — first launch on buffers guarded at the end,
// the float64 reference on the same rounded inputs, the check, a second launch on fresh buffers guarded at the
// start and the bit-for-bit comparison of the two (docs/exercise-spec.md, "Second launch"). A tuning job repeats
// the first launch on the same buffers, as the autotuner's benchmark runs do, and diagnoses outputs that
// accumulate across those launches.

#include "engine/cuda/context.h"
#include "engine/cuda/driver.h"
#include "engine/cuda/module.h"
#include "engine/memory/buffer_pool.h"
#include "engine/problem/instance.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"
#include "engine/runner/reference_cache.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tkm::runner::detail {

/// Launches per case on the same buffers in a tuning job (the autotuner's warm-up and timed runs, in small).
inline constexpr int kTuningLaunches = 3;

/// How often the first launch runs on the same buffers, and what is zeroed in between.
struct RepeatPlan
{
    int launches = 1;                      ///< 1: a plain job; kTuningLaunches in a tuning job
    std::vector<std::string> resetBetween; ///< outputs zeroed before each repeated launch (declared or the spec's)
    std::vector<std::string> mustDeclare;  ///< outputs the learner must declare in reset_to_zero but did not
};

/// What a warm worker lends a case: held inputs and reference outputs, and pooled guarded buffers. Every
/// pointer may be null (then the case generates, runs the reference and maps buffers itself).
struct CaseResources
{
    CaseCache* cache = nullptr;        ///< inputs and reference outputs (reference_cache.h)
    std::string key;                   ///< CaseCache::caseKey() of the case
    memory::BufferPool* pool = nullptr; ///< guarded buffers kept mapped between cases and jobs
};

/// What one case produced.
struct CaseOutcome
{
    report::CaseInfo info;                    ///< the case's report entry
    std::map<std::string, double> stageMs;    ///< [ms] where the time went: inputs, buffers, launch, reference, check
    std::optional<cuda::CudaFailure> fault;   ///< sticky error: the process must stop
    int faultLaunch = 0;                      ///< 1 or 2 (0: the reference faulted)
    std::optional<engine::Error> engineError; ///< the engine could not run the case
    std::vector<std::string> printed;         ///< device printf output of the first launch
    int64_t printedDropped = 0;               ///< further lines not kept
};

/// Applies the job's reset_to_zero to `spec` and returns the launch plan of its cases. A plain job's list
/// replaces the spec's (a bug variant). A tuning job's list is the learner's declaration: the spec's and the
/// declared outputs start at zero; between the repeated launches the declared ones are zeroed, plus the spec's
/// own list unless its autotune block has declare_reset_to_zero. Errors (BadInput): a name that is not an out or
/// inout buffer of the kernel.
engine::Expected<RepeatPlan> applyResetToZero(const Job& job, bool tuning, problem::ExerciseSpec& spec);

/// Runs one case of `inst` with `learner` and checks it against `reference` (see the file comment).
/// `beforeLaunch`, when set, is called before each launch of the learner's kernel (a printing kernel's progress).
CaseOutcome runCase(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& learner,
                    const cuda::Kernel& reference, const problem::ProblemInstance& inst, const RepeatPlan& repeat = {},
                    const std::function<void()>& beforeLaunch = {}, const CaseResources& resources = {});

/// Holds the inputs of `inst` (with their float64 images) and the reference's outputs on them in `res.cache`, so
/// that a later runCase() of the same case launches only the learner's kernel (the worker's warm-up request).
/// Does nothing without a cache. Errors: those of the input generation and of the reference launch.
engine::Status warmCase(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& reference,
                        const problem::ProblemInstance& inst, const CaseResources& res);

/// Whether a CUBIN calls device printf (CUDA printf, tl.device_print): its symbols name `vprintf`.
bool usesDevicePrintf(const std::vector<char>& cubin);

/// The sentence for outputs that accumulated across repeated launches: names the missing reset_to_zero
/// declaration when the outputs are in `repeat.mustDeclare`.
std::string accumulationMessage(const std::vector<std::string>& accumulated, const RepeatPlan& repeat);

} // namespace tkm::runner::detail
