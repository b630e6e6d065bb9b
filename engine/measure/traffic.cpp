#include "engine/measure/traffic.h"
#include "engine/common/clock.h"
#include "engine/report/figures.h"

#include "engine/cuda/driver.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#if TKM_ENABLE_CUPTI
#include "engine/measure/detail/cupti_library.h"
#endif

namespace tkm::measure {
namespace {

using engine::msSince;

} // namespace

int64_t wholeBytes(double bytes)
{
    return static_cast<int64_t>(std::llround(bytes));
}

std::optional<double> reportedIdealBytes(const Workload& work)
{
    return work.idealBytes > 0 ? std::optional<double>(work.idealBytes) : std::nullopt;
}

#if TKM_ENABLE_CUPTI
using detail::cupti;
using detail::CuptiApi;
using detail::cuptiResultText;

/// A CUPTI call's failure: result code and the call's name.
struct CuptiFailure
{
    CUptiResult result = CUPTI_SUCCESS;
    const char* call = "";
};

struct TrafficProfiler::State
{
    const CuptiApi* api = nullptr;
    CUcontext ctx = nullptr;
    bool available = false;
    std::string reason;
    std::string chip;
    double setupMs = 0;
    CUpti_Profiler_Host_Object* host = nullptr;
    std::vector<uint8_t> availabilityImage;
    std::vector<uint8_t> configImage;
    std::vector<uint8_t> counterData;
    std::vector<const char*> metricNames;
    size_t passes = 1;
    /// Enabled on the first measurement and kept until destruction: seen on an H200 (CUDA 13.0, driver 580),
    /// a worker that enabled, disabled and later used the context again crashed, and the NVIDIA sample also
    /// enables once per session.
    CUpti_RangeProfiler_Object* object = nullptr;

    void fail(CUptiResult r, const char* call)
    {
        available = false;
        reason = unavailableReasonFor(static_cast<int>(r), call, cuptiResultText(r));
    }
};

namespace {

/// Host object for a chip, config image for the metric table. Returns the failing call on error.
CuptiFailure buildHost(const CuptiApi& api, const char* chip, const uint8_t* availability,
                       CUpti_Profiler_Host_Object** host)
{
    CUpti_Profiler_Host_Initialize_Params p{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    p.pChipName = chip;
    p.pCounterAvailabilityImage = availability;
    if (CUptiResult r = api.hostInitialize(&p); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerHostInitialize"};
    *host = p.pHostObject;
    return {};
}

void destroyHost(const CuptiApi& api, CUpti_Profiler_Host_Object*& host)
{
    if (!host)
        return;
    CUpti_Profiler_Host_Deinitialize_Params p{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    p.pHostObject = host;
    api.hostDeinitialize(&p);
    host = nullptr;
}

/// Set-up steps, in order; the first failure ends set-up with the learner's sentence.
CuptiFailure setUp(TrafficProfiler::State& s, CUdevice device, int ordinal)
{
    const CuptiApi& api = *s.api;
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    if (CUptiResult r = api.profilerInitialize(&init); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerInitialize"};

    CUpti_Profiler_DeviceSupported_Params sup{CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    sup.cuDevice = device;
    sup.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (CUptiResult r = api.deviceSupported(&sup); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerDeviceSupported"};
    if (sup.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
        // Map the flag that says why to the matching error code, so one function words the sentence.
        CUptiResult why = CUPTI_ERROR_NOT_SUPPORTED;
        if (sup.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
            why = CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES;
        else if (sup.vGpu == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why = CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED;
        else if (sup.cmp == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why = CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED;
        else if (sup.confidentialCompute == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why = CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED;
        else if (sup.sli == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why = CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED;
        else if (sup.wsl == CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED)
            why = CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED;
        return {why, "cuptiProfilerDeviceSupported"};
    }

    CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    chip.deviceIndex = static_cast<size_t>(ordinal);
    if (CUptiResult r = api.deviceGetChipName(&chip); r != CUPTI_SUCCESS)
        return {r, "cuptiDeviceGetChipName"};
    s.chip = chip.pChipName ? chip.pChipName : "";

    CUpti_Profiler_GetCounterAvailability_Params av{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
    av.ctx = s.ctx;
    if (CUptiResult r = api.getCounterAvailability(&av); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerGetCounterAvailability"};
    s.availabilityImage.assign(av.counterAvailabilityImageSize, 0);
    av.pCounterAvailabilityImage = s.availabilityImage.data();
    if (CUptiResult r = api.getCounterAvailability(&av); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerGetCounterAvailability"};

    if (CuptiFailure f = buildHost(api, s.chip.c_str(), s.availabilityImage.data(), &s.host); f.result)
        return f;
    for (const MetricDef& m : trafficMetrics())
        s.metricNames.push_back(m.name);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = s.host;
    add.ppMetricNames = s.metricNames.data();
    add.numMetrics = s.metricNames.size();
    if (CUptiResult r = api.hostConfigAddMetrics(&add); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerHostConfigAddMetrics"};
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = s.host;
    if (CUptiResult r = api.hostGetConfigImageSize(&size); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerHostGetConfigImageSize"};
    s.configImage.assign(size.configImageSize, 0);
    CUpti_Profiler_Host_GetConfigImage_Params img{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    img.pHostObject = s.host;
    img.configImageSize = s.configImage.size();
    img.pConfigImage = s.configImage.data();
    if (CUptiResult r = api.hostGetConfigImage(&img); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerHostGetConfigImage"};
    CUpti_Profiler_Host_GetNumOfPasses_Params np{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = s.configImage.size();
    np.pConfigImage = s.configImage.data();
    if (CUptiResult r = api.hostGetNumOfPasses(&np); r != CUPTI_SUCCESS)
        return {r, "cuptiProfilerHostGetNumOfPasses"};
    s.passes = std::max<size_t>(1, np.numOfPasses);

    return {};
}

// The report's traffic figures from the evaluated metric values (in trafficMetrics() order). Stored bytes come
// from L2 write sectors, or from DRAM writes when the output dwarfs the L2 (kOutputOverL2ForDramWrite).
void fillTraffic(const std::vector<double>& values, const Workload& work, long long l2Bytes, report::TrafficInfo& t)
{
    const auto metrics = trafficMetrics();
    double dramRead = 0, dramWrite = 0, l2WriteSectors = 0;
    for (size_t i = 0; i < metrics.size(); ++i) {
        switch (metrics[i].role) {
        case MetricRole::DramRead:
            dramRead = values[i];
            break;
        case MetricRole::L2WriteSectors:
            l2WriteSectors = values[i];
            break;
        case MetricRole::DramWrite:
            dramWrite = values[i];
            break;
        case MetricRole::L2HitRate:
            t.l2HitRate = values[i] / 100.0;
            break;
        case MetricRole::Duration:
            t.durationMs = values[i] * 1e-6;
            break;
        }
    }
    const bool outputDwarfsL2 = l2Bytes > 0 && work.outputBytes > kOutputOverL2ForDramWrite * l2Bytes;
    const double stored = outputDwarfsL2 ? dramWrite : l2WriteSectors * kL2SectorBytes;
    t.storedSource = outputDwarfsL2 ? "dram__bytes_write.sum" : "lts__t_sectors_srcunit_tex_op_write.sum*32";
    t.dramReadBytes = wholeBytes(dramRead);
    t.storedBytes = wholeBytes(stored);
    t.dramWriteBytes = wholeBytes(dramWrite);
    // From the counters' own values, before they are rounded to whole bytes.
    t.efficiency = report::dramEfficiency(reportedIdealBytes(work), dramRead, stored);
    t.available = true;
}

} // namespace

TrafficProfiler::TrafficProfiler() : m_state(std::make_unique<State>()) {}

TrafficProfiler::~TrafficProfiler()
{
    State& s = *m_state;
    if (!s.api)
        return;
    if (s.object) {
        CUpti_RangeProfiler_Disable_Params dis{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        dis.pRangeProfilerObject = s.object;
        s.api->rangeDisable(&dis);
    }
    destroyHost(*s.api, s.host);
}

std::unique_ptr<TrafficProfiler> TrafficProfiler::create(CUcontext ctx, CUdevice device, int ordinal)
{
    std::unique_ptr<TrafficProfiler> p(new TrafficProfiler());
    State& s = *p->m_state;
    const auto t0 = std::chrono::steady_clock::now();
    s.ctx = ctx;
    if (const char* off = std::getenv("TKM_DISABLE_CUPTI"); off && std::string(off) == "1") {
        s.reason = "DRAM traffic is not shown: CUPTI is switched off by TKM_DISABLE_CUPTI=1. Timing and effective "
                   "bandwidth are still measured.";
        return p;
    }
    std::string whyNot;
    s.api = cupti(&whyNot);
    if (!s.api) {
        s.reason = whyNot + " Timing and effective bandwidth are still measured.";
        return p;
    }
    if (CuptiFailure f = setUp(s, device, ordinal); f.result != CUPTI_SUCCESS)
        s.fail(f.result, f.call);
    else
        s.available = true;
    s.setupMs = msSince(t0);
    return p;
}

bool TrafficProfiler::available() const
{
    return m_state->available;
}

const std::string& TrafficProfiler::unavailableReason() const
{
    return m_state->reason;
}

const std::string& TrafficProfiler::chipName() const
{
    return m_state->chip;
}

double TrafficProfiler::setupMs() const
{
    return m_state->setupMs;
}

engine::Expected<TrafficResult> TrafficProfiler::measure(const Workload& work, CUstream stream,
                                                         const EnqueueFn& prepare, long long l2Bytes)
{
    const auto t0 = std::chrono::steady_clock::now();
    State& s = *m_state;
    TrafficResult out;
    out.info.idealBytes = reportedIdealBytes(work);
    if (!s.available) {
        out.info.unavailableReason = s.reason;
        return out;
    }
    const CuptiApi& api = *s.api;
    const cuda::DriverApi& drv = cuda::api();
    auto cuptiFailed = [&](CUptiResult r, const char* call) -> engine::Expected<TrafficResult> {
        out.info.available = false;
        out.info.unavailableReason = unavailableReasonFor(static_cast<int>(r), call, cuptiResultText(r));
        out.wallMs = msSince(t0);
        return out;
    };

    if (!s.object) {
        CUpti_RangeProfiler_Enable_Params en{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        en.ctx = s.ctx;
        if (CUptiResult r = api.rangeEnable(&en); r != CUPTI_SUCCESS) {
            s.fail(r, "cuptiRangeProfilerEnable"); // permanent: later jobs say the same without retrying
            return cuptiFailed(r, "cuptiRangeProfilerEnable");
        }
        s.object = en.pRangeProfilerObject;
        // One range per measurement; the image is re-initialised before every measurement.
        CUpti_RangeProfiler_GetCounterDataSize_Params cds{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
        cds.pRangeProfilerObject = s.object;
        cds.pMetricNames = s.metricNames.data();
        cds.numMetrics = s.metricNames.size();
        cds.maxNumOfRanges = 1;
        cds.maxNumRangeTreeNodes = 1;
        if (CUptiResult r = api.rangeGetCounterDataSize(&cds); r != CUPTI_SUCCESS) {
            s.fail(r, "cuptiRangeProfilerGetCounterDataSize");
            return cuptiFailed(r, "cuptiRangeProfilerGetCounterDataSize");
        }
        s.counterData.assign(cds.counterDataSize, 0);
    }
    std::fill(s.counterData.begin(), s.counterData.end(), uint8_t{0});
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = s.object;
    ci.counterDataSize = s.counterData.size();
    ci.pCounterData = s.counterData.data();
    if (CUptiResult r = api.rangeCounterDataInit(&ci); r != CUPTI_SUCCESS)
        return cuptiFailed(r, "cuptiRangeProfilerCounterDataImageInitialize");

    CUpti_RangeProfiler_SetConfig_Params cfg{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    cfg.pRangeProfilerObject = s.object;
    cfg.configSize = s.configImage.size();
    cfg.pConfig = s.configImage.data();
    cfg.counterDataImageSize = s.counterData.size();
    cfg.pCounterDataImage = s.counterData.data();
    cfg.range = CUPTI_UserRange;
    cfg.replayMode = CUPTI_UserReplay;
    cfg.maxRangesPerPass = 1;
    cfg.numNestingLevels = 1;
    cfg.minNestingLevel = 1;
    cfg.passIndex = 0;
    cfg.targetNestingLevel = 1;
    if (CUptiResult r = api.rangeSetConfig(&cfg); r != CUPTI_SUCCESS)
        return cuptiFailed(r, "cuptiRangeProfilerSetConfig");

    // One pass per loop; replay until CUPTI says every pass was submitted (a guard ends runaway loops).
    bool allSubmitted = false;
    int pass = 0;
    for (; !allSubmitted && pass < 16; ++pass) {
        if (prepare)
            if (engine::Status st = prepare(stream); !st)
                return st.error();
        if (engine::Status st = cuda::check(drv.cuStreamSynchronize(stream), "cuStreamSynchronize"); !st)
            return st.error();
        CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        start.pRangeProfilerObject = s.object;
        if (CUptiResult r = api.rangeStart(&start); r != CUPTI_SUCCESS)
            return cuptiFailed(r, "cuptiRangeProfilerStart");
        CUpti_RangeProfiler_PushRange_Params push{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
        push.pRangeProfilerObject = s.object;
        push.pRangeName = "workload";
        if (CUptiResult r = api.rangePush(&push); r != CUPTI_SUCCESS)
            return cuptiFailed(r, "cuptiRangeProfilerPushRange");
        engine::Status launched = work.launch(stream);
        CUpti_RangeProfiler_PopRange_Params pop{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
        pop.pRangeProfilerObject = s.object;
        CUptiResult popResult = api.rangePop(&pop);
        CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        stop.pRangeProfilerObject = s.object;
        CUptiResult stopResult = api.rangeStop(&stop);
        if (!launched)
            return launched.error();
        if (engine::Status st = cuda::check(drv.cuStreamSynchronize(stream), "cuStreamSynchronize"); !st)
            return st.error();
        if (popResult != CUPTI_SUCCESS)
            return cuptiFailed(popResult, "cuptiRangeProfilerPopRange");
        if (stopResult != CUPTI_SUCCESS)
            return cuptiFailed(stopResult, "cuptiRangeProfilerStop");
        allSubmitted = stop.isAllPassSubmitted != 0;
    }
    out.passes = pass;

    CUpti_RangeProfiler_DecodeData_Params dec{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dec.pRangeProfilerObject = s.object;
    if (CUptiResult r = api.rangeDecode(&dec); r != CUPTI_SUCCESS)
        return cuptiFailed(r, "cuptiRangeProfilerDecodeData");
    CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = s.counterData.data();
    info.counterDataImageSize = s.counterData.size();
    if (CUptiResult r = api.rangeGetCounterDataInfo(&info); r != CUPTI_SUCCESS)
        return cuptiFailed(r, "cuptiRangeProfilerGetCounterDataInfo");
    if (info.numTotalRanges < 1)
        return cuptiFailed(CUPTI_ERROR_UNKNOWN, "cuptiRangeProfilerGetCounterDataInfo (no range recorded)");

    std::vector<double> values(s.metricNames.size(), 0.0);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    ev.pHostObject = s.host;
    ev.pCounterDataImage = s.counterData.data();
    ev.counterDataImageSize = s.counterData.size();
    ev.rangeIndex = 0;
    ev.ppMetricNames = s.metricNames.data();
    ev.numMetrics = s.metricNames.size();
    ev.pMetricValues = values.data();
    if (CUptiResult r = api.hostEvaluateToGpuValues(&ev); r != CUPTI_SUCCESS)
        return cuptiFailed(r, "cuptiProfilerHostEvaluateToGpuValues");

    fillTraffic(values, work, l2Bytes, out.info);
    out.wallMs = msSince(t0);
    return out;
}

engine::Expected<std::vector<std::string>> supportedChips()
{
    std::string whyNot;
    const CuptiApi* api = cupti(&whyNot);
    if (!api)
        return engine::makeError(engine::ErrorKind::Internal, whyNot);
    CUpti_Profiler_Host_GetSupportedChips_Params p{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
    if (CUptiResult r = api->hostGetSupportedChips(&p); r != CUPTI_SUCCESS)
        return engine::makeError(engine::ErrorKind::Internal, "CUPTI could not list its supported chips.",
                                 "cuptiProfilerHostGetSupportedChips: " + cuptiResultText(r));
    std::vector<std::string> chips;
    for (size_t i = 0; i < p.numChips; ++i)
        chips.emplace_back(p.ppChipNames[i]);
    return chips;
}

engine::Expected<std::vector<MetricResolution>> resolveMetricsOffline(std::string_view chipName,
                                                                      std::span<const std::string> extra)
{
    std::string whyNot;
    const CuptiApi* api = cupti(&whyNot);
    if (!api)
        return engine::makeError(engine::ErrorKind::Internal, whyNot);
    const std::string chip(chipName);
    CUpti_Profiler_Host_Object* host = nullptr;
    if (CuptiFailure f = buildHost(*api, chip.c_str(), nullptr, &host); f.result != CUPTI_SUCCESS) {
        std::string list;
        if (auto chips = supportedChips(); chips)
            for (const std::string& c : *chips)
                list += (list.empty() ? "" : ", ") + c;
        return engine::makeError(engine::ErrorKind::BadInput,
                                 "CUPTI does not know the chip \"" + chip + "\" (supported: " + list + ").",
                                 std::string(f.call) + ": " + cuptiResultText(f.result));
    }
    std::vector<std::string> names;
    for (const MetricDef& m : trafficMetrics())
        names.emplace_back(m.name);
    names.insert(names.end(), extra.begin(), extra.end());
    std::vector<MetricResolution> out;
    for (const std::string& n : names) {
        CUpti_Profiler_Host_GetMetricProperties_Params mp{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
        mp.pHostObject = host;
        mp.pMetricName = n.c_str();
        MetricResolution res;
        res.name = n;
        res.resolved = api->hostGetMetricProperties(&mp) == CUPTI_SUCCESS;
        if (res.resolved) {
            res.description = mp.pDescription ? mp.pDescription : "";
            res.dimUnit = mp.pDimUnit ? mp.pDimUnit : "";
        }
        out.push_back(std::move(res));
    }
    destroyHost(*api, host);
    return out;
}

#else // CUPTI switched off at build time

struct TrafficProfiler::State
{
    std::string reason = "DRAM traffic is not shown: this build of tkm has CUPTI switched off (TKM_ENABLE_CUPTI=OFF); "
                         "rebuild with -DTKM_ENABLE_CUPTI=ON to measure it. Timing and effective bandwidth are still "
                         "measured.";
    std::string chip;
};

TrafficProfiler::TrafficProfiler() : m_state(std::make_unique<State>()) {}
TrafficProfiler::~TrafficProfiler() = default;

std::unique_ptr<TrafficProfiler> TrafficProfiler::create(CUcontext, CUdevice, int)
{
    return std::unique_ptr<TrafficProfiler>(new TrafficProfiler());
}

bool TrafficProfiler::available() const
{
    return false;
}

const std::string& TrafficProfiler::unavailableReason() const
{
    return m_state->reason;
}

const std::string& TrafficProfiler::chipName() const
{
    return m_state->chip;
}

double TrafficProfiler::setupMs() const
{
    return 0;
}

engine::Expected<TrafficResult> TrafficProfiler::measure(const Workload& work, CUstream, const EnqueueFn&, long long)
{
    TrafficResult out;
    out.info.idealBytes = reportedIdealBytes(work);
    out.info.unavailableReason = m_state->reason;
    return out;
}

engine::Expected<std::vector<std::string>> supportedChips()
{
    return engine::makeError(engine::ErrorKind::Internal, "This build has CUPTI switched off (TKM_ENABLE_CUPTI=OFF).");
}

engine::Expected<std::vector<MetricResolution>> resolveMetricsOffline(std::string_view, std::span<const std::string>)
{
    return engine::makeError(engine::ErrorKind::Internal, "This build has CUPTI switched off (TKM_ENABLE_CUPTI=OFF).");
}

#endif

} // namespace tkm::measure
