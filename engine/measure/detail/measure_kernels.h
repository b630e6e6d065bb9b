#pragma once
// PTX of the measure phase's own kernels (L2 flush, calibration copy) and a plain device allocation owner.

#include "engine/common/error.h"

#include <cuda.h>

#include <cstddef>
#include <string_view>

namespace tkm::measure::detail {

/// PTX text (NUL-terminated, PTX ISA 7.5, sm_75 and newer) with these entries:
///   tkm_l2_flush(const uint4* p, u64 n, u32 magic, u32* sink): reads n 16-byte vectors with ld.global.cg (cached in
///     L2 only, never written), stores the XOR of all words to *sink only if it equals `magic`;
///   tkm_copy(uint4* dst, const uint4* src, u64 n): grid-stride copy of n 16-byte vectors;
///   tkm_copy_bytes(u8* dst, const u8* src, u64 n): grid-stride copy of n bytes (any size and alignment);
///   tkm_copy4(uint4* dst, const uint4* src, u64 n): grid-stride copy, four 16-byte vectors in flight per thread;
///   tkm_copy_tile(uint4* dst, const uint4* src, u64 n): one tile of 2 · blockDim.x vectors per block;
///   tkm_add_tile(float4* out, const float4* x, const float4* y, u64 n): out = x + y in the same tile shape.
std::string_view measureKernelsPtx();

/// A plain cuMemAlloc allocation (not guarded), freed on destruction. Move-only.
class DeviceAllocation
{
public:
    /// Allocates `bytes` in the current context. Error: Cuda (e.g. out of memory), with the size in the message.
    static engine::Expected<DeviceAllocation> create(size_t bytes);
    DeviceAllocation() = default;                                   ///< empty
    ~DeviceAllocation();                                            ///< frees
    DeviceAllocation(DeviceAllocation&& other) noexcept;            ///< moves ownership
    DeviceAllocation& operator=(DeviceAllocation&& other) noexcept; ///< moves ownership
    DeviceAllocation(const DeviceAllocation&) = delete;             ///< owner
    DeviceAllocation& operator=(const DeviceAllocation&) = delete;  ///< owner
    CUdeviceptr ptr() const { return m_ptr; }                       ///< device address
    size_t bytes() const { return m_bytes; }                        ///< size [bytes]

private:
    CUdeviceptr m_ptr = 0;
    size_t m_bytes = 0;
};

} // namespace tkm::measure::detail
