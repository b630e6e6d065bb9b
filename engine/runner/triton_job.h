#pragma once
// Internal to the runner: a job whose kernel is Triton (a .py source), run on the CPU interpreter
// (engine/triton/interp): parse → bind and check per case (one specialisation per distinct constexpr set) →
// for each case the same inputs, float64 reference (the track's Triton reference at fp64, interpreted) and
// checks (engine/check) as a GPU job → one report with language "triton" and executor "cpu-interpreter".
// Faults name the line, column, program id, lane, buffer and offset. The GPU path (triton_gpu.h) shares the
// specialisation cache and the diagnostic conversion declared here.

#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/report/run_report.h"
#include "engine/runner/check_case.h"
#include "engine/runner/job.h"
#include "engine/runner/triton_binding.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tkm::runner::detail {

/// Time one interpreted launch may take before it is stopped as endless [s] (the worker's job deadline, 10 s by
/// default, still bounds the whole job).
inline constexpr double kCpuLaunchLimitS = 8.0;

/// Checked kernels of one Triton source, one per specialisation key (TritonBinding::key).
class Specialisations
{
public:
    /// Holds `src` for the bindings checked through get().
    explicit Specialisations(std::shared_ptr<TritonSource> src);
    /// The checked IR for `b` (checked once per key), or nullptr with the checker's diagnostics appended.
    const triton::ir::Function* get(const TritonBinding& b, std::vector<triton::Diagnostic>& diags);
    const TritonSource& source() const { return *m_src; } ///< the parsed source

private:
    std::shared_ptr<TritonSource> m_src;
    std::map<std::string, triton::CheckResult> m_cache;
};

/// Report form of a Triton diagnostic on `file` (notes folded into the message).
report::DiagnosticInfo toDiagnosticInfo(const triton::Diagnostic& d, const std::string& file);
/// `diags` without repeats: one kernel checked once per constexpr specialisation (one per BLOCK_SIZE the cases
/// use) says the same warning once per specialisation; the first of each (line, column, severity, message) stays.
std::vector<triton::Diagnostic> distinctDiagnostics(const std::vector<triton::Diagnostic>& diags);

/// The error of a Triton job on an exercise without a Triton track (BadInput).
engine::Error noTritonTrack(const problem::ExerciseSpec& spec);

/// "file:line:column: message" of the first error in `diags`, or "" when there is none.
std::string firstTritonError(const std::vector<triton::Diagnostic>& diags, const std::string& file);

/// A Triton kernel decorated with @triton.autotune on an exercise that has an autotune block: the job with the
/// decorator's configurations as its tuning configurations (ints of the config dicts; num_warps/num_stages as
/// NUM_WARPS/NUM_STAGES where the exercise has them) and its reset_to_zero as the declared outputs (unless the
/// job declares its own). nullopt otherwise: the job runs as it is.
std::optional<Job> tritonAutotuneJob(const Job& job);

/// Runs a Triton job on the CPU interpreter. `r` holds what runOne filled (exercise, meta, device).
report::RunReport runTritonOnCpu(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                                 const RepeatPlan& repeat, const ProgressFn& progress, report::RunReport r);

} // namespace tkm::runner::detail
