#pragma once
// The device's ceilings: theoretical DRAM bandwidth from device attributes, peak FP32 and tensor-core rates from
// a table of NVIDIA products (each number's source cited in ceilings.cpp), and what a calibration run measured
// (cached on disk per device and driver): the best streaming bandwidth of a few vectorised kernels, sizes and block
// shapes, and the tensor-core rate of a large cuBLAS fp16 GEMM.

#include "engine/common/error.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tkm::measure {

/// What the ceilings are computed from: device attributes as the CUDA driver reports them.
struct DeviceFacts
{
    std::string name;       ///< cuDeviceGetName, e.g. "NVIDIA H200"
    std::string uuid;       ///< cuDeviceGetUuid as hex (cache key); may be empty
    int ccMajor = 0;        ///< compute capability, major
    int ccMinor = 0;        ///< compute capability, minor
    int sms = 0;            ///< CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
    int smClockKHz = 0;     ///< CU_DEVICE_ATTRIBUTE_CLOCK_RATE (peak SM clock) [kHz]
    int memoryClockKHz = 0; ///< CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE (peak memory clock) [kHz]
    int busWidthBits = 0;   ///< CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH [bit]
    long long l2Bytes = 0;  ///< CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE [bytes]
};

/// Peak arithmetic rates of a device.
struct PeakRates
{
    double fp32Gflops = 0;   ///< peak FP32 (FMA = 2 FLOP) [GFLOP/s]; 0 when unknown
    double tensorGflops = 0; ///< peak dense FP16-input, FP32-accumulate tensor-core rate [GFLOP/s]; 0 when unknown
    bool fromTable = false;  ///< true: the product is in the table; false: estimated or unknown
    std::string source;      ///< where the numbers come from, or why they are missing (one sentence)
};

/// Theoretical DRAM bandwidth [GB/s = 1e9 B/s] = 2 (double data rate) × memory clock × bus width / 8.
/// Formula: CUDA samples' deviceQuery / NVIDIA "How to Implement Performance Metrics" blog. 0 if an input is 0.
double theoreticalDramGbps(int memoryClockKHz, int busWidthBits);

/// Peak rates for a device: first the product table (matched on whole words of the device name and the compute
/// capability), then an estimate from SMs × per-SM rate of the compute capability × SM clock; an unknown compute
/// capability gives zeros and a source sentence saying the chip is not in the table.
PeakRates lookupPeakRates(const DeviceFacts& device);

/// All ceilings of one device, as the run report's `ceilings` object.
struct Ceilings
{
    double theoreticalGbps = 0; ///< from attributes [GB/s]
    double measuredCopyGbps =
        0; ///< calibration device-to-device copy, (read + written bytes) / time [GB/s]; 0 if not measured
    double peakFp32Gflops = 0;   ///< [GFLOP/s]
    double peakTensorGflops = 0; ///< [GFLOP/s]
    double measuredTensorGflops = 0; ///< cuBLAS fp16 GEMM, 2·m·n·k / median time [GFLOP/s]; 0 if not measured
    std::string source;          ///< provenance of the peak rates and of the measured figures
};

/// Version of the calibration cache file; files of another version are measured again.
/// 2: best of several streaming kernels and sizes (was: one grid-stride copy), plus the tensor-core GEMM.
inline constexpr int kCalibrationVersion = 3;

/// A cached calibration result.
struct CopyCalibration
{
    double copyGbps = 0;       ///< best streaming kernel: (read + written bytes) / its fastest sample [GB/s]
    long long bytes = 0;       ///< size of one buffer of the best kernel [bytes]
    double medianMs = 0;       ///< median time of the best kernel [ms]
    std::string kernel;        ///< the best kernel and shape, e.g. "add (2 reads, 1 write), 256 threads x 2 vectors"
    double tensorGflops = 0;   ///< cuBLAS fp16 GEMM rate [GFLOP/s]; 0 when cuBLAS is missing or failed
    int tensorSize = 0;        ///< m = n = k of that GEMM
    double tensorMedianMs = 0; ///< its median time [ms]
    std::string tensorNote;    ///< why there is no tensor figure (empty when there is one)
    std::string measuredAt;    ///< UTC time stamp, ISO 8601
};

/// File that caches the calibration of `device` under `cacheRoot` (usually engine::cacheDir()):
/// <cacheRoot>/calibration/<uuid or sanitized name>-<driver>.json.
std::filesystem::path calibrationCachePath(const std::filesystem::path& cacheRoot, const DeviceFacts& device,
                                           std::string_view driverVersion);

/// Reads a cached calibration; nullopt when the file is absent, malformed or of another kCalibrationVersion
/// (then it is re-measured).
std::optional<CopyCalibration> loadCalibration(const std::filesystem::path& file);

/// Writes a calibration atomically (creating folders). Io errors name the path.
engine::Status saveCalibration(const std::filesystem::path& file, const CopyCalibration& calibration);

/// Ceilings from facts, peak table and (optional) calibration.
Ceilings makeCeilings(const DeviceFacts& device, const std::optional<CopyCalibration>& calibration);

} // namespace tkm::measure
