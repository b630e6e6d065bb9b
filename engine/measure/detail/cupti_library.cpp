#include "engine/measure/detail/cupti_library.h"

#include "engine/common/paths.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace tkm::measure::detail {
namespace {

struct Loaded
{
    CuptiApi api;
    bool ok = false;
    std::string whyNot;
};

template <class Fn> bool resolve(void* handle, const char* symbol, Fn& out, std::string& missing)
{
    out = reinterpret_cast<Fn>(dlsym(handle, symbol));
    if (!out)
        missing += std::string(missing.empty() ? "" : ", ") + symbol;
    return out != nullptr;
}

Loaded load()
{
    Loaded l;
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("TKM_CUPTI_LIB"); env && *env)
        candidates.emplace_back(env);
    const auto root = engine::cudaRoot();
    candidates.push_back((root / "lib64" / "libcupti.so.13").string());
    candidates.push_back((root / "extras" / "CUPTI" / "lib64" / "libcupti.so.13").string());
    candidates.emplace_back("libcupti.so.13");
    candidates.emplace_back("libcupti.so");

    void* handle = nullptr;
    std::string tried;
    for (const std::string& path : candidates) {
        handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (handle)
            break;
        const char* err = dlerror();
        tried += "\n  " + path + ": " + (err ? err : "not found");
    }
    if (!handle) {
        l.whyNot = "The CUPTI library (libcupti.so.13) was not found, so DRAM traffic cannot be measured; install "
                   "the CUDA toolkit's CUPTI or set TKM_CUPTI_LIB to its path. Tried:" +
                   tried;
        return l;
    }
    std::string missing;
    CuptiApi& a = l.api;
    resolve(handle, "cuptiGetResultString", a.getResultString, missing);
    resolve(handle, "cuptiProfilerInitialize", a.profilerInitialize, missing);
    resolve(handle, "cuptiProfilerDeviceSupported", a.deviceSupported, missing);
    resolve(handle, "cuptiDeviceGetChipName", a.deviceGetChipName, missing);
    resolve(handle, "cuptiProfilerGetCounterAvailability", a.getCounterAvailability, missing);
    resolve(handle, "cuptiProfilerHostInitialize", a.hostInitialize, missing);
    resolve(handle, "cuptiProfilerHostDeinitialize", a.hostDeinitialize, missing);
    resolve(handle, "cuptiProfilerHostGetSupportedChips", a.hostGetSupportedChips, missing);
    resolve(handle, "cuptiProfilerHostGetMetricProperties", a.hostGetMetricProperties, missing);
    resolve(handle, "cuptiProfilerHostConfigAddMetrics", a.hostConfigAddMetrics, missing);
    resolve(handle, "cuptiProfilerHostGetConfigImageSize", a.hostGetConfigImageSize, missing);
    resolve(handle, "cuptiProfilerHostGetConfigImage", a.hostGetConfigImage, missing);
    resolve(handle, "cuptiProfilerHostGetNumOfPasses", a.hostGetNumOfPasses, missing);
    resolve(handle, "cuptiProfilerHostEvaluateToGpuValues", a.hostEvaluateToGpuValues, missing);
    resolve(handle, "cuptiRangeProfilerEnable", a.rangeEnable, missing);
    resolve(handle, "cuptiRangeProfilerDisable", a.rangeDisable, missing);
    resolve(handle, "cuptiRangeProfilerSetConfig", a.rangeSetConfig, missing);
    resolve(handle, "cuptiRangeProfilerStart", a.rangeStart, missing);
    resolve(handle, "cuptiRangeProfilerStop", a.rangeStop, missing);
    resolve(handle, "cuptiRangeProfilerPushRange", a.rangePush, missing);
    resolve(handle, "cuptiRangeProfilerPopRange", a.rangePop, missing);
    resolve(handle, "cuptiRangeProfilerDecodeData", a.rangeDecode, missing);
    resolve(handle, "cuptiRangeProfilerGetCounterDataSize", a.rangeGetCounterDataSize, missing);
    resolve(handle, "cuptiRangeProfilerCounterDataImageInitialize", a.rangeCounterDataInit, missing);
    resolve(handle, "cuptiRangeProfilerGetCounterDataInfo", a.rangeGetCounterDataInfo, missing);
    if (!missing.empty()) {
        l.whyNot = "The CUPTI library found is too old for the range profiler (CUDA 12.6 or newer is needed; "
                   "missing: " +
                   missing + "), so DRAM traffic cannot be measured.";
        return l; // the handle stays loaded: harmless, and unloading CUPTI is unsafe
    }
    l.ok = true;
    return l;
}

} // namespace

const CuptiApi* cupti(std::string* whyNot)
{
    static const Loaded loaded = load();
    if (!loaded.ok) {
        if (whyNot)
            *whyNot = loaded.whyNot;
        return nullptr;
    }
    return &loaded.api;
}

std::string cuptiResultText(CUptiResult result)
{
    const CuptiApi* api = cupti();
    const char* text = nullptr;
    if (api && api->getResultString(result, &text) == CUPTI_SUCCESS && text)
        return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
    return "CUPTI error " + std::to_string(static_cast<int>(result));
}

} // namespace tkm::measure::detail
