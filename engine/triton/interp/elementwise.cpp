// Elementwise arithmetic, bitwise ops, shifts, minimum/maximum, comparisons, tl.where and pointer arithmetic.
// Every op runs as one loop over the tile; an operand of one lane (a scalar the checker did not splat) is read
// at lane 0. Integer results are wrapped to their type (two's complement, as the GPU), float results rounded to
// theirs after every op. Integer division by zero gives -1 (all ones), as NVIDIA's div.s32/div.u32 do, and
// never traps; shifts by the width or more give 0 (shr of a negative signed value: -1), as PTX shl/shr clamp.
#include "engine/triton/interp/detail.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tkm::triton::interp::detail {

using ir::Elem;
using ir::OpKind;

namespace {

/// Calls body(round) with a rounding function for float type `e`.
template <class Body> void withRounding(Elem e, Body&& body)
{
    switch (e) {
    case Elem::F32:
        body([](double v) { return static_cast<double>(static_cast<float>(v)); });
        return;
    case Elem::F64:
        body([](double v) { return v; });
        return;
    default:
        body([e](double v) { return roundFloat(v, e); });
        return;
    }
}

/// Calls body(wrap) with the wrapping function of integer type `e`.
template <class Body> void withWrap(Elem e, Body&& body)
{
    switch (e) {
    case Elem::I32:
        body([](int64_t v) -> int64_t { return static_cast<int32_t>(v); });
        return;
    case Elem::I64:
    case Elem::U64:
    case Elem::Ptr:
        body([](int64_t v) { return v; });
        return;
    default:
        body([e](int64_t v) { return wrapInt(v, e); });
        return;
    }
}

/// f(k, ka, kb) for each result lane k, with ka/kb the operand lanes (0 for a one-lane operand).
template <class F> void loop2(size_t n, size_t na, size_t nb, F&& f)
{
    if (na == n && nb == n) {
        for (size_t k = 0; k < n; ++k) {
            f(k, k, k);
        }
        return;
    }
    for (size_t k = 0; k < n; ++k) {
        f(k, na == 1 ? 0 : k, nb == 1 ? 0 : k);
    }
}

/// `a` shifted by `b` as PTX shl/shr do (the amount read as unsigned and clamped to the width).
int64_t shift(int64_t a, int64_t b, OpKind kind, Elem e)
{
    auto width = static_cast<uint64_t>(ir::bitWidth(e));
    auto amount = static_cast<uint64_t>(b) & (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1);
    if (kind == OpKind::Shl) {
        return amount >= width ? 0 : static_cast<int64_t>(static_cast<uint64_t>(a) << amount);
    }
    if (ir::isUnsigned(e)) {
        uint64_t ua = static_cast<uint64_t>(a);
        return amount >= width ? 0 : static_cast<int64_t>(ua >> amount);
    }
    return amount >= width ? (a < 0 ? -1 : 0) : a >> amount;
}

/// C division / remainder / floor division of two wrapped integers of type `e` (no trap, see the file comment).
int64_t divide(int64_t a, int64_t b, OpKind kind, Elem e)
{
    if (ir::isUnsigned(e)) {
        auto ua = static_cast<uint64_t>(a);
        auto ub = static_cast<uint64_t>(b);
        if (ub == 0) {
            return kind == OpKind::Rem ? a : -1;
        }
        return static_cast<int64_t>(kind == OpKind::Rem ? ua % ub : ua / ub);
    }
    if (b == 0) {
        return kind == OpKind::Rem ? a : -1;
    }
    if (b == -1) {
        // INT_MIN / -1 wraps to INT_MIN (the caller wraps), INT_MIN % -1 is 0; avoid the host's trap
        return kind == OpKind::Rem ? 0 : static_cast<int64_t>(0 - static_cast<uint64_t>(a));
    }
    int64_t q = a / b;
    int64_t r = a % b;
    if (kind == OpKind::Rem) {
        return r;
    }
    if (kind == OpKind::FloorDiv && r != 0 && ((r < 0) != (b < 0))) {
        --q;
    }
    return q;
}

/// The result of integer op `kind` on a, b of type `e` before wrapping.
int64_t intOp(int64_t a, int64_t b, OpKind kind, Elem e, bool propagate)
{
    (void)propagate;
    auto ua = static_cast<uint64_t>(a);
    auto ub = static_cast<uint64_t>(b);
    bool u = ir::isUnsigned(e);
    switch (kind) {
    case OpKind::Add:
        return static_cast<int64_t>(ua + ub);
    case OpKind::Sub:
        return static_cast<int64_t>(ua - ub);
    case OpKind::Mul:
        return static_cast<int64_t>(ua * ub);
    case OpKind::Div:
    case OpKind::Rem:
    case OpKind::FloorDiv:
        return divide(a, b, kind, e);
    case OpKind::And:
        return a & b;
    case OpKind::Or:
        return a | b;
    case OpKind::Xor:
        return a ^ b;
    case OpKind::Shl:
    case OpKind::Shr:
        return shift(a, b, kind, e);
    case OpKind::Min:
        return (u ? ua < ub : a < b) ? a : b;
    case OpKind::Max:
        return (u ? ua > ub : a > b) ? a : b;
    default:
        return 0;
    }
}

/// The result of float op `kind` before rounding. Min/Max: `propagate` = NaN propagation ALL, else the
/// non-NaN operand wins (PTX min/max.f32, arith.minnumf).
double floatOp(double a, double b, OpKind kind, bool propagate)
{
    switch (kind) {
    case OpKind::Add:
        return a + b;
    case OpKind::Sub:
        return a - b;
    case OpKind::Mul:
        return a * b;
    case OpKind::Div:
        return a / b;
    case OpKind::Rem:
        return std::fmod(a, b);
    case OpKind::FloorDiv:
        return std::floor(a / b);
    case OpKind::Min:
        if (propagate && (std::isnan(a) || std::isnan(b))) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        return std::fmin(a, b);
    case OpKind::Max:
        if (propagate && (std::isnan(a) || std::isnan(b))) {
            return std::numeric_limits<double>::quiet_NaN();
        }
        return std::fmax(a, b);
    default:
        return 0;
    }
}

void evalBinary(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    bool propagate = !op.ints.empty() && op.ints[0] == 1;
    OpKind kind = op.kind;
    if (ir::isFloat(e)) {
        size_t n = out.f.size();
        withRounding(e, [&](auto round) {
            double* o = out.f.data();
            const double* x = a.f.data();
            const double* y = b.f.data();
            switch (kind) { // the common ops get their own loop, the rest go through floatOp
            case OpKind::Add:
                loop2(n, a.f.size(), b.f.size(), [&](size_t k, size_t i, size_t j) { o[k] = round(x[i] + y[j]); });
                return;
            case OpKind::Sub:
                loop2(n, a.f.size(), b.f.size(), [&](size_t k, size_t i, size_t j) { o[k] = round(x[i] - y[j]); });
                return;
            case OpKind::Mul:
                loop2(n, a.f.size(), b.f.size(), [&](size_t k, size_t i, size_t j) { o[k] = round(x[i] * y[j]); });
                return;
            default:
                loop2(n, a.f.size(), b.f.size(),
                      [&](size_t k, size_t i, size_t j) { o[k] = round(floatOp(x[i], y[j], kind, propagate)); });
            }
        });
        return;
    }
    size_t n = out.i.size();
    withWrap(e, [&](auto wrap) {
        int64_t* o = out.i.data();
        const int64_t* x = a.i.data();
        const int64_t* y = b.i.data();
        switch (kind) {
        case OpKind::Add:
            loop2(n, a.i.size(), b.i.size(), [&](size_t k, size_t i, size_t j) {
                o[k] = wrap(static_cast<int64_t>(static_cast<uint64_t>(x[i]) + static_cast<uint64_t>(y[j])));
            });
            return;
        case OpKind::Mul:
            loop2(n, a.i.size(), b.i.size(), [&](size_t k, size_t i, size_t j) {
                o[k] = wrap(static_cast<int64_t>(static_cast<uint64_t>(x[i]) * static_cast<uint64_t>(y[j])));
            });
            return;
        default:
            loop2(n, a.i.size(), b.i.size(),
                  [&](size_t k, size_t i, size_t j) { o[k] = wrap(intOp(x[i], y[j], kind, e, propagate)); });
        }
    });
}

template <class Cmp> void compareLoop(Tile& out, const std::vector<int64_t>& x, const std::vector<int64_t>& y, Cmp cmp)
{
    loop2(out.i.size(), x.size(), y.size(), [&](size_t k, size_t i, size_t j) { out.i[k] = cmp(x[i], y[j]); });
}

void evalCompare(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.operands[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    OpKind kind = op.kind;
    if (ir::isFloat(e)) {
        // ordered comparisons (false with a NaN), Ne unordered (true with a NaN), as C++'s operators
        loop2(out.i.size(), a.f.size(), b.f.size(), [&](size_t k, size_t i, size_t j) {
            double x = a.f[i];
            double y = b.f[j];
            bool r = kind == OpKind::Eq   ? x == y
                     : kind == OpKind::Ne ? x != y
                     : kind == OpKind::Lt ? x < y
                     : kind == OpKind::Le ? x <= y
                     : kind == OpKind::Gt ? x > y
                                          : x >= y;
            out.i[k] = r ? 1 : 0;
        });
        return;
    }
    if (ir::isUnsigned(e)) {
        loop2(out.i.size(), a.i.size(), b.i.size(), [&](size_t k, size_t i, size_t j) {
            auto x = static_cast<uint64_t>(a.i[i]);
            auto y = static_cast<uint64_t>(b.i[j]);
            bool r = kind == OpKind::Eq   ? x == y
                     : kind == OpKind::Ne ? x != y
                     : kind == OpKind::Lt ? x < y
                     : kind == OpKind::Le ? x <= y
                     : kind == OpKind::Gt ? x > y
                                          : x >= y;
            out.i[k] = r ? 1 : 0;
        });
        return;
    }
    switch (kind) {
    case OpKind::Eq:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x == y; });
        return;
    case OpKind::Ne:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x != y; });
        return;
    case OpKind::Lt:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x < y; });
        return;
    case OpKind::Le:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x <= y; });
        return;
    case OpKind::Gt:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x > y; });
        return;
    default:
        compareLoop(out, a.i, b.i, [](int64_t x, int64_t y) -> int64_t { return x >= y; });
        return;
    }
}

void evalUnary(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    if (ir::isFloat(e)) {
        for (size_t k = 0; k < out.f.size(); ++k) {
            out.f[k] = -a.f[a.f.size() == 1 ? 0 : k];
        }
        return;
    }
    for (size_t k = 0; k < out.i.size(); ++k) {
        int64_t v = a.i[a.i.size() == 1 ? 0 : k];
        out.i[k] = wrapInt(op.kind == OpKind::Neg ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : ~v, e);
    }
}

void evalSelect(Context& ctx, const ir::Op& op)
{
    const ir::Type& rt = ctx.type(op.results[0]);
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& c = ctx.tile(op.operands[0]);
    const Tile& a = ctx.tile(op.operands[1]);
    const Tile& b = ctx.tile(op.operands[2]);
    size_t n = static_cast<size_t>(rt.numel());
    auto at = [](size_t size, size_t k) { return size == 1 ? 0 : k; };
    bool isF = ir::isFloat(rt.elem);
    size_t na = isF ? a.f.size() : a.i.size();
    size_t nb = isF ? b.f.size() : b.i.size();
    for (size_t k = 0; k < n; ++k) {
        bool pick = c.i[at(c.i.size(), k)] != 0;
        size_t src = pick ? at(na, k) : at(nb, k);
        const Tile& from = pick ? a : b;
        if (isF) {
            out.f[k] = from.f[src];
        } else {
            out.i[k] = from.i[src];
            if (rt.isPtr()) {
                out.buf[k] = from.buf[src];
            }
        }
    }
}

void evalAddPtr(Context& ctx, const ir::Op& op)
{
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& p = ctx.tile(op.operands[0]);
    const Tile& off = ctx.tile(op.operands[1]);
    loop2(out.i.size(), p.i.size(), off.i.size(), [&](size_t k, size_t i, size_t j) {
        out.i[k] = static_cast<int64_t>(static_cast<uint64_t>(p.i[i]) + static_cast<uint64_t>(off.i[j]));
        out.buf[k] = p.buf[i];
    });
}

} // namespace

void evalArith(Context& ctx, const ir::Op& op)
{
    switch (op.kind) {
    case OpKind::Neg:
    case OpKind::Not:
        evalUnary(ctx, op);
        return;
    case OpKind::Eq:
    case OpKind::Ne:
    case OpKind::Lt:
    case OpKind::Le:
    case OpKind::Gt:
    case OpKind::Ge:
        evalCompare(ctx, op);
        return;
    case OpKind::Select:
        evalSelect(ctx, op);
        return;
    case OpKind::AddPtr:
        evalAddPtr(ctx, op);
        return;
    default:
        evalBinary(ctx, op);
        return;
    }
}

} // namespace tkm::triton::interp::detail
