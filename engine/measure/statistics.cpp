#include "engine/measure/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace tkm::measure {

double quantileSorted(std::span<const double> sorted, double q)
{
    if (sorted.empty())
        return 0;
    q = std::clamp(q, 0.0, 1.0);
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

SampleSummary summarize(std::span<const double> samplesMs)
{
    SampleSummary s;
    if (samplesMs.empty())
        return s;
    std::vector<double> sorted(samplesMs.begin(), samplesMs.end());
    std::sort(sorted.begin(), sorted.end());
    s.count = static_cast<int>(sorted.size());
    s.medianMs = quantileSorted(sorted, 0.5);
    s.p20Ms = quantileSorted(sorted, 0.2);
    s.p80Ms = quantileSorted(sorted, 0.8);
    s.minMs = sorted.front();
    s.maxMs = sorted.back();
    s.meanMs = std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(sorted.size());
    s.relativeSpread = s.medianMs > 0 ? (s.p80Ms - s.p20Ms) / s.medianMs : 0;
    return s;
}

StopReason checkStop(const SampleSummary& summary, double elapsedMs, const StoppingRule& rule)
{
    if (summary.count >= rule.minSamples && summary.relativeSpread < rule.maxRelativeSpread)
        return StopReason::Settled;
    if (summary.count >= rule.maxSamples)
        return StopReason::MaxSamples;
    if (summary.count >= 1 && elapsedMs >= rule.budgetMs)
        return StopReason::Budget;
    return StopReason::Continue;
}

std::string_view stopReasonName(StopReason reason)
{
    switch (reason) {
    case StopReason::Continue:
        return "continue";
    case StopReason::Settled:
        return "settled";
    case StopReason::Budget:
        return "budget";
    case StopReason::MaxSamples:
        return "max-samples";
    }
    return "continue";
}

} // namespace tkm::measure
