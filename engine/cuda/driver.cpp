#include "engine/cuda/driver.h"

#include <dlfcn.h>

#include <fmt/format.h>

#include <mutex>

namespace tkm::cuda {
namespace {

std::mutex g_stickyMutex;
std::optional<CudaFailure> g_sticky;
thread_local std::optional<CudaFailure> t_last;

using GetProcAddress = PFN_cuGetProcAddress_v12000;

// Fetches one entry point at the ABI version named in its PFN type. A symbol the driver does not know (or
// knows only in a newer version than the driver supports) stays nullptr.
template <class Fn> bool fetch(GetProcAddress getProc, const char* symbol, int abiVersion, Fn& out)
{
    void* pfn = nullptr;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    const CUresult rc = getProc(symbol, &pfn, abiVersion, CU_GET_PROC_ADDRESS_DEFAULT, &status);
    if (rc != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS || pfn == nullptr) {
        out = nullptr;
        return false;
    }
    out = reinterpret_cast<Fn>(pfn);
    return true;
}

} // namespace

Driver::Driver()
{
    load();
}

const Driver& Driver::instance()
{
    static const Driver driver;
    return driver;
}

void Driver::load()
{
    m_handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (m_handle == nullptr) {
        m_availability = Availability::NoDriver;
        const char* why = dlerror();
        m_message = fmt::format("No NVIDIA driver was found (libcuda.so.1 could not be loaded: {}). Install the "
                                "NVIDIA driver to run kernels; lessons, quizzes and compile checks work without it.",
                                why != nullptr ? why : "unknown reason");
        return;
    }
    auto getProc = reinterpret_cast<GetProcAddress>(dlsym(m_handle, "cuGetProcAddress_v2"));
    if (getProc == nullptr) {
        m_availability = Availability::NoDriver;
        m_message = "The NVIDIA driver is too old (it lacks cuGetProcAddress_v2, added in CUDA 12.0). Update the "
                    "driver to one that supports CUDA 12 or newer to run kernels.";
        return;
    }

    bool all = true;
    auto need = [&](const char* symbol, int version, auto& slot) {
        all = fetch(getProc, symbol, version, slot) && all;
    };
    DriverApi& a = m_api;
    need("cuInit", 2000, a.cuInit);
    need("cuDriverGetVersion", 2020, a.cuDriverGetVersion);
    need("cuGetErrorName", 6000, a.cuGetErrorName);
    need("cuGetErrorString", 6000, a.cuGetErrorString);
    need("cuDeviceGetCount", 2000, a.cuDeviceGetCount);
    need("cuDeviceGet", 2000, a.cuDeviceGet);
    need("cuDeviceGetName", 2000, a.cuDeviceGetName);
    need("cuDeviceGetAttribute", 2000, a.cuDeviceGetAttribute);
    need("cuDeviceTotalMem", 3020, a.cuDeviceTotalMem);
    need("cuDevicePrimaryCtxRetain", 7000, a.cuDevicePrimaryCtxRetain);
    need("cuDevicePrimaryCtxRelease", 11000, a.cuDevicePrimaryCtxRelease);
    need("cuCtxSetCurrent", 4000, a.cuCtxSetCurrent);
    need("cuCtxSynchronize", 2000, a.cuCtxSynchronize);
    need("cuMemGetInfo", 3020, a.cuMemGetInfo);
    need("cuModuleLoadData", 2000, a.cuModuleLoadData);
    need("cuModuleUnload", 2000, a.cuModuleUnload);
    need("cuModuleGetFunction", 2000, a.cuModuleGetFunction);
    need("cuFuncGetAttribute", 2020, a.cuFuncGetAttribute);
    need("cuFuncSetAttribute", 9000, a.cuFuncSetAttribute);
    need("cuLaunchKernel", 4000, a.cuLaunchKernel);
    need("cuStreamCreate", 2000, a.cuStreamCreate);
    need("cuStreamDestroy", 4000, a.cuStreamDestroy);
    need("cuStreamSynchronize", 2000, a.cuStreamSynchronize);
    need("cuStreamQuery", 2000, a.cuStreamQuery);
    need("cuEventCreate", 2000, a.cuEventCreate);
    need("cuEventDestroy", 4000, a.cuEventDestroy);
    need("cuEventRecord", 2000, a.cuEventRecord);
    need("cuEventSynchronize", 2000, a.cuEventSynchronize);
    need("cuEventQuery", 2000, a.cuEventQuery);
    need("cuEventElapsedTime", 2000, a.cuEventElapsedTime);
    need("cuMemAlloc", 3020, a.cuMemAlloc);
    need("cuMemFree", 3020, a.cuMemFree);
    need("cuMemcpyHtoD", 3020, a.cuMemcpyHtoD);
    need("cuMemcpyDtoH", 3020, a.cuMemcpyDtoH);
    need("cuMemcpyHtoDAsync", 3020, a.cuMemcpyHtoDAsync);
    need("cuMemcpyDtoHAsync", 3020, a.cuMemcpyDtoHAsync);
    need("cuMemsetD8", 3020, a.cuMemsetD8);
    need("cuMemsetD8Async", 3020, a.cuMemsetD8Async);
    need("cuMemsetD32Async", 3020, a.cuMemsetD32Async);
    need("cuMemAddressReserve", 10020, a.cuMemAddressReserve);
    need("cuMemAddressFree", 10020, a.cuMemAddressFree);
    need("cuMemCreate", 10020, a.cuMemCreate);
    need("cuMemRelease", 10020, a.cuMemRelease);
    need("cuMemMap", 10020, a.cuMemMap);
    need("cuMemUnmap", 10020, a.cuMemUnmap);
    need("cuMemSetAccess", 10020, a.cuMemSetAccess);
    need("cuMemGetAllocationGranularity", 10020, a.cuMemGetAllocationGranularity);
    // Optional: parameter layout for the argument-size check (CUDA 12.4+ drivers).
    fetch(getProc, "cuFuncGetParamInfo", 12040, a.cuFuncGetParamInfo);

    if (!all) {
        m_availability = Availability::NoDriver;
        m_message = "The NVIDIA driver lacks entry points the engine needs (it is older than CUDA 12). Update the "
                    "NVIDIA driver to run kernels.";
        return;
    }
    a.cuDriverGetVersion(&m_version);

    const CUresult rc = a.cuInit(0);
    if (rc == CUDA_ERROR_NO_DEVICE) {
        m_availability = Availability::NoDevice;
        m_message = "No NVIDIA GPU was found: the driver is installed but sees no device. Kernels cannot run here; "
                    "lessons, quizzes and compile checks still work.";
        return;
    }
    if (rc != CUDA_SUCCESS) {
        m_availability = Availability::InitFailed;
        m_message = fmt::format("The NVIDIA driver could not start ({}: {}). Check that the driver matches the "
                                "kernel module (nvidia-smi should work) and that you may use /dev/nvidia*.",
                                errorName(rc), errorString(rc));
        return;
    }
    int count = 0;
    if (a.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
        m_availability = Availability::NoDevice;
        m_message = "No NVIDIA GPU was found: the driver is installed but sees no device. Kernels cannot run here; "
                    "lessons, quizzes and compile checks still work.";
        return;
    }
    m_availability = Availability::Ready;
}

engine::Error Driver::unavailableError() const
{
    switch (m_availability) {
    case Availability::NoDriver:
        return engine::makeError(engine::ErrorKind::NoDriver, m_message);
    case Availability::NoDevice:
        return engine::makeError(engine::ErrorKind::NoGpu, m_message);
    case Availability::InitFailed:
        return engine::makeError(engine::ErrorKind::Cuda, m_message);
    case Availability::Ready:
        break;
    }
    return engine::makeError(engine::ErrorKind::Internal, "CUDA is ready; no error to report.");
}

const DriverApi& api()
{
    return Driver::instance().api();
}

bool isSticky(CUresult code)
{
    switch (code) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_TENSOR_MEMORY_LEAK:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
        return true;
    default:
        return false;
    }
}

std::string errorName(CUresult code)
{
    const char* name = nullptr;
    const DriverApi& a = Driver::instance().api();
    if (a.cuGetErrorName != nullptr && a.cuGetErrorName(code, &name) == CUDA_SUCCESS && name != nullptr) {
        return name;
    }
    return fmt::format("CUDA error {}", static_cast<int>(code));
}

std::string errorString(CUresult code)
{
    const char* text = nullptr;
    const DriverApi& a = Driver::instance().api();
    if (a.cuGetErrorString != nullptr && a.cuGetErrorString(code, &text) == CUDA_SUCCESS && text != nullptr) {
        return text;
    }
    return "unknown CUDA error";
}

CudaFailure describe(CUresult code, const char* call)
{
    return CudaFailure{static_cast<int>(code), call, errorName(code), errorString(code), isSticky(code)};
}

engine::Status check(CUresult code, const char* call)
{
    if (code == CUDA_SUCCESS) {
        return {};
    }
    CudaFailure f = describe(code, call);
    if (f.sticky) {
        std::lock_guard lock(g_stickyMutex);
        if (!g_sticky) {
            g_sticky = f;
        }
    }
    t_last = f;
    return engine::makeError(engine::ErrorKind::Cuda, fmt::format("{} failed: {} ({})", call, f.text, f.name),
                             fmt::format("{}: {} ({}): {}", call, f.name, f.code, f.text));
}

std::optional<CudaFailure> stickyFailure()
{
    std::lock_guard lock(g_stickyMutex);
    return g_sticky;
}

std::optional<CudaFailure> lastFailure()
{
    return t_last;
}

void clearLastFailure()
{
    t_last.reset();
}

std::string versionString(int cudaVersion)
{
    return fmt::format("{}.{}", cudaVersion / 1000, (cudaVersion % 1000) / 10);
}

} // namespace tkm::cuda
