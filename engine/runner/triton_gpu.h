#pragma once
// Internal to the runner: the GPU path of a Triton job. Per case the kernel is bound (triton_binding.h), checked
// once per specialisation, lowered to CUDA C++ (engine/triton/lower) with the spec's parameters as its C
// signature, and compiled by NVRTC (the CUBIN cache keys on the generated source); the case then takes the
// CUDA pipeline (guarded run, float64 reference, check, second launch, measure) with the Triton launch: the
// binding's grid, 32·num_warps threads. NVRTC or ptxas errors in generated code are internal errors of our
// compiler, named on the Triton line they came from. A GPU fault is diagnosed by the probes (diagnose.h), then
// the case is replayed in the CPU interpreter to add the line, program and lane (locateFault).

#include "engine/compile/compiler.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"
#include "engine/runner/triton_job.h"
#include "engine/triton/lower/lower.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tkm::runner::detail {

/// Entry name of every lowered learner kernel.
inline constexpr const char* kTritonEntry = "tkm_triton_kernel";

/// One specialisation of the learner's Triton kernel, lowered and compiled.
struct TritonGpuKernel
{
    TritonBinding binding;                               ///< the binding it was made for
    triton::lower::Lowered lowered;                      ///< generated CUDA C++ and its line map
    compile::CompileResult compiled;                     ///< NVRTC's result for lowered.source
    std::optional<report::DiagnosticInfo> internalError; ///< the lowering or NVRTC failed on generated code
    /// 32·num_warps threads, no dynamic shared memory, and the grid of the first case it was made for: the grid
    /// is per case — use the instance's launch that forCase() set, never this one's grid
    problem::LaunchDims launch;
    /// Compiled and loadable.
    bool ok() const { return compiled.ok && !internalError; }
};

/// Lowers and compiles the learner's Triton kernel of a job, once per specialisation.
class TritonGpuCompiler
{
public:
    /// For `job`'s source on `spec` (which must have a Triton track), compiled for compute capability `cc`.
    TritonGpuCompiler(const Job& job, const problem::ExerciseSpec& spec, int cc);
    /// The kernel for `inst`, compiled on first use of its specialisation; sets `inst.launch` to its launch.
    /// nullptr: the kernel does not bind or check for this case (see diagnostics()). Errors: spec problems
    /// (a bad meta expression) and NVRTC unusable.
    engine::Expected<const TritonGpuKernel*> forCase(problem::ProblemInstance& inst);
    /// Syntax, binding and checker diagnostics so far (warnings included).
    const std::vector<triton::Diagnostic>& diagnostics() const { return m_diags; }

private:
    const Job& m_job;
    const problem::ExerciseSpec& m_spec;
    int m_cc;
    Specialisations m_checked;
    std::map<std::string, std::unique_ptr<TritonGpuKernel>> m_kernels; // by binding key
    std::vector<triton::Diagnostic> m_diags;
};

/// The lowered kernel's C parameters: every spec parameter in spec order ("float*" for an f32 buffer, "int" for
/// an i32 scalar, …), so the CUDA pipeline packs its arguments as for a CUDA kernel.
std::vector<triton::lower::AbiParam> tritonAbi(const problem::ProblemInstance& inst);

/// Adds the generated source and, per Triton line, its generated lines to a compile report (neither when the
/// source is over compile::kMaxSourceBytes).
void addGeneratedSource(report::CompileInfo& ci, const triton::lower::Lowered& lowered);

/// The internal-error sentence of a kernel whose generated code did not compile (names the Triton line).
std::string internalErrorSentence(const report::DiagnosticInfo& d);

/// Replays case `caseIndex` in the CPU interpreter after a GPU fault and adds its line, column, program and lane
/// to `fault` (and the interpreter's verdict to `fault.interpreter`); says plainly when the two disagree.
void locateFault(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                 const RepeatPlan& repeat, int caseIndex, report::FaultInfo& fault);

} // namespace tkm::runner::detail
