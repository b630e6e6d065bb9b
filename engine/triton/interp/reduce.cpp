// Reductions, scans and tl.dot.
// Reduce views the operand as [outer, R, inner] around the axis. Float sums accumulate in double and round
// once to the result type (the accumulator dtype the checker chose): closer to the exact sum than the GPU's
// tree of fp32 adds, which the tolerances cover. Integer sums wrap (exact mod 2^n whatever the order).
// tl.max/tl.min use maximum/minimum with propagate_nan NONE (standard.py's _elementwise_max): a NaN lane loses
// to any number, the result is NaN only when every lane is. argmax/argmin take the lowest index among ties
// (tie_break_left; the "fast" variant leaves ties unspecified, lowest is one valid answer) and skip NaNs.
// Scans run sequentially, rounding after every step. Dot accumulates a[M,K]·b[K,N] in double (int64 for
// integers) with the k loop innermost over contiguous rows of a and of b transposed, adds acc, rounds once;
// fp32 operands with input_precision "tf32" are first rounded to tf32 (10-bit mantissa, nearest even).
#include "engine/triton/interp/detail.h"

#include <algorithm>

#include <bit>
#include <cmath>
#include <limits>

namespace tkm::triton::interp::detail {

using ir::Elem;
using ir::OpKind;

namespace {

/// The combining function of a Reduce/Scan (Op::text), parsed once per op.
enum class Combine { Sum, Prod, Max, Min, XorSum, And, Or, ArgMax, ArgMin, Unknown };

Combine combineOf(const std::string& text)
{
    static const std::pair<const char*, Combine> kNames[] = {
        {"sum", Combine::Sum}, {"prod", Combine::Prod},      {"max", Combine::Max},
        {"min", Combine::Min}, {"xor_sum", Combine::XorSum}, {"and", Combine::And},
        {"or", Combine::Or},   {"argmax", Combine::ArgMax},  {"argmin", Combine::ArgMin}};
    for (const auto& [name, c] : kNames) {
        if (text == name) {
            return c;
        }
    }
    return Combine::Unknown;
}

/// The operand viewed as [outer, r, inner] around `axis`.
struct AxisView
{
    size_t outer = 1;
    size_t r = 1;
    size_t inner = 1;
};

AxisView viewAround(const std::vector<int64_t>& shape, int64_t axis)
{
    AxisView v;
    auto rank = static_cast<int64_t>(shape.size());
    if (rank == 0) {
        return v;
    }
    if (axis < 0) {
        axis += rank;
    }
    for (int64_t d = 0; d < rank; ++d) {
        auto e = static_cast<size_t>(shape[static_cast<size_t>(d)]);
        (d < axis ? v.outer : d == axis ? v.r : v.inner) *= e;
    }
    return v;
}

/// The operand's lanes converted to `to` when its element type differs (else nothing is copied).
void convertInput(Context& ctx, const ir::Type& t, const Tile& a, Elem to, Tile& tmp)
{
    auto n = static_cast<size_t>(t.numel());
    bool toF = ir::isFloat(to);
    bool fromF = ir::isFloat(t.elem);
    tmp.f.resize(toF ? n : 0);
    tmp.i.resize(toF ? 0 : n);
    for (size_t k = 0; k < n; ++k) {
        int64_t oi = 0;
        double of = 0;
        castLane(fromF ? 0 : a.i[k], fromF ? a.f[k] : 0.0, t.elem, to, false, oi, of);
        if (toF) {
            tmp.f[k] = of;
        } else {
            tmp.i[k] = oi;
        }
    }
    (void)ctx;
}

/// True when `x` should replace the best so far `best` in an argmax (`max`) or argmin.
template <class T> bool better(T x, T best, bool max)
{
    if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(x)) {
            return false;
        }
        if (std::isnan(best)) {
            return true;
        }
    }
    return max ? x > best : x < best;
}

template <class T> T reduceLine(const T* x, size_t r, size_t stride, Combine kind)
{
    T acc = x[0];
    if constexpr (std::is_floating_point_v<T>) {
        if (kind == Combine::Sum) {
            for (size_t j = 1; j < r; ++j) {
                acc += x[j * stride];
            }
        } else { // max / min, NaN-ignoring
            bool max = kind == Combine::Max;
            for (size_t j = 1; j < r; ++j) {
                if (better(x[j * stride], acc, max)) {
                    acc = x[j * stride];
                }
            }
        }
    } else {
        for (size_t j = 1; j < r; ++j) {
            T v = x[j * stride];
            switch (kind) {
            case Combine::Sum:
                acc = static_cast<T>(acc + v);
                break; // T is uint64_t here; wrapped by the caller
            case Combine::Max:
                acc = v > acc ? v : acc;
                break;
            case Combine::Min:
                acc = v < acc ? v : acc;
                break;
            case Combine::XorSum:
                acc ^= v;
                break;
            case Combine::And:
                acc &= v;
                break;
            case Combine::Or:
                acc |= v;
                break;
            default:
                break;
            }
        }
    }
    return acc;
}

template <class T> int64_t argLine(const T* x, size_t r, size_t stride, bool max)
{
    size_t best = 0;
    for (size_t j = 1; j < r; ++j) {
        if (better(x[j * stride], x[best * stride], max)) {
            best = j;
        }
    }
    return static_cast<int64_t>(best);
}

void evalReduceOp(Context& ctx, const ir::Op& op)
{
    const ir::Type& at = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    AxisView v = viewAround(at.shape, op.ints.empty() ? 0 : op.ints[0]);
    Combine kind = combineOf(op.text);
    if (kind == Combine::Unknown || kind == Combine::Prod) {
        raise(ctx, FaultKind::Unsupported, op, "internal error: unknown reduction `" + op.text + "`");
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    const Tile* a = &ctx.tile(op.operands[0]);
    bool arg = kind == Combine::ArgMax || kind == Combine::ArgMin;
    Tile tmp;
    if (!arg && at.elem != rt.elem) {
        convertInput(ctx, at, *a, rt.elem, tmp);
        a = &tmp;
    }
    Elem e = arg ? at.elem : rt.elem;
    bool isF = ir::isFloat(e);
    bool u = ir::isUnsigned(e);
    for (size_t o = 0; o < v.outer; ++o) {
        for (size_t in = 0; in < v.inner; ++in) {
            size_t base = o * v.r * v.inner + in;
            size_t dst = o * v.inner + in;
            if (arg) {
                bool max = kind == Combine::ArgMax;
                out.i[dst] = isF ? argLine(a->f.data() + base, v.r, v.inner, max)
                             : u ? argLine(reinterpret_cast<const uint64_t*>(a->i.data()) + base, v.r, v.inner, max)
                                 : argLine(a->i.data() + base, v.r, v.inner, max);
            } else if (isF) {
                out.f[dst] = roundFloat(reduceLine(a->f.data() + base, v.r, v.inner, kind), e);
            } else if (u) {
                auto x = reinterpret_cast<const uint64_t*>(a->i.data()) + base;
                out.i[dst] = wrapInt(static_cast<int64_t>(reduceLine(x, v.r, v.inner, kind)), e);
            } else if (kind == Combine::Sum) { // sum in unsigned arithmetic: wraps without overflow UB
                auto x = reinterpret_cast<const uint64_t*>(a->i.data()) + base;
                out.i[dst] = wrapInt(static_cast<int64_t>(reduceLine(x, v.r, v.inner, kind)), e);
            } else {
                out.i[dst] = wrapInt(reduceLine(a->i.data() + base, v.r, v.inner, kind), e);
            }
        }
    }
}

void evalScan(Context& ctx, const ir::Op& op)
{
    const ir::Type& at = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    AxisView v = viewAround(at.shape, op.ints.empty() ? 0 : op.ints[0]);
    bool reverse = op.ints.size() > 1 && op.ints[1] != 0;
    Combine kind = combineOf(op.text);
    if (kind != Combine::Sum && kind != Combine::Prod && kind != Combine::Max && kind != Combine::Min) {
        raise(ctx, FaultKind::Unsupported, op, "internal error: unknown scan `" + op.text + "`");
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    const Tile* a = &ctx.tile(op.operands[0]);
    Tile tmp;
    if (at.elem != rt.elem) {
        convertInput(ctx, at, *a, rt.elem, tmp);
        a = &tmp;
    }
    Elem e = rt.elem;
    bool isF = ir::isFloat(e);
    bool u = ir::isUnsigned(e);
    for (size_t o = 0; o < v.outer; ++o) {
        for (size_t in = 0; in < v.inner; ++in) {
            size_t base = o * v.r * v.inner + in;
            double accF = 0;
            int64_t accI = 0;
            for (size_t s = 0; s < v.r; ++s) {
                size_t k = base + (reverse ? v.r - 1 - s : s) * v.inner;
                if (isF) {
                    double x = a->f[k];
                    accF = s == 0                  ? x
                           : kind == Combine::Sum  ? roundFloat(accF + x, e)
                           : kind == Combine::Prod ? roundFloat(accF * x, e)
                           : kind == Combine::Max  ? (better(x, accF, true) ? x : accF)
                                                   : (better(x, accF, false) ? x : accF);
                    out.f[k] = accF;
                    continue;
                }
                int64_t x = a->i[k];
                auto ux = static_cast<uint64_t>(x);
                auto ua = static_cast<uint64_t>(accI);
                accI = s == 0                  ? x
                       : kind == Combine::Sum  ? static_cast<int64_t>(ua + ux)
                       : kind == Combine::Prod ? static_cast<int64_t>(ua * ux)
                       : kind == Combine::Max  ? ((u ? ux > ua : x > accI) ? x : accI)
                                               : ((u ? ux < ua : x < accI) ? x : accI);
                accI = wrapInt(accI, e);
                out.i[k] = accI;
            }
        }
    }
}

/// fp32 `v` rounded to tf32 (1 + 8 + 10 bits) to nearest even, as the tensor cores see it.
double roundTf32(double v)
{
    auto bits = std::bit_cast<uint32_t>(static_cast<float>(v));
    if ((bits & 0x7f800000u) == 0x7f800000u) {
        return v; // inf / NaN
    }
    bits += 0x00000fffu + ((bits >> 13) & 1u);
    bits &= 0xffffe000u;
    return std::bit_cast<float>(bits);
}

} // namespace

void evalReduce(Context& ctx, const ir::Op& op)
{
    if (op.kind == OpKind::Scan) {
        evalScan(ctx, op);
    } else {
        evalReduceOp(ctx, op);
    }
}

void evalDot(Context& ctx, const ir::Op& op)
{
    const ir::Type& at = ctx.type(op.operands[0]);
    const ir::Type& bt = ctx.type(op.operands[1]);
    const ir::Type& rt = ctx.type(op.results[0]);
    auto m = static_cast<size_t>(at.shape[0]);
    auto kk = static_cast<size_t>(at.shape[1]);
    auto n = static_cast<size_t>(bt.shape[1]);
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    ir::ValueId accId = op.operands.size() > 2 ? op.operands[2] : ir::kNoValue;
    const Tile* acc = accId != ir::kNoValue ? &ctx.tile(accId) : nullptr;
    Tile& out = prepare(ctx, op.results[0]);
    if (!ir::isFloat(at.elem)) {
        for (size_t i = 0; i < m; ++i) {
            for (size_t j = 0; j < n; ++j) {
                uint64_t s = acc ? static_cast<uint64_t>(acc->i[i * n + j]) : 0;
                for (size_t k = 0; k < kk; ++k) {
                    s += static_cast<uint64_t>(a.i[i * kk + k]) * static_cast<uint64_t>(b.i[k * n + j]);
                }
                out.i[i * n + j] = wrapInt(static_cast<int64_t>(s), rt.elem);
            }
        }
        return;
    }
    bool tf32 = at.elem == Elem::F32 && bt.elem == Elem::F32 && (op.text.empty() || op.text == "tf32");
    // scratch holds a (maybe tf32-rounded) then b transposed, so the k loop reads both contiguously
    ctx.scratch.resize(m * kk + n * kk);
    double* ar = ctx.scratch.data();
    double* bT = ar + m * kk;
    for (size_t x = 0; x < m * kk; ++x) {
        ar[x] = tf32 ? roundTf32(a.f[x]) : a.f[x];
    }
    for (size_t k = 0; k < kk; ++k) {
        for (size_t j = 0; j < n; ++j) {
            double y = b.f[k * n + j];
            bT[j * kk + k] = tf32 ? roundTf32(y) : y;
        }
    }
    for (size_t i = 0; i < m; ++i) {
        const double* row = ar + i * kk;
        for (size_t j = 0; j < n; ++j) {
            const double* col = bT + j * kk;
            // four independent partial sums: the host's FP adds pipeline instead of waiting on one chain
            double p[4] = {0, 0, 0, 0};
            size_t k = 0;
            for (; k + 4 <= kk; k += 4) {
                p[0] += row[k] * col[k];
                p[1] += row[k + 1] * col[k + 1];
                p[2] += row[k + 2] * col[k + 2];
                p[3] += row[k + 3] * col[k + 3];
            }
            for (; k < kk; ++k) {
                p[0] += row[k] * col[k];
            }
            double s = (p[0] + p[1]) + (p[2] + p[3]);
            if (acc) {
                s += acc->f[i * n + j];
            }
            out.f[i * n + j] = roundFloat(s, rt.elem);
        }
    }
}

} // namespace tkm::triton::interp::detail
