#pragma once
// Walking the logical elements of an argument instance (its shape and strides, engine/problem/instance.h).

#include "engine/problem/instance.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace tkm::problem {

/// Calls f(linear, storageOffset) for the logical elements [begin, end) of `arg` (end < 0: to the last) in
/// row-major order [elements], with divisions only to find `begin`'s index. Shapes have at most 8 dimensions
/// (the spec allows 1–4).
template <class F> void forEachElement(const ArgInstance& arg, F&& f, int64_t begin = 0, int64_t end = -1)
{
    const std::size_t r = arg.shape.size();
    std::array<int64_t, 8> idx{};
    int64_t offset = 0;
    int64_t rest = begin;
    for (std::size_t d = r; d-- > 0;) {
        idx[d] = rest % arg.shape[d];
        offset += idx[d] * arg.strides[d];
        rest /= arg.shape[d];
    }
    const int64_t stop = end < 0 ? arg.numel : end;
    for (int64_t linear = begin; linear < stop; ++linear) {
        f(linear, offset);
        for (std::size_t d = r; d-- > 0;) {
            if (++idx[d] < arg.shape[d]) {
                offset += arg.strides[d];
                break;
            }
            offset -= (arg.shape[d] - 1) * arg.strides[d];
            idx[d] = 0;
        }
    }
}

} // namespace tkm::problem
