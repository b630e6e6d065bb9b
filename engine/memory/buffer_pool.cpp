#include "engine/memory/buffer_pool.h"

#include <fmt/format.h>

#include <utility>

namespace tkm::memory {

std::string layoutKey(size_t bytes, size_t elementBytes, const GuardOptions& options)
{
    return fmt::format("{}/{}/{}/{}/{}/{}", bytes, elementBytes, guardName(options.guard), options.alignment,
                       options.canaryBytes, options.readableGuard ? 1 : 0);
}

BufferPool::BufferPool(size_t maxBytes) : m_maxBytes(maxBytes) {}

BufferPool::~BufferPool()
{
    clear();
}

engine::Expected<GuardedBuffer> BufferPool::acquire(const cuda::Context& ctx, size_t bytes, size_t elementBytes,
                                                    const GuardOptions& options)
{
    const std::string key = layoutKey(bytes, elementBytes, options);
    for (auto it = m_entries.begin(); it != m_entries.end(); ++it) {
        if (it->layout != key) {
            continue;
        }
        GuardedBuffer b = std::move(it->buffer);
        m_bytes -= b.mappedBytes();
        m_entries.erase(it);
        ++m_hits;
        return b;
    }
    ++m_misses;
    auto b = GuardedBuffer::create(ctx, bytes, elementBytes, options);
    if (b) {
        b->setLayoutKey(key);
    }
    return b;
}

void BufferPool::release(GuardedBuffer&& buffer)
{
    if (buffer.data() == 0 || buffer.layoutKey().empty()) {
        GuardedBuffer dropped = std::move(buffer); // not from a pool: freed here
        return;
    }
    if (buffer.mappedBytes() > m_maxBytes) {
        GuardedBuffer dropped = std::move(buffer);
        return;
    }
    m_bytes += buffer.mappedBytes();
    std::string key = buffer.layoutKey();
    m_entries.push_front(Entry{std::move(key), std::move(buffer)});
    while (m_bytes > m_maxBytes && !m_entries.empty()) {
        m_bytes -= m_entries.back().buffer.mappedBytes();
        m_entries.pop_back();
    }
}

void BufferPool::clear()
{
    m_entries.clear();
    m_bytes = 0;
}

} // namespace tkm::memory
