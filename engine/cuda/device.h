#pragma once
// GPU properties read from driver attributes, as the run report's `device` object and `tkm-run devices` show them.
// Theoretical DRAM bandwidth = 2 (double data rate) × memory clock [Hz] × bus width [bit] / 8 [bytes/s]
// (CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH); on an H200:
// 2 × 3201 MHz × 6016 bit / 8 = 4.81 TB/s (../shared/DESIGN.md).

#include "engine/common/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tkm::cuda {

/// Properties of one GPU.
struct DeviceInfo
{
    int ordinal = 0;                    ///< CUDA device ordinal
    std::string name;                   ///< e.g. "NVIDIA H200"
    int ccMajor = 0;                    ///< compute capability major
    int ccMinor = 0;                    ///< compute capability minor
    int sms = 0;                        ///< streaming multiprocessors
    int64_t l2Bytes = 0;                ///< L2 cache [bytes]
    int64_t memoryBytes = 0;            ///< device memory [bytes]
    int64_t memoryClockKhz = 0;         ///< peak memory clock [kHz]
    int busWidthBits = 0;               ///< global memory bus width [bit]
    int64_t smClockKhz = 0;             ///< typical SM clock [kHz] (0 when the driver does not report it)
    int maxThreadsPerBlock = 0;         ///< [threads]
    int64_t maxSharedPerBlockOptin = 0; ///< largest dynamic + static shared memory per block [bytes]
    int warpSize = 32;                  ///< [threads]
    bool vmmSupported = false;          ///< cuMemCreate/cuMemMap usable (guarded buffers need it)
    int driverVersion = 0;              ///< e.g. 13000

    /// Compute capability as major·10 + minor (90 for sm_90).
    int cc() const { return ccMajor * 10 + ccMinor; }
    /// "9.0".
    std::string ccString() const;
    /// "sm_90".
    std::string arch() const;
    /// 2 × memory clock × bus width / 8 [10⁹ bytes/s].
    double theoreticalGbps() const;
};

/// Number of GPUs (0 when the driver is missing or sees none).
int deviceCount();
/// Properties of GPU `ordinal`. Errors: NoDriver/NoGpu when CUDA is unavailable, Cuda on a failed query.
engine::Expected<DeviceInfo> queryDevice(int ordinal = 0);
/// Properties of every GPU (empty vector plus Error when CUDA is unavailable).
engine::Expected<std::vector<DeviceInfo>> listDevices();

} // namespace tkm::cuda
