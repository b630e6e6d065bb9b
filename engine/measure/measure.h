#pragma once
// The measure phase of a job (issue "Engine, part 2"), the one entry point for the runner:
//
//   auto measurer = measure::Measurer::create(context);           // once per worker, after the context
//   ...all correctness cases passed...
//   measure::Workload w{.label = kernelName, .launch = launchPerfCase, .resetOutputs = resetPerfOutputs,
//                       .idealBytes = inst.idealBytes, .flops = inst.flops, .outputBytes = outBytes};
//   auto perf = measure::measurePerformance(*measurer, stream, w, options);   // timing, traffic, roofline
//   measure::fillReport(*perf, report);                            // report.h fields timing/traffic/ceilings/roofline
//
// Pipeline (nvbench's order): check → initialise (flush buffer, CUPTI session, ceilings) → warm up → trials →
// summaries, then the traffic phase after a read-only L2 flush, then the roofline against both ceilings.

#include "engine/common/error.h"
#include "engine/cuda/context.h"
#include "engine/measure/ceilings.h"
#include "engine/measure/roofline.h"
#include "engine/measure/timing.h"
#include "engine/measure/traffic.h"
#include "engine/measure/workload.h"

#include <memory>
#include <optional>
#include <string>

namespace tkm::measure {

/// Options of the measure phase.
struct MeasureOptions
{
    TimingOptions timing;  ///< warm-up, stopping rule, batches
    bool traffic = true;   ///< run the CUPTI phase
    bool calibrate = true; ///< measure (or load from the cache) the copy bandwidth ceiling
};

/// Everything the measure phase reports for one workload.
struct PerformanceResult
{
    TimingResult timing;       ///< run report `timing`
    TrafficResult traffic;     ///< run report `traffic`
    Ceilings ceilings;         ///< run report `ceilings`
    RooflinePoint roofline;    ///< run report `roofline`
    double timingStageMs = 0;  ///< wall time of the timing phase [ms] (stages_ms.timing)
    double trafficStageMs = 0; ///< wall time of the traffic phase [ms] (stages_ms.traffic)
};

/// Per-worker measurement state: the flush buffer (3 × L2, at least 64 MiB), the flush and copy kernels (embedded
/// PTX), the CUPTI session and the device's ceilings. Create once per context; not thread-safe.
class Measurer
{
public:
    /// Allocates the flush buffer and loads the measurement kernels in `context` (which must be current).
    /// The CUPTI set-up (~0.9 s on an H200) happens here too, unless `withTraffic` is false.
    /// Errors: Cuda (allocation, module load).
    static engine::Expected<std::unique_ptr<Measurer>> create(const cuda::Context& context, bool withTraffic = true);
    ~Measurer();
    Measurer(const Measurer&) = delete;            ///< owns device memory
    Measurer& operator=(const Measurer&) = delete; ///< owns device memory

    /// Enqueues a read-only pass over the flush buffer on `stream` (evicts the L2 without leaving dirty lines).
    engine::Status flushL2(CUstream stream) const;
    /// Enqueues a device-to-device copy of `bytes` bytes (any size and alignment) on `stream`.
    engine::Status copyDeviceBytes(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) const;
    /// Times a workload (timing.h) with this measurer's flush.
    engine::Expected<TimingResult> time(const Workload& work, CUstream stream, const TimingOptions& options = {});
    /// Profiles a workload's DRAM traffic after reset + flush; available = false with a reason when CUPTI cannot.
    engine::Expected<TrafficResult> traffic(const Workload& work, CUstream stream);
    /// The device's ceilings; the first call with `calibrate` measures the copy bandwidth (or reads it from the
    /// cache file under engine::cacheDir()/calibration), later calls return the same figures.
    engine::Expected<Ceilings> ceilings(CUstream stream, bool calibrate = true);
    /// Measures the ceilings now, without the cache: the best streaming bandwidth of the calibration kernels
    /// (calibration.h: copies and a vector add, several block shapes, buffers of max(256 MiB, 4 × L2) and 4 times
    /// that) and the rate of an 8192³ cuBLAS fp16 GEMM (absent, with a note, when cuBLAS is missing).
    engine::Expected<CopyCalibration> calibrateCopy(CUstream stream);

    const DeviceFacts& device() const;       ///< attributes the ceilings come from
    const TrafficProfiler* profiler() const; ///< the CUPTI session (nullptr when created without traffic)

    struct State; ///< implementation

private:
    Measurer();
    std::unique_ptr<State> m_state;
};

/// The measure phase for the runner: timing, then (options.traffic) the CUPTI traffic, ceilings and roofline.
/// Errors only for CUDA failures of the workload (e.g. a sticky fault); missing counters are not errors.
engine::Expected<PerformanceResult> measurePerformance(Measurer& measurer, CUstream stream, const Workload& work,
                                                       const MeasureOptions& options = {});

/// Device facts for the ceilings from runtime's DeviceInfo.
DeviceFacts deviceFacts(const cuda::DeviceInfo& info);

} // namespace tkm::measure
