#pragma once
// Figures derived from the run report's measurements, written once for every reader (the measure phase, the app's
// results view, charts and run history, the progress store). A figure a reader wants that the report does not
// carry is computed here, never in a view.

#include "engine/report/run_report.h"

#include <optional>

namespace tkm::report {

/// DRAM efficiency: ideal bytes / bytes moved, where bytes moved = DRAM read + stored (docs/run-report.md,
/// `traffic.efficiency`). nullopt when a term is unknown or nothing moved. May exceed 1 when caches absorb reads.
std::optional<double> dramEfficiency(std::optional<double> idealBytes, std::optional<double> dramReadBytes,
                                     std::optional<double> storedBytes);
/// The report's efficiency when it has one, else dramEfficiency() of its figures.
std::optional<double> dramEfficiency(const TrafficInfo& t);
/// Bytes moved [bytes]: DRAM read + stored, an unknown term counted as 0 (as the charts and tables show it).
double bytesMoved(const TrafficInfo& t);
/// A baseline's bytes moved [bytes]: DRAM read + stored, an unknown term counted as 0.
double bytesMoved(const BaselineInfo& b);
/// The first case with verdict fail (the one a learner reads first), or nullptr.
const CaseInfo* firstFailingCase(const RunReport& r);
/// FLOPs of the timed case [FLOP]: achieved FLOP rate × median time; 0 without a FLOP rate.
double timedFlops(const TimingInfo& t);

} // namespace tkm::report
