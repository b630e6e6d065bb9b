#pragma once
// libcupti loaded at run time (dlopen), so tkm binaries start where CUPTI is absent. Only the entry points of the
// CUDA 12.6+ profiling API that the traffic phase uses are resolved; their types come from the toolkit headers.

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <string>

namespace tkm::measure::detail {

/// Resolved CUPTI entry points (all non-null when loaded).
struct CuptiApi
{
    decltype(&::cuptiGetResultString) getResultString = nullptr;                              ///< error text
    decltype(&::cuptiProfilerInitialize) profilerInitialize = nullptr;                        ///< target API set-up
    decltype(&::cuptiProfilerDeviceSupported) deviceSupported = nullptr;                      ///< vGPU/CMP/… flags
    decltype(&::cuptiDeviceGetChipName) deviceGetChipName = nullptr;                          ///< "GH100"
    decltype(&::cuptiProfilerGetCounterAvailability) getCounterAvailability = nullptr;        ///< availability image
    decltype(&::cuptiProfilerHostInitialize) hostInitialize = nullptr;                        ///< host object
    decltype(&::cuptiProfilerHostDeinitialize) hostDeinitialize = nullptr;                    ///< host object
    decltype(&::cuptiProfilerHostGetSupportedChips) hostGetSupportedChips = nullptr;          ///< chip list
    decltype(&::cuptiProfilerHostGetMetricProperties) hostGetMetricProperties = nullptr;      ///< name check
    decltype(&::cuptiProfilerHostConfigAddMetrics) hostConfigAddMetrics = nullptr;            ///< config
    decltype(&::cuptiProfilerHostGetConfigImageSize) hostGetConfigImageSize = nullptr;        ///< config
    decltype(&::cuptiProfilerHostGetConfigImage) hostGetConfigImage = nullptr;                ///< config
    decltype(&::cuptiProfilerHostGetNumOfPasses) hostGetNumOfPasses = nullptr;                ///< passes
    decltype(&::cuptiProfilerHostEvaluateToGpuValues) hostEvaluateToGpuValues = nullptr;      ///< values
    decltype(&::cuptiRangeProfilerEnable) rangeEnable = nullptr;                              ///< per context
    decltype(&::cuptiRangeProfilerDisable) rangeDisable = nullptr;                            ///< per context
    decltype(&::cuptiRangeProfilerSetConfig) rangeSetConfig = nullptr;                        ///< per measurement
    decltype(&::cuptiRangeProfilerStart) rangeStart = nullptr;                                ///< per pass
    decltype(&::cuptiRangeProfilerStop) rangeStop = nullptr;                                  ///< per pass
    decltype(&::cuptiRangeProfilerPushRange) rangePush = nullptr;                             ///< user range
    decltype(&::cuptiRangeProfilerPopRange) rangePop = nullptr;                               ///< user range
    decltype(&::cuptiRangeProfilerDecodeData) rangeDecode = nullptr;                          ///< after the passes
    decltype(&::cuptiRangeProfilerGetCounterDataSize) rangeGetCounterDataSize = nullptr;      ///< image size
    decltype(&::cuptiRangeProfilerCounterDataImageInitialize) rangeCounterDataInit = nullptr; ///< image init
    decltype(&::cuptiRangeProfilerGetCounterDataInfo) rangeGetCounterDataInfo = nullptr;      ///< ranges in image
};

/// The process-wide CUPTI library: loaded on first call (thread-safe), never unloaded. nullptr when it cannot be
/// loaded; then `whyNot` (if given) receives a sentence naming the paths tried and dlerror().
/// Search order: $TKM_CUPTI_LIB, <cudaRoot>/lib64, <cudaRoot>/extras/CUPTI/lib64, then the loader's own path.
const CuptiApi* cupti(std::string* whyNot = nullptr);

/// "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" style text of a result (falls back to the number).
std::string cuptiResultText(CUptiResult result);

} // namespace tkm::measure::detail
