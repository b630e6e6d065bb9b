#pragma once
// DRAM traffic of one launch through the CUPTI range profiler (CUDA 12.6+ API: cupti_range_profiler.h and
// cupti_profiler_host.h). libcupti is loaded at run time (dlopen), so the engine runs where CUPTI is missing.
//
// Method: set-up once per worker (chip name, counter availability, config image for the metrics below); per
// measurement the counter data image is re-initialised, the caller's `prepare` (output reset + read-only L2
// flush) runs outside the range, then one user range around the workload, replayed by us if the metrics need
// several passes. Bytes stored come from L2 write sectors × 32 (the DRAM write counter misses lines still dirty in
// L2 at kernel end and counts other kernels' write-backs, ../shared/DESIGN.md) unless the output is many times
// the L2, when dram__bytes_write is the better figure.

#include "engine/common/error.h"
#include "engine/measure/workload.h"
#include "engine/report/run_report.h"

#include <cuda.h>

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::measure {

/// What a metric of the table measures.
enum class MetricRole { DramRead, L2WriteSectors, DramWrite, L2HitRate, Duration };

/// One counter metric of the profiler (Nsight Compute names).
struct MetricDef
{
    MetricRole role;  ///< what it is used for
    const char* name; ///< CUPTI / Nsight Compute metric name
    const char* unit; ///< unit of the evaluated value
};

/// The metrics collected, in the order they are configured: the one table of metric names in the code.
std::span<const MetricDef> trafficMetrics();

/// Bytes per L2 sector (NVIDIA GPUs since Volta: 32-byte sectors) [bytes].
inline constexpr double kL2SectorBytes = 32;
/// An output larger than this many times the L2 has its stored bytes taken from dram__bytes_write. On an H200
/// (60 MiB L2) a 256 MiB output (4.3 × L2) still showed 4.3 % fewer DRAM write bytes than stored (lines left dirty
/// in L2 at kernel end), so the switch happens only for far larger outputs.
inline constexpr double kOutputOverL2ForDramWrite = 16;

/// One traffic measurement: the run report's `traffic` section exactly as it goes into the report, and how the
/// measurement went. A new traffic figure is a TrafficInfo field (engine/report/run_report.h) set in measure().
struct TrafficResult
{
    /// Run report `traffic`: ideal_bytes when the spec has them (> 0); when the counters were read, available and
    /// dram_read_bytes (dram__bytes_read.sum), stored_bytes with stored_source, dram_write_bytes, l2_hit_rate
    /// (lts__t_sector_hit_rate.pct / 100), duration_ms (gpu__time_duration.sum) and efficiency; else the reason.
    report::TrafficInfo info;
    int passes = 0;    ///< replay passes the metrics needed
    double wallMs = 0; ///< wall time of the traffic phase [ms]
};

/// A counter's value in whole bytes (the report's byte figures are integers).
int64_t wholeBytes(double bytes);
/// `work`'s ideal bytes as the report carries them: present only when the spec gives them (> 0).
std::optional<double> reportedIdealBytes(const Workload& work);

/// Why counters cannot be read, as a sentence for the learner (what happened and what to do).
/// `cuptiResult` is the CUptiResult value (35 = CUPTI_ERROR_INSUFFICIENT_PRIVILEGES gives NVIDIA's
/// ERR_NVGPUCTRPERM instructions; 33/40 vGPU, 42 CMP, 43 MIG, 41 confidential computing, 44 SLI, 45 WSL);
/// `call` names the failing CUPTI call.
std::string unavailableReasonFor(int cuptiResult, std::string_view call, std::string_view detail = {});

/// Result of resolving one metric name through the CUPTI host API (no GPU needed).
struct MetricResolution
{
    std::string name;        ///< metric name
    bool resolved = false;   ///< the host API knows it for the chip
    std::string description; ///< the host API's description
    std::string dimUnit;     ///< e.g. "byte", "l2_sector", "percent", "nanosecond"
};

/// Resolves every metric of trafficMetrics() (plus `extra` names) for `chipName` (e.g. "GH100", "GA100") through
/// cuptiProfilerHostInitialize / cuptiProfilerHostGetMetricProperties — offline, no GPU or driver needed.
/// Errors: libcupti missing, or the chip unknown to this CUPTI (message lists the supported chips).
engine::Expected<std::vector<MetricResolution>> resolveMetricsOffline(std::string_view chipName,
                                                                      std::span<const std::string> extra = {});

/// Chips this CUPTI's host API supports (e.g. "GA100", "GH100", "AD102"). Error when libcupti is missing.
engine::Expected<std::vector<std::string>> supportedChips();

/// The CUPTI range-profiler session of one worker: created once per context; measure() per workload.
/// When CUPTI cannot be used (library missing, no permission, unsupported device), the object still exists and
/// every measure() returns available = false with the reason.
class TrafficProfiler
{
public:
    /// Sets up profiling on `ctx` (device `device`, ordinal `ordinal`). Never fails: see available().
    /// The environment variable TKM_DISABLE_CUPTI=1 switches CUPTI off (timing still works).
    static std::unique_ptr<TrafficProfiler> create(CUcontext ctx, CUdevice device, int ordinal);
    ~TrafficProfiler();
    TrafficProfiler(const TrafficProfiler&) = delete;            ///< owns CUPTI objects
    TrafficProfiler& operator=(const TrafficProfiler&) = delete; ///< owns CUPTI objects

    bool available() const;                       ///< counters can be read
    const std::string& unavailableReason() const; ///< the sentence when !available()
    const std::string& chipName() const;          ///< e.g. "GH100" (empty before set-up got that far)
    double setupMs() const;                       ///< wall time of the set-up [ms]

    /// Profiles one execution of `work.launch`: `prepare` (reset + L2 flush, enqueued on `stream`) runs before
    /// every replay pass outside the profiled range. A CUDA failure of the workload is returned as an Error;
    /// CUPTI failures give available = false with the reason.
    engine::Expected<TrafficResult> measure(const Workload& work, CUstream stream, const EnqueueFn& prepare,
                                            long long l2Bytes);

    struct State; ///< implementation (CUPTI objects, images)

private:
    TrafficProfiler();
    std::unique_ptr<State> m_state;
};

} // namespace tkm::measure
