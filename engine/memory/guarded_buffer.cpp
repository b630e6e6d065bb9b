#include "engine/memory/guarded_buffer.h"

#include "engine/check/compare.h"
#include "engine/cuda/driver.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace tkm::memory {
namespace {

size_t roundUp(size_t v, size_t m)
{
    return (v + m - 1) / m * m;
}

CUmemAllocationProp deviceProp(int ordinal)
{
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    return prop;
}

// Counts bytes of a downloaded zone that differ from the expected image; `fromEnd` measures distances from the
// zone's end (zone before the data), otherwise from its start (zone after the data).
void countZone(const std::vector<std::byte>& zone, const std::vector<std::byte>& expected, bool fromEnd,
               int64_t& changed, int64_t& nearest)
{
    const size_t n = std::min(zone.size(), expected.size());
    for (size_t i = 0; i < n; ++i) {
        if (zone[i] == expected[i]) {
            continue;
        }
        ++changed;
        const auto dist = static_cast<int64_t>(fromEnd ? n - i : i + 1);
        if (nearest == 0 || dist < nearest) {
            nearest = dist;
        }
    }
}

} // namespace

const char* guardName(Guard g)
{
    switch (g) {
    case Guard::EndFlush:
        return "end-flush";
    case Guard::StartFlush:
        return "start-flush";
    case Guard::Padded:
        return "padded";
    case Guard::Plain:
        return "plain";
    }
    return "?";
}

engine::Expected<GuardedBuffer> GuardedBuffer::create(const cuda::Context& ctx, size_t bytes, size_t elementBytes,
                                                      const GuardOptions& options)
{
    const cuda::DriverApi& a = cuda::api();
    // 16 bytes by default, as cudaMalloc and PyTorch allocations are (at least) aligned and as Triton's 16-byte
    // vector accesses assume: a legal float4 load on a ragged size must not fault.
    const size_t alignment =
        options.alignment != 0 ? options.alignment : std::max<size_t>({elementBytes, kDefaultAlignment, 1});
    if ((alignment & (alignment - 1)) != 0) {
        return engine::makeError(engine::ErrorKind::BadInput,
                                 fmt::format("guarded buffer alignment {} is not a power of two", alignment));
    }
    if (options.guard == Guard::Plain) {
        GuardedBuffer b;
        b.m_bytes = bytes;
        b.m_guard = Guard::Plain;
        if (auto s = cuda::check(a.cuMemAlloc(&b.m_plain, std::max<size_t>(bytes, 1)), "cuMemAlloc"); !s) {
            b.m_plain = 0;
            return s.error();
        }
        b.m_data = b.m_plain;
        b.m_canaryAfter = b.m_data + bytes;
        return b;
    }
    if (!ctx.info().vmmSupported) {
        return engine::makeError(engine::ErrorKind::Cuda,
                                 fmt::format("{} does not support the CUDA virtual memory API that guarded buffers "
                                             "need (cuMemCreate/cuMemMap).",
                                             ctx.info().name));
    }
    const CUmemAllocationProp prop = deviceProp(ctx.info().ordinal);
    size_t gran = 0;
    if (auto s = cuda::check(a.cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM),
                             "cuMemGetAllocationGranularity");
        !s) {
        return s.error();
    }

    GuardedBuffer b;
    b.m_granularity = gran;
    b.m_bytes = bytes;
    b.m_guard = options.guard;
    const size_t canary = options.canaryBytes;

    // Layout (see the header): sizes first, then one reservation, one physical allocation, one mapping.
    size_t guardOffset = 0; // offset of the guard granule in the reservation
    size_t mapOffset = 0;   // offset of the read-write mapping in the reservation
    switch (options.guard) {
    case Guard::EndFlush:
        b.m_mappedBytes = roundUp(std::max<size_t>(bytes + canary + alignment, 1), gran);
        b.m_reserved = b.m_mappedBytes + gran;
        mapOffset = 0;
        guardOffset = b.m_mappedBytes;
        break;
    case Guard::StartFlush:
        b.m_mappedBytes = roundUp(std::max<size_t>(bytes + canary, 1), gran);
        b.m_reserved = gran + b.m_mappedBytes;
        guardOffset = 0;
        mapOffset = gran;
        break;
    case Guard::Plain:
        break; // handled above
    case Guard::Padded: {
        const size_t pad = roundUp(std::max({bytes, canary, gran}), gran);
        b.m_mappedBytes = pad + roundUp(std::max<size_t>(bytes, 1), gran) + pad;
        b.m_reserved = b.m_mappedBytes;
        mapOffset = 0;
        break;
    }
    }

    if (auto s = cuda::check(a.cuMemAddressReserve(&b.m_base, b.m_reserved, gran, 0, 0), "cuMemAddressReserve"); !s) {
        b.m_base = 0;
        return s.error();
    }
    if (auto s = cuda::check(a.cuMemCreate(&b.m_handle, b.m_mappedBytes, &prop, 0), "cuMemCreate"); !s) {
        b.m_handle = 0;
        return s.error();
    }
    b.m_mapBase = b.m_base + mapOffset;
    if (auto s = cuda::check(a.cuMemMap(b.m_mapBase, b.m_mappedBytes, 0, b.m_handle, 0), "cuMemMap"); !s) {
        b.m_mapBase = 0;
        return s.error();
    }
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (auto s = cuda::check(a.cuMemSetAccess(b.m_mapBase, b.m_mappedBytes, &access, 1), "cuMemSetAccess"); !s) {
        return s.error();
    }
    if (options.readableGuard && options.guard != Guard::Padded) {
        if (auto s = cuda::check(a.cuMemCreate(&b.m_guardHandle, gran, &prop, 0), "cuMemCreate"); !s) {
            b.m_guardHandle = 0;
            return s.error();
        }
        const CUdeviceptr guardAddr = b.m_base + guardOffset;
        if (auto s = cuda::check(a.cuMemMap(guardAddr, gran, 0, b.m_guardHandle, 0), "cuMemMap"); !s) {
            return s.error();
        }
        b.m_guardAddr = guardAddr;
        CUmemAccessDesc ro{};
        ro.location = prop.location;
        ro.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
        if (auto s = cuda::check(a.cuMemSetAccess(guardAddr, gran, &ro, 1), "cuMemSetAccess"); !s) {
            return s.error();
        }
    }

    const CUdeviceptr mapEnd = b.m_mapBase + b.m_mappedBytes;
    switch (options.guard) {
    case Guard::EndFlush:
        b.m_data = (mapEnd - bytes) / alignment * alignment;
        b.m_canaryBefore = b.m_data - canary;
        b.m_canaryBeforeBytes = canary;
        b.m_canaryAfter = b.m_data + bytes;
        b.m_canaryAfterBytes = mapEnd - (b.m_data + bytes); // alignment slack, usually 0
        break;
    case Guard::StartFlush:
        b.m_data = b.m_mapBase;
        b.m_canaryAfter = b.m_data + bytes;
        b.m_canaryAfterBytes = std::min<size_t>(canary, mapEnd - b.m_canaryAfter);
        break;
    case Guard::Plain:
        break;
    case Guard::Padded: {
        const size_t pad = (b.m_mappedBytes - roundUp(std::max<size_t>(bytes, 1), gran)) / 2;
        b.m_data = b.m_mapBase + pad;
        b.m_canaryBefore = b.m_data - canary;
        b.m_canaryBeforeBytes = canary;
        b.m_canaryAfter = b.m_data + bytes;
        b.m_canaryAfterBytes = canary;
        break;
    }
    }
    return b;
}

GuardedBuffer::~GuardedBuffer()
{
    release();
}

void GuardedBuffer::release()
{
    const cuda::DriverApi& a = cuda::api();
    // Errors are ignored: after a sticky error every call fails and the process exits anyway.
    if (m_guardAddr != 0) {
        a.cuMemUnmap(m_guardAddr, m_granularity);
    }
    if (m_guardHandle != 0) {
        a.cuMemRelease(m_guardHandle);
    }
    if (m_mapBase != 0) {
        a.cuMemUnmap(m_mapBase, m_mappedBytes);
    }
    if (m_handle != 0) {
        a.cuMemRelease(m_handle);
    }
    if (m_base != 0) {
        a.cuMemAddressFree(m_base, m_reserved);
    }
    if (m_plain != 0) {
        a.cuMemFree(m_plain);
    }
    m_guardAddr = m_mapBase = m_base = m_data = m_plain = 0;
    m_guardHandle = m_handle = 0;
}

GuardedBuffer::GuardedBuffer(GuardedBuffer&& other) noexcept
{
    *this = std::move(other);
}

GuardedBuffer& GuardedBuffer::operator=(GuardedBuffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_base = std::exchange(other.m_base, 0);
        m_reserved = other.m_reserved;
        m_mapBase = std::exchange(other.m_mapBase, 0);
        m_mappedBytes = other.m_mappedBytes;
        m_handle = std::exchange(other.m_handle, 0);
        m_plain = std::exchange(other.m_plain, 0);
        m_guardHandle = std::exchange(other.m_guardHandle, 0);
        m_guardAddr = std::exchange(other.m_guardAddr, 0);
        m_data = std::exchange(other.m_data, 0);
        m_bytes = other.m_bytes;
        m_granularity = other.m_granularity;
        m_guard = other.m_guard;
        m_canaryBefore = other.m_canaryBefore;
        m_canaryBeforeBytes = other.m_canaryBeforeBytes;
        m_canaryAfter = other.m_canaryAfter;
        m_canaryAfterBytes = other.m_canaryAfterBytes;
        m_beforeImage = std::move(other.m_beforeImage);
        m_afterImage = std::move(other.m_afterImage);
        m_layoutKey = std::move(other.m_layoutKey);
    }
    return *this;
}

engine::Status GuardedBuffer::upload(std::span<const std::byte> host, const cuda::Stream& stream)
{
    if (host.size() != m_bytes) {
        return engine::makeError(engine::ErrorKind::Internal,
                                 fmt::format("upload of {} bytes into a buffer of {} bytes", host.size(), m_bytes));
    }
    if (m_bytes == 0) {
        return {};
    }
    return cuda::check(cuda::api().cuMemcpyHtoDAsync(m_data, host.data(), m_bytes, stream.handle()),
                       "cuMemcpyHtoDAsync");
}

engine::Status GuardedBuffer::download(std::span<std::byte> host, const cuda::Stream& stream) const
{
    if (host.size() != m_bytes) {
        return engine::makeError(engine::ErrorKind::Internal,
                                 fmt::format("download of {} bytes from a buffer of {} bytes", host.size(), m_bytes));
    }
    if (m_bytes > 0) {
        if (auto s = cuda::check(cuda::api().cuMemcpyDtoHAsync(host.data(), m_data, m_bytes, stream.handle()),
                                 "cuMemcpyDtoHAsync");
            !s) {
            return s;
        }
    }
    return stream.synchronize();
}

engine::Status GuardedBuffer::zero(const cuda::Stream& stream)
{
    if (m_bytes == 0) {
        return {};
    }
    return cuda::check(cuda::api().cuMemsetD8Async(m_data, 0, m_bytes, stream.handle()), "cuMemsetD8Async");
}

engine::Status GuardedBuffer::fillCanaries(const cuda::Stream& stream)
{
    const cuda::DriverApi& a = cuda::api();
    m_beforeImage.assign(m_canaryBeforeBytes, std::byte{0});
    m_afterImage.assign(m_canaryAfterBytes, std::byte{0});
    check::fillCanary(m_beforeImage);
    // After the end all-ones bytes: a NaN in every floating type (f16, bf16, f32, f64), so a short overrun read
    // inside the alignment slack carries NaN into the result instead of a plausible value.
    std::fill(m_afterImage.begin(), m_afterImage.end(), kAfterCanaryByte);
    if (!m_beforeImage.empty()) {
        if (auto s = cuda::check(
                a.cuMemcpyHtoDAsync(m_canaryBefore, m_beforeImage.data(), m_beforeImage.size(), stream.handle()),
                "cuMemcpyHtoDAsync");
            !s) {
            return s;
        }
    }
    if (!m_afterImage.empty()) {
        return cuda::check(
            a.cuMemcpyHtoDAsync(m_canaryAfter, m_afterImage.data(), m_afterImage.size(), stream.handle()),
            "cuMemcpyHtoDAsync");
    }
    return {};
}

engine::Expected<CanaryDamage> GuardedBuffer::checkCanaries(const cuda::Stream& stream) const
{
    const cuda::DriverApi& a = cuda::api();
    if (m_beforeImage.size() != m_canaryBeforeBytes || m_afterImage.size() != m_canaryAfterBytes) {
        return engine::makeError(engine::ErrorKind::Internal, "checkCanaries() called before fillCanaries()");
    }
    std::vector<std::byte> before(m_canaryBeforeBytes);
    std::vector<std::byte> after(m_canaryAfterBytes);
    if (!before.empty()) {
        if (auto s = cuda::check(a.cuMemcpyDtoHAsync(before.data(), m_canaryBefore, before.size(), stream.handle()),
                                 "cuMemcpyDtoHAsync");
            !s) {
            return s.error();
        }
    }
    if (!after.empty()) {
        if (auto s = cuda::check(a.cuMemcpyDtoHAsync(after.data(), m_canaryAfter, after.size(), stream.handle()),
                                 "cuMemcpyDtoHAsync");
            !s) {
            return s.error();
        }
    }
    if (auto s = stream.synchronize(); !s) {
        return s.error();
    }
    CanaryDamage d;
    countZone(before, m_beforeImage, true, d.beforeBytes, d.nearestBefore);
    countZone(after, m_afterImage, false, d.afterBytes, d.nearestAfter);
    return d;
}

} // namespace tkm::memory
