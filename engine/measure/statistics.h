#pragma once
// Summary statistics of timing samples and the rule that says when to stop sampling.
// Percentiles use linear interpolation between closest ranks (NumPy's default "linear" method,
// Hyndman & Fan 1996 definition 7), the same as triton.testing.do_bench's quantiles.

#include <span>
#include <string_view>
#include <vector>

namespace tkm::measure {

/// Summary of a set of timing samples. All times [ms].
struct SampleSummary
{
    double medianMs = 0;       ///< 50th percentile [ms]
    double p20Ms = 0;          ///< 20th percentile [ms]
    double p80Ms = 0;          ///< 80th percentile [ms]
    double minMs = 0;          ///< fastest sample [ms]
    double maxMs = 0;          ///< slowest sample [ms]
    double meanMs = 0;         ///< arithmetic mean [ms]
    int count = 0;             ///< number of samples
    double relativeSpread = 0; ///< (p80 − p20) / median [1]; 0 when count == 0 or the median is 0
};

/// q-th quantile (q in [0, 1]) of `sorted` (ascending, non-empty) by linear interpolation between closest ranks:
/// position h = (n − 1)·q, value = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). Returns 0 for an empty span.
double quantileSorted(std::span<const double> sorted, double q);

/// Summary of `samplesMs` (any order, may be empty: then every field is 0).
SampleSummary summarize(std::span<const double> samplesMs);

/// When sampling stops (issue "Engine, part 2"): at least `minSamples` samples and a relative spread
/// (p80 − p20)/median under `maxRelativeSpread`, or the time budget is spent, or `maxSamples` is reached.
struct StoppingRule
{
    int minSamples = 10;              ///< fewest samples before the spread may settle
    double maxRelativeSpread = 0.015; ///< (p80 − p20)/median below this counts as settled [1]
    double budgetMs = 1000;           ///< wall-clock budget of the sampling loop [ms]
    int maxSamples = 2000;            ///< hard cap on samples
};

/// Why sampling stopped, or that it goes on.
enum class StopReason {
    Continue,   ///< neither settled nor out of budget
    Settled,    ///< enough samples and the spread is under the limit
    Budget,     ///< the time budget is spent (at least one sample exists)
    MaxSamples, ///< the sample cap was reached
};

/// Applies `rule` to the samples so far; `elapsedMs` is the wall time spent sampling [ms].
StopReason checkStop(const SampleSummary& summary, double elapsedMs, const StoppingRule& rule);

/// "settled", "budget", "max-samples", "continue".
std::string_view stopReasonName(StopReason reason);

} // namespace tkm::measure
