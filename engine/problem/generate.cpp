#include "engine/problem/generate.h"
#include "engine/problem/elements.h"

#include "engine/common/hash.h"

#include <array>
#include <cmath>
#include <cstring>
#include <new>
#include <algorithm>
#include <atomic>
#include <random>
#include <thread>

namespace tkm::problem {
namespace {

using engine::DType;

// Draws from std::mt19937_64 with hand-written transforms (std::normal_distribution differs between standard
// libraries; these do not), so the same seed gives the same values everywhere.
class Draw
{
public:
    explicit Draw(uint64_t seed) : m_rng(seed) {}

    double uniform01() { return static_cast<double>(m_rng() >> 11) * 0x1p-53; } ///< [0, 1)

    double normal()
    {
        // Box–Muller, both values used.
        if (m_hasSpare) {
            m_hasSpare = false;
            return m_spare;
        }
        double u1 = uniform01();
        while (u1 <= 0.0) {
            u1 = uniform01();
        }
        const double u2 = uniform01();
        const double r = std::sqrt(-2.0 * std::log(u1));
        m_spare = r * std::sin(2.0 * M_PI * u2);
        m_hasSpare = true;
        return r * std::cos(2.0 * M_PI * u2);
    }

    double value(const Generator& g, int64_t storageIndex)
    {
        switch (g.dist) {
        case Dist::Normal:
            return g.mean + g.std * normal();
        case Dist::Uniform:
        case Dist::Negative:
            return g.low + (g.high - g.low) * uniform01();
        case Dist::Large: {
            const double m = g.magnitude * (0.5 + 0.5 * uniform01());
            return (m_rng() & 1u) ? -m : m;
        }
        case Dist::Int: {
            const double span = g.high - g.low + 1.0;
            return std::min(g.high, g.low + std::floor(uniform01() * span));
        }
        case Dist::Arange:
            return g.start + static_cast<double>(storageIndex) * g.step;
        }
        return 0;
    }

private:
    std::mt19937_64 m_rng;
    double m_spare = 0;
    bool m_hasSpare = false;
};

// One generated value as generateInto() stores it: rounded to the dtype, negative kept negative.
double drawRounded(Draw& draw, const Generator& g, DType t, double negativeCap, int64_t offset)
{
    double v = engine::roundToDType(t, draw.value(g, offset));
    if (g.dist == Dist::Negative && !(v < 0)) {
        v = negativeCap < 0 ? negativeCap : -engine::roundToDType(t, 1e-3);
    }
    return v;
}

// Chunk `k` of generatePerformanceInputs(): logical elements [k·C, min((k+1)·C, numel)) of `arg`, row-major.
void drawChunk(const ArgInstance& arg, std::byte* dst, int64_t k)
{
    const Generator& g = *arg.init;
    const DType t = arg.dtype;
    const auto size = static_cast<std::size_t>(engine::dtypeBytes(t));
    const double negativeCap = g.dist == Dist::Negative ? engine::roundToDType(t, g.high) : 0.0;
    const int64_t begin = k * kPerformanceChunkElements;
    const int64_t end = std::min(arg.numel, begin + kPerformanceChunkElements);
    Draw draw(engine::mix64(arg.seed + static_cast<uint64_t>(k) + 1));
    forEachElement(
        arg,
        [&](int64_t, int64_t offset) {
            engine::storeAs(t, drawRounded(draw, g, t, negativeCap, offset),
                            dst + static_cast<std::size_t>(offset) * size);
        },
        begin, end);
}

engine::Error noHostMemory(const ProblemInstance& inst)
{
    return engine::makeError(engine::ErrorKind::BadInput,
                             "not enough host memory for the inputs of case \"" + inst.caseName + "\"");
}

// Runs job(i) for i in [0, count) on `threads` threads.
template <class F> void parallelFor(int64_t count, unsigned threads, F&& job)
{
    std::atomic<int64_t> next{0};
    auto worker = [&] {
        for (int64_t i = next++; i < count; i = next++) {
            job(i);
        }
    };
    std::vector<std::thread> pool;
    const unsigned n = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(std::max<int64_t>(count, 1))));
    for (unsigned i = 1; i < n; ++i) {
        pool.emplace_back(worker);
    }
    worker();
    for (auto& th : pool) {
        th.join();
    }
}

} // namespace

const BufferImage* GeneratedInputs::find(std::string_view name) const
{
    for (const auto& b : buffers) {
        if (b.name == name) {
            return &b;
        }
    }
    return nullptr;
}

int64_t storageOffset(const ArgInstance& arg, int64_t linear)
{
    int64_t offset = 0;
    for (std::size_t d = arg.shape.size(); d-- > 0;) {
        offset += (linear % arg.shape[d]) * arg.strides[d];
        linear /= arg.shape[d];
    }
    return offset;
}

std::vector<int64_t> logicalIndex(const ArgInstance& arg, int64_t linear)
{
    std::vector<int64_t> idx(arg.shape.size(), 0);
    for (std::size_t d = arg.shape.size(); d-- > 0;) {
        idx[d] = linear % arg.shape[d];
        linear /= arg.shape[d];
    }
    return idx;
}

void generateInto(const ArgInstance& arg, std::byte* dst, std::byte* ref)
{
    const DType t = arg.dtype;
    const DType rt = engine::referenceDType(t);
    const auto size = static_cast<std::size_t>(engine::dtypeBytes(t));
    const auto rsize = static_cast<std::size_t>(engine::dtypeBytes(rt));
    engine::fillPoison(t, dst, arg.storageElements);
    if (ref) {
        engine::fillPoison(rt, ref, arg.storageElements);
    }
    if (arg.resetToZero) {
        // reset_to_zero: the kernel accumulates into this buffer, which starts at zero before every launch.
        std::memset(dst, 0, static_cast<std::size_t>(arg.bytes));
        if (ref) {
            std::memset(ref, 0, static_cast<std::size_t>(arg.storageElements) * rsize);
        }
        return;
    }
    if (arg.role == Role::Out || !arg.init) {
        return;
    }
    const Generator& g = *arg.init;
    Draw draw(arg.seed);
    // A negative generator promises negative values also after rounding to a narrow type.
    const double negativeCap = g.dist == Dist::Negative ? engine::roundToDType(t, g.high) : 0.0;
    forEachElement(arg, [&](int64_t, int64_t offset) {
        const double v = drawRounded(draw, g, t, negativeCap, offset);
        engine::storeAs(t, v, dst + static_cast<std::size_t>(offset) * size);
        if (ref) {
            engine::storeAs(rt, v, ref + static_cast<std::size_t>(offset) * rsize);
        }
    });
}

engine::Expected<GeneratedInputs> generateInputs(const ProblemInstance& inst, bool withReference)
{
    GeneratedInputs out;
    try {
        for (const auto& a : inst.args) {
            if (a.kind != ParamKind::Buffer) {
                continue;
            }
            BufferImage img;
            img.name = a.name;
            img.learner.resize(static_cast<std::size_t>(a.bytes));
            if (withReference) {
                img.reference.resize(
                    static_cast<std::size_t>(a.storageElements * engine::dtypeBytes(engine::referenceDType(a.dtype))));
            }
            ArgInstance arg = a;
            // Never all zeros: a tiny buffer can draw only zeros from a narrow int range; draw again with the
            // next seeds (deterministic), and give up with a clear sentence if the generator cannot do better.
            for (int attempt = 0;; ++attempt) {
                generateInto(arg, img.learner.data(), withReference ? img.reference.data() : nullptr);
                if (a.role == Role::Out || a.resetToZero) {
                    break;
                }
                bool allZero = true;
                forEachElement(arg, [&](int64_t, int64_t offset) {
                    if (allZero &&
                        engine::loadAs(a.dtype, img.learner.data() + offset * engine::dtypeBytes(a.dtype)) != 0) {
                        allZero = false;
                    }
                });
                if (!allZero) {
                    break;
                }
                if (attempt == 64) {
                    return engine::makeError(engine::ErrorKind::BadSpec,
                                             "the generator of `" + a.name + "` gives only zeros in " +
                                                 std::string(engine::dtypeName(a.dtype)) + " in case \"" +
                                                 inst.caseName + "\": widen its range");
                }
                arg.seed = engine::mix64(arg.seed);
            }
            out.buffers.push_back(std::move(img));
        }
    } catch (const std::bad_alloc&) {
        return noHostMemory(inst);
    }
    return out;
}


void drawPerformanceInput(const ArgInstance& a, std::byte* dst, unsigned threads)
{
    if (threads == 0) {
        threads = std::max(1u, std::thread::hardware_concurrency());
    }
    const auto size = engine::dtypeBytes(a.dtype);
    const bool drawn = !a.resetToZero && a.role != Role::Out && a.init;
    // Poison first where drawing leaves bytes untouched (padding between strided elements, or nothing drawn), in
    // parallel slices of the storage; a dense drawn buffer is overwritten whole, so it skips this pass.
    if (!drawn || a.storageElements != a.numel) {
        const int64_t slices = (a.storageElements + kPerformanceChunkElements - 1) / kPerformanceChunkElements;
        parallelFor(slices, threads, [&](int64_t k) {
            const int64_t begin = k * kPerformanceChunkElements;
            const int64_t count = std::min(kPerformanceChunkElements, a.storageElements - begin);
            if (a.resetToZero) {
                std::memset(dst + begin * size, 0, static_cast<std::size_t>(count * size));
            } else {
                engine::fillPoison(a.dtype, dst + begin * size, count);
            }
        });
    }
    if (drawn) {
        const int64_t chunks = (a.numel + kPerformanceChunkElements - 1) / kPerformanceChunkElements;
        parallelFor(chunks, threads, [&](int64_t k) { drawChunk(a, dst, k); });
    }
}

engine::Expected<GeneratedInputs> generatePerformanceInputs(const ProblemInstance& inst, unsigned threads)
{
    GeneratedInputs out;
    try {
        for (const auto& a : inst.args) {
            if (a.kind != ParamKind::Buffer) {
                continue;
            }
            BufferImage img;
            img.name = a.name;
            img.learner.resize(static_cast<std::size_t>(a.bytes));
            drawPerformanceInput(a, img.learner.data(), threads);
            out.buffers.push_back(std::move(img));
        }
    } catch (const std::bad_alloc&) {
        return noHostMemory(inst);
    }
    return out;
}

} // namespace tkm::problem
