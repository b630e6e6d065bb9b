#pragma once
// Walking the logical elements of an argument instance (its shape and strides, engine/problem/instance.h).

#include "engine/problem/instance.h"

#include <array>
#include <cstddef>
#include <cstdint>

namespace tkm::problem {

/// Calls f(linear, storageOffset) for every logical element of `arg` in row-major order [elements], without a
/// division per element. Shapes have at most 8 dimensions (the spec allows 1–4).
template <class F> void forEachElement(const ArgInstance& arg, F&& f)
{
    const std::size_t r = arg.shape.size();
    std::array<int64_t, 8> idx{};
    int64_t offset = 0;
    for (int64_t linear = 0; linear < arg.numel; ++linear) {
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
