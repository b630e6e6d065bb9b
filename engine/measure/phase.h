#pragma once
// The measure phase as the runner calls it (runner::MeasureFn): performance case on the device, timing, DRAM
// traffic, ceilings, roofline and baselines, written into the run report. Install it once per worker:
//
//   runner::RunnerOptions options;
//   options.measure = tkm::measure::makeMeasurePhase();
//
// The returned function keeps a Measurer (flush buffer, CUPTI session, ceilings) alive between jobs and
// re-creates it when the runner's context changes.

#include "engine/measure/measure.h"
#include "engine/report/run_report.h"
#include "engine/runner/runner.h"

namespace tkm::measure {

/// Options of the installed measure phase.
struct PhaseOptions
{
    MeasureOptions measure; ///< timing / traffic / calibration options
    bool baselines = true;  ///< measure the spec's baselines side by side
};

/// The runner's measure phase. Errors returned by the function are recorded by the runner (not fatal); a spec
/// without a performance case gets no timing and no error.
runner::MeasureFn makeMeasurePhase(PhaseOptions options = {});

/// The measure phase and its warm-up (runner::WarmFn), sharing one Measurer and performance case.
struct MeasurePhases
{
    runner::MeasureFn measure; ///< RunnerOptions::measure
    runner::WarmFn warm;       ///< RunnerOptions::warm
};

/// Both functions of the measure phase (see makeMeasurePhase); the warm-up and a job may run on two threads.
MeasurePhases makeMeasurePhases(PhaseOptions options = {});

/// Writes timing, traffic, ceilings and roofline of `result` into `report` (docs/run-report.md) and the stage
/// times into report.stagesMs ("timing", "traffic").
void fillReport(const PerformanceResult& result, report::RunReport& report);

} // namespace tkm::measure
