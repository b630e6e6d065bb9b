// Math functions (computed in double, rounded to the element type: the GPU's approximations differ from that
// by a few ulps, which the course's tolerances cover), fma, umulhi, and conversions: tl.cast / .to(), bitcast,
// and pointer ↔ integer. A pointer cast to another pointee keeps its byte address (the offset is rescaled).
#include "engine/triton/interp/detail.h"

#include <algorithm>

#include <cmath>

namespace tkm::triton::interp::detail {

using ir::Elem;
using ir::OpKind;

namespace {

double mathOp(OpKind kind, double x)
{
    switch (kind) {
    case OpKind::Exp:
        return std::exp(x);
    case OpKind::Exp2:
        return std::exp2(x);
    case OpKind::Log:
        return std::log(x);
    case OpKind::Log2:
        return std::log2(x);
    case OpKind::Sqrt:
        return std::sqrt(x);
    case OpKind::Rsqrt:
        return 1.0 / std::sqrt(x);
    case OpKind::Abs:
        return std::fabs(x);
    case OpKind::Floor:
        return std::floor(x);
    case OpKind::Ceil:
        return std::ceil(x);
    case OpKind::Sin:
        return std::sin(x);
    case OpKind::Cos:
        return std::cos(x);
    case OpKind::Erf:
        return std::erf(x);
    case OpKind::Tanh:
        return std::tanh(x);
    case OpKind::Sigmoid:
        return 1.0 / (1.0 + std::exp(-x));
    default:
        return x;
    }
}

void evalMath(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    if (!ir::isFloat(e)) {
        // tl.abs of an integer (the only math op the checker allows on ints); floor/ceil are identities
        for (size_t k = 0; k < out.i.size(); ++k) {
            int64_t v = a.i[a.i.size() == 1 ? 0 : k];
            bool negate = op.kind == OpKind::Abs && !ir::isUnsigned(e) && v < 0;
            out.i[k] = wrapInt(negate ? static_cast<int64_t>(0 - static_cast<uint64_t>(v)) : v, e);
        }
        return;
    }
    for (size_t k = 0; k < out.f.size(); ++k) {
        out.f[k] = roundFloat(mathOp(op.kind, a.f[a.f.size() == 1 ? 0 : k]), e);
    }
}

void evalFma(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    const Tile& c = ctx.tile(op.operands[2]);
    auto at = [](const std::vector<double>& v, size_t k) { return v[v.size() == 1 ? 0 : k]; };
    for (size_t k = 0; k < out.f.size(); ++k) {
        out.f[k] = roundFloat(std::fma(at(a.f, k), at(b.f, k), at(c.f, k)), e);
    }
}

/// High 64 bits of the 128-bit product x·y (schoolbook on 32-bit halves).
uint64_t mulHi64(uint64_t x, uint64_t y)
{
    uint64_t xl = x & 0xffffffffu, xh = x >> 32, yl = y & 0xffffffffu, yh = y >> 32;
    uint64_t ll = xl * yl, lh = xl * yh, hl = xh * yl, hh = xh * yh;
    uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
    return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}

void evalUMulHi(Context& ctx, const ir::Op& op)
{
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    int width = ir::bitWidth(e);
    for (size_t k = 0; k < out.i.size(); ++k) {
        auto x = static_cast<uint64_t>(a.i[a.i.size() == 1 ? 0 : k]);
        auto y = static_cast<uint64_t>(b.i[b.i.size() == 1 ? 0 : k]);
        uint64_t hi = 0;
        if (width == 64) {
            hi = mulHi64(x, y);
        } else {
            uint64_t mask = (uint64_t{1} << width) - 1;
            hi = ((x & mask) * (y & mask)) >> width;
        }
        out.i[k] = wrapInt(static_cast<int64_t>(hi), e);
    }
}

/// Pointer lanes of `a` re-expressed in units of the result's pointee (same byte address).
void castPointer(Context& ctx, const ir::Op& op)
{
    int from = ir::elemBytes(ctx.type(op.operands[0]).pointee);
    const ir::Type& rt = ctx.type(op.results[0]);
    int to = ir::elemBytes(op.toType.elem == Elem::Ptr ? op.toType.pointee : rt.pointee);
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    for (size_t k = 0; k < out.i.size(); ++k) {
        size_t s = a.i.size() == 1 ? 0 : k;
        int64_t bytes = a.i[s] * from;
        out.i[k] = bytes >= 0 ? bytes / to : -((-bytes + to - 1) / to);
        out.buf[k] = a.buf[s];
    }
}

void evalCast(Context& ctx, const ir::Op& op)
{
    const ir::Type& at = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    if (at.isPtr() && rt.isPtr()) {
        castPointer(ctx, op);
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    bool rtz = !op.ints.empty() && op.ints[0] == 1;
    bool fromFloat = ir::isFloat(at.elem);
    bool toFloat = ir::isFloat(rt.elem);
    auto n = static_cast<size_t>(rt.numel());
    size_t na = fromFloat ? a.f.size() : a.i.size();
    for (size_t k = 0; k < n; ++k) {
        size_t s = na == 1 ? 0 : k;
        int64_t oi = 0;
        double of = 0;
        castLane(fromFloat ? 0 : a.i[s], fromFloat ? a.f[s] : 0.0, at.elem, rt.elem, rtz, oi, of);
        if (toFloat) {
            out.f[k] = of;
        } else {
            out.i[k] = oi;
        }
    }
}

void evalBitcast(Context& ctx, const ir::Op& op)
{
    const ir::Type& at = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    if (at.isPtr() && rt.isPtr()) {
        castPointer(ctx, op);
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    int width = ir::bitWidth(at.elem);
    uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    auto n = static_cast<size_t>(rt.numel());
    for (size_t k = 0; k < n; ++k) {
        uint64_t bits = ir::isFloat(at.elem) ? floatBits(a.f[a.f.size() == 1 ? 0 : k], at.elem)
                                             : static_cast<uint64_t>(a.i[a.i.size() == 1 ? 0 : k]) & mask;
        if (ir::isFloat(rt.elem)) {
            out.f[k] = floatFromBits(bits, rt.elem);
        } else {
            out.i[k] = wrapInt(static_cast<int64_t>(bits), rt.elem);
        }
    }
}

void evalPtrToInt(Context& ctx, const ir::Op& op)
{
    int bytes = ir::elemBytes(ctx.type(op.operands[0]).pointee);
    Elem e = ctx.type(op.results[0]).elem;
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    for (size_t k = 0; k < out.i.size(); ++k) {
        size_t s = a.i.size() == 1 ? 0 : k;
        int32_t b = a.buf[s];
        auto base = b >= 0 ? static_cast<int64_t>(reinterpret_cast<uintptr_t>(ctx.buffers[static_cast<size_t>(b)].data))
                           : int64_t{0};
        out.i[k] = wrapInt(base + a.i[s] * bytes, e);
    }
}

void evalIntToPtr(Context& ctx, const ir::Op& op)
{
    int bytes = ir::elemBytes(ctx.type(op.results[0]).pointee);
    Tile& out = prepare(ctx, op.results[0]);
    const Tile& a = ctx.tile(op.operands[0]);
    for (size_t k = 0; k < out.i.size(); ++k) {
        int64_t addr = a.i[a.i.size() == 1 ? 0 : k];
        out.buf[k] = -1;
        out.i[k] = addr / bytes;
        for (size_t b = 0; b < ctx.buffers.size(); ++b) {
            auto base = static_cast<int64_t>(reinterpret_cast<uintptr_t>(ctx.buffers[b].data));
            int64_t size = ctx.buffers[b].elements * ir::elemBytes(ctx.buffers[b].elem);
            if (addr >= base && addr <= base + size) {
                out.buf[k] = static_cast<int32_t>(b);
                out.i[k] = (addr - base) / bytes;
                break;
            }
        }
    }
}

} // namespace

void evalConvert(Context& ctx, const ir::Op& op)
{
    switch (op.kind) {
    case OpKind::Fma:
        evalFma(ctx, op);
        return;
    case OpKind::UMulHi:
        evalUMulHi(ctx, op);
        return;
    case OpKind::Cast:
        evalCast(ctx, op);
        return;
    case OpKind::Bitcast:
        evalBitcast(ctx, op);
        return;
    case OpKind::PtrToInt:
        evalPtrToInt(ctx, op);
        return;
    case OpKind::IntToPtr:
        evalIntToPtr(ctx, op);
        return;
    default:
        evalMath(ctx, op);
        return;
    }
}

} // namespace tkm::triton::interp::detail
