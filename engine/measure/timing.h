#pragma once
// Kernel timing the way triton.testing.do_bench and nvbench do it: CUDA events around each launch, a warm-up
// (at least 3 launches and 25 ms), and before every sample an L2 flush (a read-only pass over a buffer three times
// the L2) queued with no host synchronisation between flush, events and launch. Samples are queued in batches and
// read back after each batch; sampling stops when the spread settles or the budget is spent (statistics.h).

#include "engine/common/error.h"
#include "engine/measure/statistics.h"
#include "engine/measure/workload.h"

#include <cuda.h>

#include <functional>
#include <map>
#include <string>

namespace tkm::measure {

/// Options of the timing loop.
struct TimingOptions
{
    StoppingRule stop;      ///< when sampling ends (≥ 10 samples and spread < 1.5 %, or 1 s)
    int warmupLaunches = 3; ///< fewest warm-up launches
    double warmupMs = 25;   ///< fewest milliseconds of warm-up [ms]
    int batch = 10;         ///< samples queued between two host read-backs
    bool flushL2 = true;    ///< flush the L2 before each sample (tests switch it off to compare)
};

/// The run report's `timing` object.
struct TimingResult
{
    SampleSummary samples;     ///< median, p20, p80, min, … [ms]
    bool settled = false;      ///< the spread fell under the limit (else the budget or the cap ended sampling)
    std::string stopReason;    ///< "settled", "budget" or "max-samples"
    double achievedGbps = 0;   ///< ideal bytes / median [GB/s]; 0 without ideal bytes
    double achievedGflops = 0; ///< spec FLOPs / median [GFLOP/s]; 0 without FLOPs
    double warmupMs = 0;       ///< GPU time of the warm-up [ms]
    int warmupLaunches = 0;    ///< launches in the warm-up
    double wallMs = 0;         ///< wall time of the whole timing phase [ms]
    std::map<std::string, int64_t> sizes; ///< the performance case's sizes (filled by the caller)
};

/// Enqueues the L2 flush on a stream (see Measurer::flushL2()).
using FlushFn = std::function<engine::Status(CUstream stream)>;

/// Times `work` on `stream`: warm-up, then per sample resetOutputs → flush → start event → launch → stop event,
/// batches read back with one event synchronisation each. Errors: a failed launch or CUDA call (the Error of the
/// call, e.g. a sticky CUDA_ERROR_ILLEGAL_ADDRESS). `flush` may be empty (no flush).
engine::Expected<TimingResult> timeWorkload(const Workload& work, CUstream stream, const FlushFn& flush,
                                            const TimingOptions& options = {});

} // namespace tkm::measure
