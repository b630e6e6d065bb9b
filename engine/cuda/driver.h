#pragma once
// The CUDA driver, loaded at run time: libcuda.so.1 is dlopen()ed (the engine never links it, so the same binary
// runs on machines without a driver), every entry point is fetched with cuGetProcAddress (CUDA 12+ form, with
// flags and symbol status) and stored with the PFN_ types of cudaTypedefs.h. A missing driver, a driver without
// a GPU and a failed cuInit are normal states: availability() says which, with a sentence for the learner.
//
// Error handling: check() turns a CUresult into an engine::Error (kind Cuda, detail "call: NAME (code): text").
// Sticky errors — the kernel faulted and the context is unusable for the life of the process (700 illegal
// address, 716 misaligned, 719 launch failed, 710 assert, 715 illegal instruction, 714 stack, 717/718 address
// space / PC) — are also recorded process-wide: stickyFailure() tells the runner the process must report and exit.

#include "engine/common/error.h"

#include <cuda.h>
#include <cudaTypedefs.h>

#include <optional>
#include <string>

namespace tkm::cuda {

/// Driver entry points used by the engine (fetched with cuGetProcAddress at the ABI version in each PFN name).
/// Optional entries (newer than CUDA 12.0) are nullptr when the driver lacks them.
struct DriverApi
{
    PFN_cuInit_v2000 cuInit = nullptr;                                        ///< initialise the driver
    PFN_cuDriverGetVersion_v2020 cuDriverGetVersion = nullptr;                ///< e.g. 13000
    PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;                        ///< "CUDA_ERROR_ILLEGAL_ADDRESS"
    PFN_cuGetErrorString_v6000 cuGetErrorString = nullptr;                    ///< human text of an error
    PFN_cuDeviceGetCount_v2000 cuDeviceGetCount = nullptr;                    ///< number of GPUs
    PFN_cuDeviceGet_v2000 cuDeviceGet = nullptr;                              ///< ordinal → device
    PFN_cuDeviceGetName_v2000 cuDeviceGetName = nullptr;                      ///< marketing name
    PFN_cuDeviceGetAttribute_v2000 cuDeviceGetAttribute = nullptr;            ///< integer attributes
    PFN_cuDeviceTotalMem_v3020 cuDeviceTotalMem = nullptr;                    ///< total memory [bytes]
    PFN_cuDevicePrimaryCtxRetain_v7000 cuDevicePrimaryCtxRetain = nullptr;    ///< primary context
    PFN_cuDevicePrimaryCtxRelease_v11000 cuDevicePrimaryCtxRelease = nullptr; ///< primary context
    PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent = nullptr;                      ///< bind a context to the thread
    PFN_cuCtxSynchronize_v2000 cuCtxSynchronize = nullptr;                    ///< wait for all work of the context
    PFN_cuMemGetInfo_v3020 cuMemGetInfo = nullptr;                            ///< free/total memory [bytes]
    PFN_cuModuleLoadData_v2000 cuModuleLoadData = nullptr;                    ///< load a CUBIN image
    PFN_cuModuleUnload_v2000 cuModuleUnload = nullptr;                        ///< unload it
    PFN_cuModuleGetFunction_v2000 cuModuleGetFunction = nullptr;              ///< kernel by (lowered) name
    PFN_cuFuncGetAttribute_v2020 cuFuncGetAttribute = nullptr;                ///< registers, max threads, …
    PFN_cuFuncSetAttribute_v9000 cuFuncSetAttribute = nullptr;                ///< opt-in dynamic shared memory
    PFN_cuFuncGetParamInfo_v12040 cuFuncGetParamInfo = nullptr;               ///< optional (CUDA 12.4+)
    PFN_cuLaunchKernel_v4000 cuLaunchKernel = nullptr;                        ///< launch
    PFN_cuStreamCreate_v2000 cuStreamCreate = nullptr;                        ///< stream
    PFN_cuStreamDestroy_v4000 cuStreamDestroy = nullptr;                      ///< stream
    PFN_cuStreamSynchronize_v2000 cuStreamSynchronize = nullptr;              ///< wait for a stream
    PFN_cuStreamQuery_v2000 cuStreamQuery = nullptr;                          ///< poll a stream
    PFN_cuEventCreate_v2000 cuEventCreate = nullptr;                          ///< event
    PFN_cuEventDestroy_v4000 cuEventDestroy = nullptr;                        ///< event
    PFN_cuEventRecord_v2000 cuEventRecord = nullptr;                          ///< record on a stream
    PFN_cuEventSynchronize_v2000 cuEventSynchronize = nullptr;                ///< wait for an event
    PFN_cuEventQuery_v2000 cuEventQuery = nullptr;                            ///< poll an event
    PFN_cuEventElapsedTime_v2000 cuEventElapsedTime = nullptr;                ///< [ms] between two events
    PFN_cuMemAlloc_v3020 cuMemAlloc = nullptr;                                ///< plain allocation
    PFN_cuMemFree_v3020 cuMemFree = nullptr;                                  ///< plain free
    PFN_cuMemcpyHtoD_v3020 cuMemcpyHtoD = nullptr;                            ///< host → device, synchronous
    PFN_cuMemcpyDtoH_v3020 cuMemcpyDtoH = nullptr;                            ///< device → host, synchronous
    PFN_cuMemcpyHtoDAsync_v3020 cuMemcpyHtoDAsync = nullptr;                  ///< host → device on a stream
    PFN_cuMemcpyDtoHAsync_v3020 cuMemcpyDtoHAsync = nullptr;                  ///< device → host on a stream
    PFN_cuMemsetD8_v3020 cuMemsetD8 = nullptr;                                ///< byte fill, synchronous
    PFN_cuMemsetD8Async_v3020 cuMemsetD8Async = nullptr;                      ///< byte fill on a stream
    PFN_cuMemsetD32Async_v3020 cuMemsetD32Async = nullptr;                    ///< 32-bit fill on a stream
    PFN_cuMemAddressReserve_v10020 cuMemAddressReserve = nullptr;             ///< VMM: reserve a VA range
    PFN_cuMemAddressFree_v10020 cuMemAddressFree = nullptr;                   ///< VMM: free a VA range
    PFN_cuMemCreate_v10020 cuMemCreate = nullptr;                             ///< VMM: physical allocation
    PFN_cuMemRelease_v10020 cuMemRelease = nullptr;                           ///< VMM: release it
    PFN_cuMemMap_v10020 cuMemMap = nullptr;                                   ///< VMM: map physical into VA
    PFN_cuMemUnmap_v10020 cuMemUnmap = nullptr;                               ///< VMM: unmap
    PFN_cuMemSetAccess_v10020 cuMemSetAccess = nullptr;                       ///< VMM: access rights
    PFN_cuMemGetAllocationGranularity_v10020 cuMemGetAllocationGranularity = nullptr; ///< VMM: granule [bytes]
};

/// Why CUDA cannot be used (or that it can).
enum class Availability {
    Ready,      ///< driver loaded, cuInit succeeded, at least one GPU
    NoDriver,   ///< libcuda.so.1 not found or too old (no cuGetProcAddress_v2)
    NoDevice,   ///< driver present, no NVIDIA GPU (CUDA_ERROR_NO_DEVICE or a device count of 0)
    InitFailed, ///< cuInit failed otherwise (driver/library mismatch, permissions, …)
};

/// A failed driver call, kept as data (code, call, name, text).
struct CudaFailure
{
    int code = 0;        ///< CUresult value
    std::string call;    ///< e.g. "cuStreamSynchronize"
    std::string name;    ///< e.g. "CUDA_ERROR_ILLEGAL_ADDRESS"
    std::string text;    ///< the driver's description
    bool sticky = false; ///< the context is unusable for the life of the process
};

/// The loaded driver: a process-wide singleton, loaded on first use (thread-safe), never unloaded.
class Driver
{
public:
    /// Loads libcuda.so.1 and calls cuInit(0) once; later calls return the same object.
    static const Driver& instance();

    Availability availability() const { return m_availability; }         ///< Ready when CUDA can be used
    bool ready() const { return m_availability == Availability::Ready; } ///< availability() == Ready
    /// The sentence for the learner when not ready (what is wrong and what to do); empty when ready.
    const std::string& message() const { return m_message; }
    /// The entry points (all non-null except optional ones when ready()).
    const DriverApi& api() const { return m_api; }
    /// Driver version as major·1000 + minor·10 (e.g. 13000); 0 when no driver.
    int version() const { return m_version; }
    /// engine::Error of kind NoDriver/NoGpu/Cuda with message(); use when !ready().
    engine::Error unavailableError() const;

    Driver(const Driver&) = delete;            ///< singleton
    Driver& operator=(const Driver&) = delete; ///< singleton

private:
    Driver();
    void load();
    Availability m_availability = Availability::NoDriver;
    std::string m_message;
    DriverApi m_api;
    int m_version = 0;
    void* m_handle = nullptr;
};

/// Shorthand for Driver::instance().api().
const DriverApi& api();

/// True for the error codes after which the context is unusable (see file comment).
bool isSticky(CUresult code);
/// "CUDA_ERROR_ILLEGAL_ADDRESS" (or "CUDA error <code>" when the driver cannot name it).
std::string errorName(CUresult code);
/// The driver's description of `code`.
std::string errorString(CUresult code);
/// Builds the failure record for `code` returned by `call`.
CudaFailure describe(CUresult code, const char* call);

/// Success, or an Error of kind Cuda: message "<call> failed: <text> (<NAME>)", detail "<call>: <NAME> (<code>):
/// <text>". Sticky codes are also recorded (stickyFailure()).
engine::Status check(CUresult code, const char* call);

/// The first sticky failure this process saw, if any (then the process must report and exit).
std::optional<CudaFailure> stickyFailure();
/// The most recent failure seen by check() on this thread (cleared by clearLastFailure()).
std::optional<CudaFailure> lastFailure();
/// Forgets lastFailure() of this thread.
void clearLastFailure();

/// "13.0" from 13000.
std::string versionString(int cudaVersion);

} // namespace tkm::cuda
