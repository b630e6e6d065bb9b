#pragma once
// Guarded buffers kept mapped between cases and jobs. Creating a guarded buffer costs a VA reservation, a physical
// allocation, a mapping and an access change (cuMemAddressReserve, cuMemCreate, cuMemMap, cuMemSetAccess), and
// freeing it the reverse; a vector-add job needs 21 of them for its seven cases. A warm worker sees the same
// cases again and again, so a released buffer goes back here and the next request for exactly the same layout
// (data size, element size, guard placement, alignment, canary zone, readable guard) takes it again: the data
// then ends at the same guard, so every check of guarded_buffer.h holds as for a fresh one. The caller refills
// the canaries and uploads the data exactly as after create().

#include "engine/common/error.h"
#include "engine/cuda/context.h"
#include "engine/memory/guarded_buffer.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <string>

namespace tkm::memory {

/// Default bound of what a pool keeps mapped [bytes] (mapped bytes of the pooled buffers, guards excluded).
inline constexpr size_t kDefaultPoolBytes = size_t{1} << 30;

/// A bounded pool of guarded buffers of one context (see file comment). Not thread-safe; destroy it before the
/// context.
class BufferPool
{
public:
    /// A pool that keeps at most `maxBytes` mapped; beyond that the least recently released buffers are freed.
    explicit BufferPool(size_t maxBytes = kDefaultPoolBytes);
    ~BufferPool();                                 ///< frees every pooled buffer
    BufferPool(const BufferPool&) = delete;            ///< owns device memory
    BufferPool& operator=(const BufferPool&) = delete; ///< owns device memory

    /// A buffer laid out as GuardedBuffer::create(ctx, bytes, elementBytes, options) would be: a pooled one of
    /// exactly that layout when there is one, else a new one. Errors: those of GuardedBuffer::create.
    engine::Expected<GuardedBuffer> acquire(const cuda::Context& ctx, size_t bytes, size_t elementBytes,
                                            const GuardOptions& options);
    /// Takes `buffer` back for a later acquire(); an empty buffer is ignored.
    void release(GuardedBuffer&& buffer);
    /// Frees every pooled buffer (after a sticky error the process exits instead).
    void clear();

    size_t pooledBytes() const { return m_bytes; } ///< mapped bytes held [bytes]
    int64_t hits() const { return m_hits; }        ///< acquire() calls served from the pool
    int64_t misses() const { return m_misses; }    ///< acquire() calls that created a buffer

private:
    struct Entry
    {
        std::string layout;
        GuardedBuffer buffer;
    };
    size_t m_maxBytes;
    size_t m_bytes = 0;
    std::list<Entry> m_entries; // most recently released first
    int64_t m_hits = 0;
    int64_t m_misses = 0;
};

/// The key of a buffer layout: equal keys give equal placements of the data relative to the guard.
std::string layoutKey(size_t bytes, size_t elementBytes, const GuardOptions& options);

} // namespace tkm::memory
