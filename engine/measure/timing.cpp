#include "engine/measure/timing.h"
#include "engine/common/clock.h"

#include "engine/cuda/context.h"
#include "engine/cuda/driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace tkm::measure {
namespace {

using engine::Clock;
using engine::msSince;

engine::Status record(const cuda::Event& e, CUstream stream)
{
    return cuda::check(cuda::api().cuEventRecord(e.handle(), stream), "cuEventRecord");
}

engine::Expected<double> elapsed(const cuda::Event& start, const cuda::Event& stop)
{
    float ms = 0;
    if (auto st = cuda::check(cuda::api().cuEventElapsedTime(&ms, start.handle(), stop.handle()), "cuEventElapsedTime");
        !st)
        return st.error();
    return static_cast<double>(ms);
}

/// Warm-up: ≥ options.warmupLaunches launches and ≥ options.warmupMs of GPU time. Returns GPU ms per launch.
engine::Expected<double> warmUp(const Workload& work, CUstream stream, const TimingOptions& options, TimingResult& out)
{
    auto start = cuda::Event::create();
    auto stop = cuda::Event::create();
    if (!start)
        return start.error();
    if (!stop)
        return stop.error();
    int launches = std::max(1, options.warmupLaunches);
    double totalMs = 0;
    int total = 0;
    double perLaunch = 0;
    for (int round = 0; round < 64; ++round) {
        if (auto st = record(*start, stream); !st)
            return st.error();
        for (int i = 0; i < launches; ++i)
            if (auto st = work.launch(stream); !st)
                return st.error();
        if (auto st = record(*stop, stream); !st)
            return st.error();
        if (auto st = stop->synchronize(); !st)
            return st.error();
        auto ms = elapsed(*start, *stop);
        if (!ms)
            return ms.error();
        totalMs += *ms;
        total += launches;
        perLaunch = totalMs / total;
        if (total >= options.warmupLaunches && totalMs >= options.warmupMs)
            break;
        // Enough launches to reach the warm-up time, within reason.
        const double missing = options.warmupMs - totalMs;
        launches = static_cast<int>(std::clamp(std::ceil(missing / std::max(perLaunch, 1e-3)), 1.0, 2000.0));
    }
    out.warmupMs = totalMs;
    out.warmupLaunches = total;
    return perLaunch;
}

} // namespace

engine::Expected<TimingResult> timeWorkload(const Workload& work, CUstream stream, const FlushFn& flush,
                                            const TimingOptions& options)
{
    const auto t0 = Clock::now();
    TimingResult out;
    if (!work.launch)
        return engine::makeError(engine::ErrorKind::Internal, "timeWorkload: the workload has no launch function.");
    auto perLaunch = warmUp(work, stream, options, out);
    if (!perLaunch)
        return perLaunch.error();

    const int maxBatch = std::max(1, options.batch);
    std::vector<cuda::Event> starts;
    std::vector<cuda::Event> stops;
    for (int i = 0; i < maxBatch; ++i) {
        auto a = cuda::Event::create();
        auto b = cuda::Event::create();
        if (!a)
            return a.error();
        if (!b)
            return b.error();
        starts.push_back(std::move(*a));
        stops.push_back(std::move(*b));
    }

    std::vector<double> samples;
    const auto sampling = Clock::now();
    // A sample costs the launch plus reset and flush: estimate generously so a batch fits the budget.
    const double sampleCostMs = *perLaunch * 2.0 + 0.2;
    StopReason reason = StopReason::Continue;
    while (reason == StopReason::Continue) {
        const double left = options.stop.budgetMs - msSince(sampling);
        const int batch = static_cast<int>(std::clamp(std::floor(left / sampleCostMs), 1.0, double(maxBatch)));
        for (int i = 0; i < batch; ++i) {
            // Queued back to back: no host synchronisation between reset, flush, events and launch.
            if (work.resetOutputs)
                if (auto st = work.resetOutputs(stream); !st)
                    return st.error();
            if (flush && options.flushL2)
                if (auto st = flush(stream); !st)
                    return st.error();
            if (auto st = record(starts[i], stream); !st)
                return st.error();
            if (auto st = work.launch(stream); !st)
                return st.error();
            if (auto st = record(stops[i], stream); !st)
                return st.error();
        }
        if (auto st = stops[batch - 1].synchronize(); !st)
            return st.error();
        for (int i = 0; i < batch; ++i) {
            auto ms = elapsed(starts[i], stops[i]);
            if (!ms)
                return ms.error();
            samples.push_back(*ms);
        }
        out.samples = summarize(samples);
        reason = checkStop(out.samples, msSince(sampling), options.stop);
    }
    out.settled = reason == StopReason::Settled;
    out.stopReason = std::string(stopReasonName(reason));
    const double seconds = out.samples.medianMs * 1e-3;
    if (seconds > 0) {
        out.achievedGbps = work.idealBytes / seconds / 1e9;
        out.achievedGflops = work.flops / seconds / 1e9;
    }
    out.wallMs = msSince(t0);
    return out;
}

} // namespace tkm::measure
