#pragma once
// Figures derived from the run report's measurements, written once for every reader (the measure phase, the app's
// results view and run history, the progress store).

#include "engine/report/run_report.h"

#include <optional>

namespace tkm::report {

/// DRAM efficiency: ideal bytes / bytes moved, where bytes moved = DRAM read + stored (docs/run-report.md,
/// `traffic.efficiency`). nullopt when a term is unknown or nothing moved. May exceed 1 when caches absorb reads.
inline std::optional<double> dramEfficiency(std::optional<double> idealBytes, std::optional<double> dramReadBytes,
                                            std::optional<double> storedBytes)
{
    if (!idealBytes || !dramReadBytes || !storedBytes || *dramReadBytes + *storedBytes <= 0) {
        return std::nullopt;
    }
    return *idealBytes / (*dramReadBytes + *storedBytes);
}

/// The report's efficiency when it has one, else dramEfficiency() of its figures.
inline std::optional<double> dramEfficiency(const TrafficInfo& t)
{
    if (t.efficiency) {
        return t.efficiency;
    }
    auto real = [](const std::optional<int64_t>& v) {
        return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
    };
    return dramEfficiency(t.idealBytes, real(t.dramReadBytes), real(t.storedBytes));
}

} // namespace tkm::report
