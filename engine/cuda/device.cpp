#include "engine/cuda/device.h"

#include "engine/cuda/driver.h"

#include <fmt/format.h>

#include <array>

namespace tkm::cuda {

std::string DeviceInfo::ccString() const
{
    return fmt::format("{}.{}", ccMajor, ccMinor);
}

std::string DeviceInfo::arch() const
{
    return fmt::format("sm_{}{}", ccMajor, ccMinor);
}

double DeviceInfo::theoreticalGbps() const
{
    // 2 transfers per clock (DDR) × clock [kHz → Hz] × bus width [bit → bytes], in 10⁹ bytes/s.
    return 2.0 * static_cast<double>(memoryClockKhz) * 1e3 * busWidthBits / 8.0 / 1e9;
}

int deviceCount()
{
    const Driver& d = Driver::instance();
    if (!d.ready()) {
        return 0;
    }
    int count = 0;
    if (d.api().cuDeviceGetCount(&count) != CUDA_SUCCESS) {
        return 0;
    }
    return count;
}

engine::Expected<DeviceInfo> queryDevice(int ordinal)
{
    const Driver& d = Driver::instance();
    if (!d.ready()) {
        return d.unavailableError();
    }
    const DriverApi& a = d.api();
    CUdevice dev = 0;
    if (auto s = check(a.cuDeviceGet(&dev, ordinal), "cuDeviceGet"); !s) {
        return s.error();
    }
    DeviceInfo info;
    info.ordinal = ordinal;
    info.driverVersion = d.version();
    std::array<char, 256> name{};
    if (auto s = check(a.cuDeviceGetName(name.data(), static_cast<int>(name.size()), dev), "cuDeviceGetName"); !s) {
        return s.error();
    }
    info.name = name.data();
    size_t total = 0;
    if (auto s = check(a.cuDeviceTotalMem(&total, dev), "cuDeviceTotalMem"); !s) {
        return s.error();
    }
    info.memoryBytes = static_cast<int64_t>(total);

    auto attr = [&](CUdevice_attribute which) -> int {
        int v = 0;
        // An attribute the driver no longer reports reads as 0 rather than failing the whole query.
        if (a.cuDeviceGetAttribute(&v, which, dev) != CUDA_SUCCESS) {
            return 0;
        }
        return v;
    };
    info.ccMajor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
    info.ccMinor = attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
    info.sms = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.l2Bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    info.memoryClockKhz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    info.busWidthBits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    info.smClockKhz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    info.maxThreadsPerBlock = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    info.maxSharedPerBlockOptin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    info.warpSize = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
    info.vmmSupported = attr(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) != 0;
    return info;
}

engine::Expected<std::vector<DeviceInfo>> listDevices()
{
    const Driver& d = Driver::instance();
    if (!d.ready()) {
        return d.unavailableError();
    }
    std::vector<DeviceInfo> out;
    const int n = deviceCount();
    for (int i = 0; i < n; ++i) {
        auto info = queryDevice(i);
        if (!info) {
            return info.error();
        }
        out.push_back(std::move(*info));
    }
    return out;
}

} // namespace tkm::cuda
