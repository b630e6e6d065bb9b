#pragma once
// The autotune phase as the runner calls it for tuning jobs (runner::AutotuneFn): times the configurations
// that passed the cases on every shape of the spec's `autotune` block (autotune.h) and writes the samples and
// winners into the report's `autotune` section (docs/run-report.md). Install it once per worker:
//
//   options.autotune = tkm::measure::makeAutotunePhase();
//
// The returned function keeps a Measurer (flush buffer, no CUPTI) alive between jobs and re-creates it when
// the runner's context changes.

#include "engine/measure/autotune.h"
#include "engine/report/autotune_info.h"
#include "engine/runner/runner.h"

#include <vector>

namespace tkm::measure {

/// Sampling of one (configuration, shape) in the autotune phase: ≥ 10 samples, until the spread settles under
/// 2 % or 300 ms pass — shorter than the measure phase's 1 s, since a tuning job times configs × shapes.
TimingOptions autotuneTiming();

/// The runner's autotune phase (see the file comment). Errors (a sticky launch failure, Measurer creation) are
/// returned and recorded by the runner in autotune.note.
runner::AutotuneFn makeAutotunePhase(TimingOptions timing = autotuneTiming());

/// Writes `result` into `info` (samples and winners as indices): `configs` are the timed configurations, resolved
/// as in `result`, and `configIndices` their indices in info.configs; shapes are matched to info.shapes. Pure.
void fillAutotuneReport(const AutotuneResult& result, const std::vector<problem::MetaValues>& configs,
                        const std::vector<int>& configIndices, report::AutotuneInfo& info);

} // namespace tkm::measure
