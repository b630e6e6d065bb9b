#pragma once
// A failed device assert, read back from the kernel's printed output. CUDA's __assertfail (behind `assert` in a
// CUDA kernel and behind our lowering of tl.device_assert) prints one line through the device's printf buffer,
//   kernel.cu:12: void vector_add(const float *, …): block: [3,0,0], thread: [17,0,0] Assertion `i < n` failed.
// and ends the launch with CUDA_ERROR_ASSERT (CUDA C++ Programming Guide, "Assertion"); `#line` maps make the file
// and line those of the learner's .py for a lowered Triton kernel.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::runner {

/// One failed assert as the device printed it.
struct DeviceAssert
{
    std::string file;                 ///< as the compiler saw it: "kernel.cu", "kernel.py"
    int line = 0;                     ///< 1-based line of the assert
    std::string function;             ///< the kernel's signature as __PRETTY_FUNCTION__ prints it
    std::array<int64_t, 3> block{};   ///< blockIdx (the program id of a Triton kernel)
    std::array<int64_t, 3> thread{};  ///< threadIdx
    std::string condition;            ///< the asserted expression (a tl.device_assert's message)
};

/// Parses one printed line; nullopt when it is not an assert report.
std::optional<DeviceAssert> parseDeviceAssert(std::string_view line);

/// The first assert report among `printed` (the lines a launch printed), or nullopt.
std::optional<DeviceAssert> findDeviceAssert(const std::vector<std::string>& printed);

} // namespace tkm::runner
