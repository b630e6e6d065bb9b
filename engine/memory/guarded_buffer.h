#pragma once
// Guarded device buffers built with the CUDA virtual memory API (cuMemAddressReserve, cuMemCreate, cuMemMap,
// cuMemSetAccess; granule size from cuMemGetAllocationGranularity, 2 MiB on an H200).
//
// A plain cuMemAlloc hides out-of-bounds accesses: a missing-mask read of n = 1000 floats in a 1024-wide block
// passes silently (../shared/DESIGN.md). Here the data sits flush against a granule that is never mapped, so
// the first byte past it faults on the GPU (CUDA_ERROR_ILLEGAL_ADDRESS, 700):
//
//   EndFlush   [ mapped: … | canary zone | data ][ guard granule: unmapped ]      reads/writes past the end fault;
//                                                                                 writes before the start hit canaries
//   StartFlush [ guard granule: unmapped ][ data | canary zone | … mapped ]      reads/writes before the start fault;
//                                                                                 writes past the end hit canaries
//   Padded     [ mapped slack ≥ max(size, 1 granule) | data | mapped slack ]     nothing near the data faults (used
//                                                                                 for the buffers not under probe)
//
// With `readableGuard` the guard granule is mapped read-only instead: only writes through it fault, which tells
// a read from a write when probing one buffer.
//
// Alignment: in EndFlush mode the data start is the end of the mapping minus the size, aligned down to
// `alignment` (default 16 bytes, as cudaMalloc and PyTorch tensors are, so a legal 16-byte vector access on a
// ragged size never faults with CUDA_ERROR_MISALIGNED_ADDRESS). That leaves up to 15 bytes (12 for f32) after the
// end before the guard: they hold 0xFF bytes, a NaN in every floating type, so a short overrun read carries NaN
// into the result and a write there is counted as canary damage; anything further faults.
//
// The canary zones hold check::fillCanary()'s pattern (engine/check/compare.h, one definition for the engine);
// checkCanaries() counts the bytes that changed.

#include "engine/common/error.h"
#include "engine/cuda/context.h"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tkm::memory {

/// Default alignment of the data start [bytes] (cudaMalloc and PyTorch give at least this; Triton's vector
/// accesses assume it).
inline constexpr size_t kDefaultAlignment = 16;
/// Byte the zone after the data is filled with: 0xFF…, a NaN in every floating type.
inline constexpr std::byte kAfterCanaryByte{0xFF};

/// Default canary zone beside the data [bytes].
inline constexpr size_t kDefaultCanaryBytes = 64 * 1024;

/// Where the unmapped guard sits relative to the data.
enum class Guard {
    EndFlush,   ///< data ends at the guard (past-the-end accesses fault); canaries before
    StartFlush, ///< data starts right after the guard (before-the-start accesses fault); canaries after
    Padded,     ///< mapped slack on both sides: no fault near the data; canaries on both sides
    Plain,      ///< a plain cuMemAlloc of the size, no guard and no canaries: what compute-sanitizer's memcheck
                ///< and initcheck track exactly (the deep check, runner/deep_check.h)
};

/// "end-flush", "start-flush", "padded", "plain".
const char* guardName(Guard g);

/// How a guarded buffer is laid out.
struct GuardOptions
{
    Guard guard = Guard::EndFlush;            ///< placement
    size_t alignment = 0;                     ///< data start alignment [bytes]; 0: kDefaultAlignment (or the element size when larger)
    size_t canaryBytes = kDefaultCanaryBytes; ///< canary zone on the checked side(s) [bytes]
    bool readableGuard = false;               ///< map the guard granule read-only: only writes fault
};

/// Canary bytes that no longer hold the canary pattern after a launch.
struct CanaryDamage
{
    int64_t beforeBytes = 0;   ///< changed bytes in the zone before the data
    int64_t afterBytes = 0;    ///< changed bytes in the zone after the data (incl. alignment slack)
    int64_t nearestBefore = 0; ///< distance of the changed byte nearest the start [bytes] (1 = just before); 0: none
    int64_t nearestAfter = 0;  ///< distance of the changed byte nearest the end [bytes] (1 = just after); 0: none
    bool any() const { return beforeBytes > 0 || afterBytes > 0; } ///< something changed
};

/// A device buffer with an unmapped guard granule beside it and canary zones (see file comment). Move-only.
class GuardedBuffer
{
public:
    /// Reserves, creates and maps memory in the current context of `ctx` for `bytes` bytes of elements of
    /// `elementBytes` bytes. Errors: Cuda (out of memory, VMM unsupported), BadInput (alignment not a power of 2).
    static engine::Expected<GuardedBuffer> create(const cuda::Context& ctx, size_t bytes, size_t elementBytes,
                                                  const GuardOptions& options = {});

    GuardedBuffer() = default;                                ///< empty
    ~GuardedBuffer();                                         ///< unmaps and frees
    GuardedBuffer(GuardedBuffer&& other) noexcept;            ///< moves ownership
    GuardedBuffer& operator=(GuardedBuffer&& other) noexcept; ///< moves ownership
    GuardedBuffer(const GuardedBuffer&) = delete;             ///< owner: not copyable
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;  ///< owner: not copyable

    CUdeviceptr data() const { return m_data; }          ///< first byte of the data
    size_t bytes() const { return m_bytes; }             ///< data size [bytes]
    Guard guard() const { return m_guard; }              ///< placement
    size_t granularity() const { return m_granularity; } ///< VMM granule [bytes]
    size_t mappedBytes() const { return m_mappedBytes; } ///< read-write mapping around the data [bytes]
    /// The layout key this buffer was made for (memory/buffer_pool.h); empty when not made by a pool.
    const std::string& layoutKey() const { return m_layoutKey; }
    /// Records the layout key (BufferPool only).
    void setLayoutKey(std::string key) { m_layoutKey = std::move(key); }

    /// Copies `host` (exactly bytes() bytes) into the data, ordered on `stream`; `host` must stay alive until
    /// the stream reaches the copy (pageable memory is staged before the call returns).
    engine::Status upload(std::span<const std::byte> host, const cuda::Stream& stream);
    /// Copies the data into `host` (exactly bytes() bytes) and waits for the stream.
    engine::Status download(std::span<std::byte> host, const cuda::Stream& stream) const;
    /// Sets the data to zero bytes, ordered on `stream`.
    engine::Status zero(const cuda::Stream& stream);
    /// Fills both canary zones (and the alignment slack after the end) with the canary pattern, ordered on
    /// `stream` (the host images live in this object until the next fill).
    engine::Status fillCanaries(const cuda::Stream& stream);
    /// Downloads the canary zones (waits for the stream) and counts bytes that changed.
    engine::Expected<CanaryDamage> checkCanaries(const cuda::Stream& stream) const;

private:
    void release();
    CUdeviceptr m_base = 0;    // start of the VA reservation
    size_t m_reserved = 0;     // reservation size [bytes]
    CUdeviceptr m_mapBase = 0; // start of the read-write mapping
    size_t m_mappedBytes = 0;
    CUdeviceptr m_plain = 0; // Guard::Plain: the cuMemAlloc pointer
    CUmemGenericAllocationHandle m_handle = 0;
    CUmemGenericAllocationHandle m_guardHandle = 0; // readable guard's physical granule
    CUdeviceptr m_guardAddr = 0;
    CUdeviceptr m_data = 0;
    size_t m_bytes = 0;
    size_t m_granularity = 0;
    Guard m_guard = Guard::EndFlush;
    CUdeviceptr m_canaryBefore = 0; // zone before the data
    size_t m_canaryBeforeBytes = 0;
    CUdeviceptr m_canaryAfter = 0; // zone after the data
    size_t m_canaryAfterBytes = 0;
    std::vector<std::byte> m_beforeImage; // expected canary bytes
    std::vector<std::byte> m_afterImage;
    std::string m_layoutKey;
};

} // namespace tkm::memory
