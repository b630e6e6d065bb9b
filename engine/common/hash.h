#pragma once
// Stable 128-bit content hash (FNV-1a 128, http://www.isthe.com/chongo/tech/comp/fnv/): the same bytes give the
// same hex string on every machine and build. Used for CUBIN cache keys and default case seeds.

#include <cstdint>
#include <string>
#include <string_view>

namespace tkm::engine {

/// Incremental FNV-1a 128-bit hasher.
class Hasher
{
public:
    Hasher();
    /// Adds bytes.
    Hasher& add(const void* data, std::size_t size);
    /// Adds a string and its length (so ("ab","c") and ("a","bc") differ).
    Hasher& addField(std::string_view text);
    /// 32 lower-case hex digits of the current state.
    std::string hex() const;
    /// Low 64 bits of the current state (e.g. a seed).
    uint64_t low64() const;

private:
    uint64_t m_hi;
    uint64_t m_lo;
};

/// FNV-1a 128 of `text` as 32 hex digits.
std::string contentHash(std::string_view text);

/// SplitMix64 finaliser: a well-mixed 64-bit value from x (used to derive per-buffer seeds).
uint64_t mix64(uint64_t x);

} // namespace tkm::engine
