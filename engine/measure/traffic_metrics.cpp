// The metric table and the sentences for missing counters: no CUPTI calls here, so these build and test
// everywhere (also with TKM_ENABLE_CUPTI off).
#include "engine/measure/traffic.h"

#include <array>

namespace tkm::measure {
namespace {

// Nsight Compute / CUPTI metric names (Nsight Compute "Profiling Guide", metrics reference). The one table.
constexpr std::array kMetrics{
    MetricDef{MetricRole::DramRead, "dram__bytes_read.sum", "byte"},
    MetricDef{MetricRole::L2WriteSectors, "lts__t_sectors_srcunit_tex_op_write.sum", "sector"},
    MetricDef{MetricRole::DramWrite, "dram__bytes_write.sum", "byte"},
    MetricDef{MetricRole::L2HitRate, "lts__t_sector_hit_rate.pct", "percent"},
    MetricDef{MetricRole::Duration, "gpu__time_duration.sum", "nanosecond"},
};

constexpr std::string_view kStillTimed = " Timing and effective bandwidth are still measured.";

} // namespace

std::span<const MetricDef> trafficMetrics()
{
    return kMetrics;
}

std::string unavailableReasonFor(int cuptiResult, std::string_view call, std::string_view detail)
{
    std::string s;
    switch (cuptiResult) {
    case 35: // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
        s = "DRAM traffic is not shown: this user may not read the GPU's performance counters "
            "(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, NVIDIA's ERR_NVGPUCTRPERM). Run as root or with CAP_SYS_ADMIN, "
            "or let all users profile by loading the nvidia kernel module with NVreg_RestrictProfilingToAdminUsers=0 "
            "(add `options nvidia NVreg_RestrictProfilingToAdminUsers=0` to a file in /etc/modprobe.d, rebuild the "
            "initramfs and reboot); see https://developer.nvidia.com/ERR_NVGPUCTRPERM.";
        break;
    case 40: // CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
        s = "DRAM traffic is not shown: this virtual GPU does not permit reading performance counters; the host's "
            "administrator must enable profiling for this vGPU (NVIDIA vGPU documentation, \"Enabling NVIDIA CUDA "
            "Toolkit profilers for a vGPU VM\").";
        break;
    case 33: // CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED
        s = "DRAM traffic is not shown: CUPTI cannot read performance counters on this virtual GPU (vGPU).";
        break;
    case 41: // CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED
        s = "DRAM traffic is not shown: the GPU runs in confidential-computing mode, where counters are locked.";
        break;
    case 42: // CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED
        s = "DRAM traffic is not shown: CUPTI does not support counters on NVIDIA CMP (crypto-mining) processors.";
        break;
    case 43: // CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED
        s = "DRAM traffic is not shown: this GPU is a MIG instance, whose DRAM counters CUPTI cannot read; run on a "
            "whole GPU (MIG disabled) to see DRAM traffic.";
        break;
    case 44: // CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED
        s = "DRAM traffic is not shown: CUPTI does not support counters while SLI is enabled.";
        break;
    case 45: // CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED
        s = "DRAM traffic is not shown: this driver does not support GPU counters under WSL.";
        break;
    case 26: // CUPTI_ERROR_HARDWARE_BUSY
        s = "DRAM traffic is not shown: another profiler (Nsight Compute, Nsight Systems or DCGM) holds the GPU's "
            "counters; close it and run again.";
        break;
    case 27: // CUPTI_ERROR_NOT_SUPPORTED
    case 14: // CUPTI_ERROR_NOT_COMPATIBLE
        s = "DRAM traffic is not shown: CUPTI does not support counters on this GPU or driver (" + std::string(call) +
            ").";
        break;
    default:
        s = "DRAM traffic is not shown: CUPTI could not read the counters (" + std::string(call) + " returned " +
            (detail.empty() ? "error " + std::to_string(cuptiResult) : std::string(detail)) + ").";
        break;
    }
    s += kStillTimed;
    return s;
}

} // namespace tkm::measure
