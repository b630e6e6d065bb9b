#include "engine/common/hash.h"

#include <cstdio>

namespace tkm::engine {
namespace {

__extension__ typedef unsigned __int128 U128;

// FNV-1a 128 parameters (offset basis and prime from the FNV reference).
constexpr uint64_t kOffsetHi = 0x6c62272e07bb0142ull;
constexpr uint64_t kOffsetLo = 0x62b821756295c58dull;
constexpr uint64_t kPrimeHi = 0x0000000001000000ull;
constexpr uint64_t kPrimeLo = 0x000000000000013Bull;

} // namespace

Hasher::Hasher() : m_hi(kOffsetHi), m_lo(kOffsetLo) {}

Hasher& Hasher::add(const void* data, std::size_t size)
{
    const U128 prime = (static_cast<U128>(kPrimeHi) << 64) | kPrimeLo;
    U128 h = (static_cast<U128>(m_hi) << 64) | m_lo;
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) {
        h ^= p[i];
        h *= prime;
    }
    m_hi = static_cast<uint64_t>(h >> 64);
    m_lo = static_cast<uint64_t>(h);
    return *this;
}

Hasher& Hasher::addField(std::string_view text)
{
    const uint64_t n = text.size();
    unsigned char len[8];
    for (int i = 0; i < 8; ++i) {
        len[i] = static_cast<unsigned char>(n >> (8 * i)); // fixed byte order: stable across hosts
    }
    add(len, sizeof len);
    return add(text.data(), text.size());
}

std::string Hasher::hex() const
{
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(m_hi),
                  static_cast<unsigned long long>(m_lo));
    return buf;
}

uint64_t Hasher::low64() const
{
    return m_lo;
}

std::string contentHash(std::string_view text)
{
    return Hasher().add(text.data(), text.size()).hex();
}

uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

} // namespace tkm::engine
