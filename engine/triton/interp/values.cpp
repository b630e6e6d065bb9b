// Scalar conversions of the interpreter: integer wrapping, float rounding to fp32/fp16/bf16 as the GPU rounds,
// PTX-like float → int saturation, raw bits, and the text of a lane for device_print.
#include "engine/triton/interp/detail.h"

#include <Eigen/Core>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace tkm::triton::interp::detail {

using ir::Elem;

int64_t wrapInt(int64_t v, Elem e)
{
    switch (e) {
    case Elem::I1:
        return v & 1;
    case Elem::I8:
        return static_cast<int8_t>(v);
    case Elem::I16:
        return static_cast<int16_t>(v);
    case Elem::I32:
        return static_cast<int32_t>(v);
    case Elem::U8:
        return static_cast<uint8_t>(v);
    case Elem::U16:
        return static_cast<uint16_t>(v);
    case Elem::U32:
        return static_cast<uint32_t>(v);
    default:
        return v;
    }
}

namespace {

/// `v` as a float rounded to odd (truncated, lowest bit set when inexact): rounding that float to a narrower
/// type then gives the correctly rounded result of `v` (no double-rounding error).
float roundToOddFloat(double v)
{
    float f = static_cast<float>(v);
    if (!std::isfinite(v) || static_cast<double>(f) == v) {
        return f;
    }
    uint32_t bits = std::bit_cast<uint32_t>(f);
    if (std::fabs(static_cast<double>(f)) > std::fabs(v)) {
        --bits; // one ulp toward zero (also turns an overflowed inf into the largest finite float)
    }
    return std::bit_cast<float>(bits | 1u);
}

/// `v` truncated toward zero to a float.
float truncFloat(double v)
{
    float f = static_cast<float>(v);
    if (std::isfinite(v) && std::fabs(static_cast<double>(f)) > std::fabs(v)) {
        f = std::bit_cast<float>(std::bit_cast<uint32_t>(f) - 1u);
    }
    return f;
}

template <class H> double halfRtz(float f)
{
    H h(f);
    if (std::isfinite(f) && std::fabs(static_cast<float>(h)) > std::fabs(f)) {
        h = Eigen::numext::bit_cast<H>(static_cast<uint16_t>(Eigen::numext::bit_cast<uint16_t>(h) - 1u));
    }
    return static_cast<float>(h);
}

} // namespace

double roundFloat(double v, Elem e)
{
    switch (e) {
    case Elem::F32:
        return static_cast<float>(v);
    case Elem::F16:
        return static_cast<float>(Eigen::half(roundToOddFloat(v)));
    case Elem::BF16:
        return static_cast<float>(Eigen::bfloat16(roundToOddFloat(v)));
    default:
        return v;
    }
}

double roundFloatTowardZero(double v, Elem e)
{
    switch (e) {
    case Elem::F32:
        return truncFloat(v);
    case Elem::F16:
        return halfRtz<Eigen::half>(truncFloat(v));
    case Elem::BF16:
        return halfRtz<Eigen::bfloat16>(truncFloat(v));
    default:
        return v;
    }
}

uint64_t floatBits(double v, Elem e)
{
    switch (e) {
    case Elem::F32:
        return std::bit_cast<uint32_t>(static_cast<float>(v));
    case Elem::F16:
        return Eigen::numext::bit_cast<uint16_t>(Eigen::half(static_cast<float>(v)));
    case Elem::BF16:
        return Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(static_cast<float>(v)));
    default:
        return std::bit_cast<uint64_t>(v);
    }
}

double floatFromBits(uint64_t bits, Elem e)
{
    switch (e) {
    case Elem::F32:
        return std::bit_cast<float>(static_cast<uint32_t>(bits));
    case Elem::F16:
        return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(static_cast<uint16_t>(bits)));
    case Elem::BF16:
        return static_cast<float>(Eigen::numext::bit_cast<Eigen::bfloat16>(static_cast<uint16_t>(bits)));
    default:
        return std::bit_cast<double>(bits);
    }
}

double intToDouble(int64_t v, Elem from)
{
    return from == Elem::U64 ? static_cast<double>(static_cast<uint64_t>(v)) : static_cast<double>(v);
}

namespace {

/// Float → int as PTX cvt.rzi.sat: truncate toward zero, NaN → 0, clamp to the type's range.
int64_t floatToInt(double v, Elem to)
{
    if (std::isnan(v)) {
        return 0;
    }
    double t = std::trunc(v);
    if (to == Elem::U64) {
        if (t <= 0) {
            return 0;
        }
        return t >= 18446744073709551616.0 ? -1 : static_cast<int64_t>(static_cast<uint64_t>(t));
    }
    if (to == Elem::I64) {
        if (t >= 9223372036854775808.0) {
            return std::numeric_limits<int64_t>::max();
        }
        return t < -9223372036854775808.0 ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(t);
    }
    int bits = ir::bitWidth(to);
    double lo = ir::isUnsigned(to) ? 0.0 : -std::ldexp(1.0, bits - 1);
    double hi = ir::isUnsigned(to) ? std::ldexp(1.0, bits) - 1 : std::ldexp(1.0, bits - 1) - 1;
    return static_cast<int64_t>(std::clamp(t, lo, hi));
}

/// Int → float rounded to nearest even (fp16/bf16 through a double: 53 bits make that second rounding exact
/// for every int fp16 can hold, and beyond that both overflow or keep only 8/11 bits).
double intToFloat(int64_t v, Elem from, Elem to)
{
    bool u = from == Elem::U64;
    switch (to) {
    case Elem::F64:
        return u ? static_cast<double>(static_cast<uint64_t>(v)) : static_cast<double>(v);
    case Elem::F32:
        return u ? static_cast<float>(static_cast<uint64_t>(v)) : static_cast<float>(v);
    default:
        return roundFloat(intToDouble(v, from), to);
    }
}

} // namespace

void castLane(int64_t iv, double fv, Elem from, Elem to, bool towardZero, int64_t& oi, double& of)
{
    bool fromFloat = ir::isFloat(from);
    if (to == Elem::I1) {
        oi = fromFloat ? (fv != 0.0 ? 1 : 0) : (iv != 0 ? 1 : 0);
    } else if (ir::isFloat(to)) {
        if (fromFloat) {
            of = towardZero ? roundFloatTowardZero(fv, to) : roundFloat(fv, to);
        } else {
            of = intToFloat(iv, from, to);
        }
    } else if (fromFloat) {
        oi = floatToInt(fv, to);
    } else {
        oi = wrapInt(iv, to);
    }
}

Tile& prepare(Context& ctx, ir::ValueId v)
{
    const ir::Type& t = ctx.type(v);
    Tile& out = ctx.tile(v);
    auto n = static_cast<size_t>(t.numel());
    if (ir::isFloat(t.elem)) {
        out.f.resize(n);
    } else {
        out.i.resize(n);
        if (t.isPtr()) {
            out.buf.resize(n);
        }
    }
    return out;
}

std::string laneText(const Tile& t, int64_t lane, const ir::Type& type, bool hex)
{
    auto l = static_cast<size_t>(lane);
    char text[64];
    if (type.isPtr()) {
        return "buffer " + std::to_string(t.buf[l]) + " + " + std::to_string(t.i[l]);
    }
    if (hex) {
        uint64_t bits = ir::isFloat(type.elem) ? floatBits(t.f[l], type.elem) : static_cast<uint64_t>(t.i[l]);
        int w = ir::bitWidth(type.elem);
        if (w < 64) {
            bits &= (uint64_t{1} << w) - 1;
        }
        auto r = std::to_chars(text, text + sizeof text, bits, 16);
        std::string digits(text, r.ptr);
        size_t width = static_cast<size_t>(std::max(1, w / 4));
        return "0x" + std::string(digits.size() < width ? width - digits.size() : 0, '0') + digits;
    }
    std::to_chars_result r{};
    if (type.elem == Elem::F64) {
        r = std::to_chars(text, text + sizeof text, t.f[l]);
    } else if (ir::isFloat(type.elem)) {
        r = std::to_chars(text, text + sizeof text, static_cast<float>(t.f[l]));
    } else if (type.elem == Elem::U64) {
        r = std::to_chars(text, text + sizeof text, static_cast<uint64_t>(t.i[l]));
    } else {
        r = std::to_chars(text, text + sizeof text, t.i[l]);
    }
    return std::string(text, r.ptr);
}

} // namespace tkm::triton::interp::detail
