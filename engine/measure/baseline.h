#pragma once
// Baselines measured side by side with the learner's kernel, with the same method on the same inputs
// (docs/exercise-spec.md "baseline"): a sequence of kernels from a file with temporary buffers (compiled with
// NVRTC through compile/, launched with the driver) or cuBLAS GEMM (libcublas.so.13 from the toolkit, loaded at
// run time; cublasGemmEx with the buffers' dtypes in, FP32 compute).

#include "engine/measure/measure.h"
#include "engine/measure/perf_case.h"
#include "engine/problem/spec.h"
#include "engine/report/run_report.h"

#include <string>

namespace tkm::measure {

/// One measured baseline.
struct BaselineResult
{
    std::string name;      ///< spec name
    TimingResult timing;   ///< same stopping rule as the learner's
    TrafficResult traffic; ///< available = false when CUPTI cannot
    double timeRatio = 0;  ///< learner median / baseline median [1]; 0 when unknown
    double bytesRatio = 0; ///< learner (read + stored) / baseline (read + stored) [1]; 0 when unknown
    std::string error;     ///< non-empty when the baseline could not be measured (sentence)
};

/// Measures `baseline` on the learner's performance case `pc` (same buffers, outputs reset the same way) and
/// compares it with `learner`. `computeCapability` is major·10 + minor. Never throws; failures go to `error`.
BaselineResult measureBaseline(Measurer& measurer, CUstream stream, const problem::ExerciseSpec& spec,
                               const problem::MetaValues& meta, const problem::Baseline& baseline, const PerfCase& pc,
                               const PerformanceResult& learner, int computeCapability,
                               const MeasureOptions& options = {});

/// Learner / baseline ratios from the two results (0 where a figure is missing).
void computeRatios(const PerformanceResult& learner, BaselineResult& baseline);

/// The run report's `baselines[i]`.
report::BaselineInfo toBaselineInfo(const BaselineResult& r);

} // namespace tkm::measure
