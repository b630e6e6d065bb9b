#pragma once
// The job pipeline: parse the spec → compile the learner's kernel (and the float64 reference, cached) for the
// GPU's architecture → for each case: instantiate, generate inputs, allocate guarded buffers (memory/), poison
// the outputs (zero for reset_to_zero), launch, synchronise, download, run the reference on the same rounded
// inputs, check (check/), then launch a second time on fresh buffers guarded at the start instead of the end
// and compare bit for bit (accumulation into outputs, races, reads before the start) → the measure phase when
// every case passes → one report (report/, docs/run-report.md).
//
// A kernel fault (sticky CUDA error) stops the cases, marks the rest skipped, and is diagnosed in fresh
// processes (diagnose.h); afterwards the context is unusable and mustExit() is true: the caller sends the
// report and ends the process (the worker exits with status 3).

#include "engine/cuda/context.h"
#include "engine/cuda/module.h"
#include "engine/problem/spec.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace tkm::compile {
struct CompileResult;
}
namespace tkm::runner::detail {
struct RepeatPlan;
}

namespace tkm::runner {

/// What the measure phase gets: a live context and stream, the learner's loaded kernel and everything
/// needed to instantiate the spec's performance case.
struct MeasureInput
{
    const cuda::Context& context;           ///< current, healthy context
    const cuda::Stream& stream;             ///< the runner's stream
    const cuda::Kernel& kernel;             ///< the learner's kernel, loaded
    const problem::ExerciseSpec& spec;      ///< the exercise
    const problem::MetaValues& meta;        ///< meta-parameter values of this job
    const compile::CompileResult& compiled; ///< the learner's compilation
    const ProgressFn& progress;             ///< for "timing"/"traffic"/"baseline" progress
    /// The kernel's launch when it is not the spec's (a Triton kernel: its grid, 32·num_warps threads).
    std::optional<problem::LaunchDims> launch = std::nullopt;
};

/// What the autotune phase gets: a live context and stream, the learner's source and the configurations that
/// passed every case (resolved), with their indices in the report's autotune.configs.
struct AutotuneInput
{
    const cuda::Context& context;                    ///< current, healthy context
    const cuda::Stream& stream;                      ///< the runner's stream
    const problem::ExerciseSpec& spec;               ///< the exercise (has an `autotune` block)
    const std::string& source;                       ///< the learner's kernel text
    const std::vector<problem::MetaValues>& configs; ///< configurations to time, meta values resolved
    const std::vector<int>& configIndices;           ///< index of each in report.autotune.configs
    int cc = 0;                                      ///< compute capability (major·10 + minor)
    const ProgressFn& progress;                      ///< for "autotune" progress
};

/// The autotune phase (engine/measure/autotune_phase.h): times every configuration on every autotune shape and
/// fills samples and winners of the report's autotune section. An Error is recorded in its note, not fatal.
using AutotuneFn = std::function<engine::Status(const AutotuneInput& input, report::AutotuneInfo& autotune)>;

/// The measure phase (engine/measure): fills timing/traffic/ceilings/roofline/baselines of the report.
/// Called only when the job asks for it and every case passed. An Error is recorded, not fatal.
using MeasureFn = std::function<engine::Status(const MeasureInput& input, report::RunReport& report)>;

/// What the measure phase's warm-up gets: a live context and stream and, when known, the exercise whose
/// performance case to prepare.
struct WarmInput
{
    const cuda::Context& context;                 ///< current, healthy context
    const cuda::Stream& stream;                   ///< the runner's stream
    const problem::ExerciseSpec* spec = nullptr;  ///< exercise to prepare (nullptr: none)
    const problem::MetaValues* meta = nullptr;    ///< its meta values (with spec)
    bool ceilings = true;                         ///< also read (or calibrate) the ceilings: only when the GPU is idle
    const ProgressFn& progress;                   ///< for "warm" progress
};

/// The measure phase's warm-up: creates its per-worker state (flush buffer, CUPTI session), reads the ceilings
/// from the disk cache and prepares the performance case, adding stage times [ms] to `stagesMs`. The runner calls
/// it for a `warm` request, and in the background while the first job of a fresh worker compiles and checks.
using WarmFn = std::function<engine::Status(const WarmInput& input, std::map<std::string, double>& stagesMs)>;

/// Settings of a Runner.
struct RunnerOptions
{
    int deviceOrdinal = 0;                 ///< GPU to use
    std::filesystem::path probeExecutable; ///< tkm-run for --probe (empty: defaultTkmRunPath())
    double probeTimeoutS = 8;              ///< per probe process [s]
    MeasureFn measure;                     ///< measure phase; none: timing fields stay absent
    AutotuneFn autotune;                   ///< autotune phase of tuning jobs; none: nothing is timed
    WarmFn warm;                           ///< warm-up of the measure phase; none: nothing is prepared early
    bool warmInBackground = true;          ///< a fresh worker's first job warms the measure phase meanwhile
};

/// Runs jobs; keeps the CUDA context, stream and loaded modules warm between jobs. Not thread-safe: one job at
/// a time, on one thread.
class Runner
{
public:
    /// No CUDA work happens until the first job that needs the GPU.
    explicit Runner(RunnerOptions options = {});
    ~Runner();
    Runner(const Runner&) = delete;            ///< owns CUDA state
    Runner& operator=(const Runner&) = delete; ///< owns CUDA state

    /// Runs one job and returns its report (never throws; engine problems become verdict "error"). A tuning job
    /// (job.configs) checks every configuration on the cases, launching each case kTuningLaunches times on the
    /// same buffers, then times the passing ones with the autotune phase (report section `autotune`).
    report::RunReport run(const Job& job, const ProgressFn& progress = {});
    /// Warms the worker so that the next job is as fast as later ones: creates the context, runs the measure
    /// phase's warm-up (CUPTI session, ceilings from the disk cache) and, with `exercise`, compiles its reference
    /// and prepares its performance case. The report has verdict "pass" and stages_ms, or "error" with the reason
    /// (no GPU: error.kind "no-gpu"/"no-driver").
    report::RunReport warm(const std::filesystem::path& exercise = {}, const ProgressFn& progress = {});
    /// A sticky CUDA error happened: the process must send its report and exit (the context is unusable).
    bool mustExit() const;
    /// The device in report form, creating the context if needed; nullopt (and `why`) without a GPU.
    std::optional<report::DeviceInfo> device(std::string* why = nullptr);

private:
    using TimePoint = std::chrono::steady_clock::time_point;
    // Where a job's kernel runs: the compute capability to compile for, no GPU (compile only, say why), or a
    // context that a fault made unusable.
    struct GpuTarget
    {
        int cc = 0;
        bool fresh = false; // this job created the context
        std::optional<engine::Error> noGpu;
        std::optional<engine::Error> unusable;
    };
    // The learner's kernel for one case (a Triton kernel: its specialisation, and the case's launch set), and
    // whether it calls device printf.
    struct CaseKernel
    {
        const cuda::Kernel* kernel = nullptr;
        bool prints = false;
    };
    using CaseKernelFn = std::function<engine::Expected<CaseKernel>(problem::ProblemInstance& inst)>;
    struct CasesResult
    {
        bool allPass = false;
        int faultCase = -1; // spec index of the case that faulted
    };
    report::RunReport runOne(const Job& job, const ProgressFn& progress, bool tuning);
    GpuTarget gpuTarget(const Job& job, report::RunReport& r);
    static std::vector<int> allCases(const problem::ExerciseSpec& spec);
    void startBackgroundWarm(const problem::ExerciseSpec& spec, const problem::MetaValues& meta);
    // The warm-up request's share of the cases: inputs and reference outputs held for the first Run (warm.cpp).
    void warmCases(const problem::ExerciseSpec& spec, const problem::MetaValues& meta, const cuda::Kernel& reference);
    void waitForWarm(report::RunReport& r);
    void addDeepCheck(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                      const std::vector<int>& indices, const ProgressFn& progress, report::RunReport& r) const;
    static report::RunReport compiledOnly(report::RunReport r, std::string summary, const GpuTarget& target,
                                          TimePoint t0);
    engine::Expected<const cuda::Kernel*> referenceKernel(const problem::ExerciseSpec& spec, int cc);
    report::RunReport runCases(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                               const detail::RepeatPlan& repeat, const ProgressFn& progress, report::RunReport r,
                               const CaseKernelFn& learnerFor, const cuda::Kernel& reference, CasesResult& out);
    void measurePassing(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                        const compile::CompileResult& compiled, const cuda::Kernel& kernel,
                        std::optional<problem::LaunchDims> launch, const ProgressFn& progress, report::RunReport& r);
    report::RunReport runTritonGpu(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                                   const detail::RepeatPlan& repeat, const ProgressFn& progress, report::RunReport r,
                                   TimePoint t0);                            // triton_gpu.cpp
    report::RunReport runTuning(const Job& job, const ProgressFn& progress); // tuning.cpp
    const cuda::Context* context() const;                                    // nullptr before the first GPU job
    const cuda::Stream* stream() const;                                      // nullptr before the first GPU job
    struct Session;
    RunnerOptions m_options;
    std::unique_ptr<Session> m_session;
};

/// Report form of a device.
report::DeviceInfo toReportDevice(const cuda::DeviceInfo& info);

} // namespace tkm::runner
