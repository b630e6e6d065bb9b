#include "engine/measure/measure.h"
#include "engine/common/clock.h"

#include "engine/common/paths.h"
#include "engine/cuda/driver.h"
#include "engine/cuda/module.h"
#include "engine/measure/calibration.h"
#include "engine/measure/detail/measure_kernels.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <span>

namespace tkm::measure {
namespace {

using engine::Clock;
using engine::msSince;

constexpr size_t kMiB = size_t{1} << 20;
/// m = n = k of the calibration's cuBLAS GEMM: large enough that cuBLAS runs at its peak (≈ 1 ms on an H200).
constexpr int kTensorCalibrationSize = 8192;
/// Never equal to the XOR of the flush buffer's words (it is zero-filled, XOR 0): the flush kernel never stores.
constexpr unsigned kFlushMagic = 0x9E3779B9u;

std::string utcNow()
{
    std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

struct Measurer::State
{
    DeviceFacts facts;
    int driverVersion = 0;
    CUcontext ctx = nullptr;
    cuda::Module module;
    cuda::Kernel flushKernel;
    cuda::Kernel copyKernel;
    cuda::Kernel copyBytesKernel;
    StreamKernels streamKernels; ///< the calibration's kernels (same module)
    detail::DeviceAllocation flushBuffer;
    detail::DeviceAllocation sink;
    unsigned gridBlocks = 0;
    std::unique_ptr<TrafficProfiler> profiler;
    std::optional<Ceilings> ceilings;
    bool calibrated = false;

    engine::Status launchGridStride(const cuda::Kernel& k, void** args, CUstream stream) const
    {
        return cuda::check(
            cuda::api().cuLaunchKernel(k.handle(), gridBlocks, 1, 1, 512, 1, 1, 0, stream, args, nullptr),
            "cuLaunchKernel");
    }
};

DeviceFacts deviceFacts(const cuda::DeviceInfo& info)
{
    DeviceFacts f;
    f.name = info.name;
    f.ccMajor = info.ccMajor;
    f.ccMinor = info.ccMinor;
    f.sms = info.sms;
    f.smClockKHz = static_cast<int>(info.smClockKhz);
    f.memoryClockKHz = static_cast<int>(info.memoryClockKhz);
    f.busWidthBits = info.busWidthBits;
    f.l2Bytes = info.l2Bytes;
    // No UUID in DeviceInfo: name + memory size tell the devices of one machine apart well enough for a cache.
    f.uuid = info.name + "-" + std::to_string(info.memoryBytes >> 20) + "MiB";
    return f;
}

Measurer::Measurer() : m_state(std::make_unique<State>()) {}
Measurer::~Measurer() = default;

engine::Expected<std::unique_ptr<Measurer>> Measurer::create(const cuda::Context& context, bool withTraffic)
{
    std::unique_ptr<Measurer> m(new Measurer());
    State& s = *m->m_state;
    s.facts = deviceFacts(context.info());
    s.driverVersion = context.info().driverVersion;
    s.ctx = context.handle();
    if (auto st = context.makeCurrent(); !st)
        return st.error();

    const std::string_view ptx = detail::measureKernelsPtx();
    auto module = cuda::Module::load(std::span<const char>(ptx.data(), ptx.size()));
    if (!module)
        return module.error();
    s.module = std::move(*module);
    auto flushKernel = s.module.kernel("tkm_l2_flush");
    if (!flushKernel)
        return flushKernel.error();
    auto copyKernel = s.module.kernel("tkm_copy");
    if (!copyKernel)
        return copyKernel.error();
    auto copyBytesKernel = s.module.kernel("tkm_copy_bytes");
    if (!copyBytesKernel)
        return copyBytesKernel.error();
    s.flushKernel = *flushKernel;
    s.copyKernel = *copyKernel;
    s.copyBytesKernel = *copyBytesKernel;
    CUfunction* calibrationKernels[] = {&s.streamKernels.copy4, &s.streamKernels.copyTile, &s.streamKernels.addTile};
    const char* calibrationNames[] = {"tkm_copy4", "tkm_copy_tile", "tkm_add_tile"};
    for (int i = 0; i < 3; ++i) {
        auto k = s.module.kernel(calibrationNames[i]);
        if (!k)
            return k.error();
        *calibrationKernels[i] = k->handle();
    }
    s.streamKernels.copy = s.copyKernel.handle();

    // Three times the L2 (at least 64 MiB): an LRU-like L2 keeps nothing of what was there before.
    const size_t flushBytes = std::max<size_t>(64 * kMiB, static_cast<size_t>(3 * std::max(0LL, s.facts.l2Bytes)));
    auto buffer = detail::DeviceAllocation::create(flushBytes);
    if (!buffer)
        return buffer.error();
    s.flushBuffer = std::move(*buffer);
    if (auto st = cuda::check(cuda::api().cuMemsetD8(s.flushBuffer.ptr(), 0, flushBytes), "cuMemsetD8"); !st)
        return st.error();
    auto sink = detail::DeviceAllocation::create(256);
    if (!sink)
        return sink.error();
    s.sink = std::move(*sink);
    s.gridBlocks = static_cast<unsigned>(std::max(1, s.facts.sms) * 4);

    if (withTraffic)
        s.profiler = TrafficProfiler::create(context.handle(), context.device(), context.info().ordinal);
    return m;
}

engine::Status Measurer::flushL2(CUstream stream) const
{
    const State& s = *m_state;
    CUdeviceptr p = s.flushBuffer.ptr();
    unsigned long long n = s.flushBuffer.bytes() / 16;
    unsigned magic = kFlushMagic;
    CUdeviceptr sink = s.sink.ptr();
    void* args[] = {&p, &n, &magic, &sink};
    return s.launchGridStride(s.flushKernel, args, stream);
}

engine::Status Measurer::copyDeviceBytes(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) const
{
    if (bytes == 0)
        return {};
    unsigned long long n = bytes;
    void* args[] = {&dst, &src, &n};
    return m_state->launchGridStride(m_state->copyBytesKernel, args, stream);
}

engine::Expected<TimingResult> Measurer::time(const Workload& work, CUstream stream, const TimingOptions& options)
{
    return timeWorkload(
        work, stream, [this](CUstream st) { return flushL2(st); }, options);
}

engine::Expected<TrafficResult> Measurer::traffic(const Workload& work, CUstream stream)
{
    if (!m_state->profiler) {
        TrafficResult r;
        r.info.idealBytes = reportedIdealBytes(work);
        r.info.unavailableReason = "DRAM traffic was not requested for this run.";
        return r;
    }
    auto prepare = [this, &work](CUstream st) -> engine::Status {
        if (work.resetOutputs)
            if (auto s = work.resetOutputs(st); !s)
                return s;
        return flushL2(st);
    };
    return m_state->profiler->measure(work, stream, prepare, m_state->facts.l2Bytes);
}

engine::Expected<CopyCalibration> Measurer::calibrateCopy(CUstream stream)
{
    State& s = *m_state;
    const TimeFn time = [this](const Workload& w, CUstream st, const TimingOptions& o) { return this->time(w, st, o); };
    auto c = calibrateStreaming(s.streamKernels, s.facts.sms, s.facts.l2Bytes, stream, time);
    if (!c)
        return c.error();
    calibrateTensorCores(*c, kTensorCalibrationSize, stream, time);
    c->measuredAt = utcNow();
    return c;
}

engine::Expected<Ceilings> Measurer::ceilings(CUstream stream, bool calibrate)
{
    State& s = *m_state;
    if (s.ceilings && (s.calibrated || !calibrate))
        return *s.ceilings;
    std::optional<CopyCalibration> cal;
    if (calibrate) {
        const auto file = calibrationCachePath(engine::cacheDir(), s.facts, cuda::versionString(s.driverVersion));
        cal = loadCalibration(file);
        if (!cal) {
            auto measured = calibrateCopy(stream);
            if (!measured)
                return measured.error();
            cal = *measured;
            saveCalibration(file, *cal); // a read-only cache folder only costs a re-measurement next time
        }
        s.calibrated = true;
    }
    s.ceilings = makeCeilings(s.facts, cal);
    return *s.ceilings;
}

const DeviceFacts& Measurer::device() const
{
    return m_state->facts;
}

const TrafficProfiler* Measurer::profiler() const
{
    return m_state->profiler.get();
}

engine::Expected<PerformanceResult> measurePerformance(Measurer& measurer, CUstream stream, const Workload& work,
                                                       const MeasureOptions& options)
{
    PerformanceResult r;
    const auto t0 = Clock::now();
    auto timing = measurer.time(work, stream, options.timing);
    if (!timing)
        return timing.error();
    r.timing = std::move(*timing);
    r.timingStageMs = msSince(t0);

    const auto t1 = Clock::now();
    if (options.traffic) {
        auto traffic = measurer.traffic(work, stream);
        if (!traffic)
            return traffic.error();
        r.traffic = std::move(*traffic);
    } else {
        r.traffic.info.idealBytes = reportedIdealBytes(work);
        r.traffic.info.unavailableReason = "DRAM traffic was not requested for this run.";
    }
    r.trafficStageMs = msSince(t1);

    auto ceilings = measurer.ceilings(stream, options.calibrate);
    if (!ceilings)
        return ceilings.error();
    r.ceilings = *ceilings;
    r.roofline =
        placeOnRoofline(work.flops, work.idealBytes, r.timing.samples.medianMs, r.ceilings, work.usesTensorCores);
    return r;
}

} // namespace tkm::measure
