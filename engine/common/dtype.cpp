#include "engine/common/dtype.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tkm::engine {
namespace {

struct DTypeInfo
{
    DType type;
    int64_t bytes;
    std::string_view name;
    std::string_view cuda;
};

constexpr DTypeInfo kInfo[] = {
    {DType::F16, 2, "f16", "__half"}, {DType::BF16, 2, "bf16", "__nv_bfloat16"},
    {DType::F32, 4, "f32", "float"},  {DType::F64, 8, "f64", "double"},
    {DType::I32, 4, "i32", "int"},    {DType::I64, 8, "i64", "long long"},
};

const DTypeInfo& info(DType t)
{
    return kInfo[static_cast<int>(t)];
}

// Rounds x to a binary format with `expBits` exponent and `mantBits` fraction bits, round to nearest even,
// straight from double (one rounding). Subnormals, overflow to inf and NaN are handled like IEEE 754.
uint16_t roundToSmallFloat(double x, int expBits, int mantBits)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const uint32_t expMask = (1u << expBits) - 1u;
    const uint16_t sign = std::signbit(x) ? static_cast<uint16_t>(1u << (expBits + mantBits)) : 0;
    if (std::isnan(x)) {
        // Quiet NaN: all-ones exponent, top fraction bit set.
        return static_cast<uint16_t>((expMask << mantBits) | (1u << (mantBits - 1)));
    }
    const double a = std::fabs(x);
    const uint16_t inf = static_cast<uint16_t>(sign | (expMask << mantBits));
    if (std::isinf(a)) {
        return inf;
    }
    if (a == 0) {
        return sign;
    }
    int e = 0;
    std::frexp(a, &e); // a = m·2^e, m in [0.5, 1): unbiased exponent E = e − 1
    const int exponent = e - 1;
    const int emin = 1 - bias;
    if (exponent > bias) {
        return inf;
    }
    const bool subnormal = exponent < emin;
    const int quantumExp = (subnormal ? emin : exponent) - mantBits;
    const double k = std::ldexp(a, -quantumExp);
    // Ties to even, independent of the current rounding mode.
    double r = std::floor(k);
    const double frac = k - r;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(r, 2.0) != 0.0)) {
        r += 1.0;
    }
    const auto ri = static_cast<uint32_t>(r);
    if (subnormal) {
        // ri == 2^mantBits is the smallest normal, which the same encoding gives.
        return static_cast<uint16_t>(sign | ri);
    }
    // ri in [2^mant, 2^(mant+1)]; a carry into the exponent (even up to inf) falls out of the addition.
    const uint32_t bits = (static_cast<uint32_t>(exponent + bias) << mantBits) + (ri - (1u << mantBits));
    return static_cast<uint16_t>(sign | bits);
}

double smallFloatToDouble(uint16_t bits, int expBits, int mantBits)
{
    const int bias = (1 << (expBits - 1)) - 1;
    const uint32_t expMask = (1u << expBits) - 1u;
    const bool negative = (bits >> (expBits + mantBits)) & 1u;
    const uint32_t exponent = (bits >> mantBits) & expMask;
    const uint32_t fraction = bits & ((1u << mantBits) - 1u);
    double v = 0;
    if (exponent == expMask) {
        v = fraction ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
    } else if (exponent == 0) {
        v = std::ldexp(static_cast<double>(fraction), 1 - bias - mantBits);
    } else {
        v = std::ldexp(static_cast<double>(fraction | (1u << mantBits)), static_cast<int>(exponent) - bias - mantBits);
    }
    return negative ? -v : v;
}

template <class I> I saturate(double x)
{
    if (std::isnan(x)) {
        return 0;
    }
    const double r = std::nearbyint(x);
    if (r <= static_cast<double>(std::numeric_limits<I>::min())) {
        return std::numeric_limits<I>::min();
    }
    if (r >= static_cast<double>(std::numeric_limits<I>::max())) {
        return std::numeric_limits<I>::max();
    }
    return static_cast<I>(r);
}

} // namespace

int64_t dtypeBytes(DType t)
{
    return info(t).bytes;
}

std::string_view dtypeName(DType t)
{
    return info(t).name;
}

std::string_view dtypeCudaType(DType t)
{
    return info(t).cuda;
}

std::optional<DType> parseDType(std::string_view name)
{
    for (const auto& i : kInfo) {
        if (i.name == name) {
            return i.type;
        }
    }
    return std::nullopt;
}

bool isFloating(DType t)
{
    return t == DType::F16 || t == DType::BF16 || t == DType::F32 || t == DType::F64;
}

DType referenceDType(DType t)
{
    return isFloating(t) ? DType::F64 : t;
}

uint16_t doubleToHalfBits(double x)
{
    return roundToSmallFloat(x, 5, 10);
}

uint16_t doubleToBf16Bits(double x)
{
    return roundToSmallFloat(x, 8, 7);
}

double halfBitsToDouble(uint16_t bits)
{
    return smallFloatToDouble(bits, 5, 10);
}

double bf16BitsToDouble(uint16_t bits)
{
    return smallFloatToDouble(bits, 8, 7);
}

void storeAs(DType t, double x, std::byte* dst)
{
    switch (t) {
    case DType::F16: {
        const uint16_t b = doubleToHalfBits(x);
        std::memcpy(dst, &b, 2);
        return;
    }
    case DType::BF16: {
        const uint16_t b = doubleToBf16Bits(x);
        std::memcpy(dst, &b, 2);
        return;
    }
    case DType::F32: {
        const auto f = static_cast<float>(x);
        std::memcpy(dst, &f, 4);
        return;
    }
    case DType::F64:
        std::memcpy(dst, &x, 8);
        return;
    case DType::I32: {
        const auto i = saturate<int32_t>(x);
        std::memcpy(dst, &i, 4);
        return;
    }
    case DType::I64: {
        const auto i = saturate<int64_t>(x);
        std::memcpy(dst, &i, 8);
        return;
    }
    }
}

double loadAs(DType t, const std::byte* src)
{
    switch (t) {
    case DType::F16:
    case DType::BF16: {
        uint16_t b = 0;
        std::memcpy(&b, src, 2);
        return t == DType::F16 ? halfBitsToDouble(b) : bf16BitsToDouble(b);
    }
    case DType::F32: {
        float f = 0;
        std::memcpy(&f, src, 4);
        return f;
    }
    case DType::F64: {
        double d = 0;
        std::memcpy(&d, src, 8);
        return d;
    }
    case DType::I32: {
        int32_t i = 0;
        std::memcpy(&i, src, 4);
        return i;
    }
    case DType::I64: {
        int64_t i = 0;
        std::memcpy(&i, src, 8);
        return static_cast<double>(i);
    }
    }
    return 0;
}

double roundToDType(DType t, double x)
{
    std::byte buf[8];
    storeAs(t, x, buf);
    return loadAs(t, buf);
}

uint64_t poisonBits(DType t)
{
    switch (t) {
    case DType::F16:
        return 0x7EADu;
    case DType::BF16:
        return 0x7FEDu;
    case DType::F32:
        return 0x7FC0DEADu;
    case DType::F64:
        return 0x7FF8DEADBEEFDEADull;
    case DType::I32:
        return 0x7EADBEEFu;
    case DType::I64:
        return 0x7EADBEEF7EADBEEFull;
    }
    return 0;
}

void fillPoison(DType t, std::byte* dst, int64_t elements)
{
    const uint64_t bits = poisonBits(t);
    const auto size = static_cast<std::size_t>(dtypeBytes(t));
    for (int64_t i = 0; i < elements; ++i) {
        std::memcpy(dst + static_cast<std::size_t>(i) * size, &bits, size); // little-endian host
    }
}

bool isPoison(DType t, const std::byte* src)
{
    uint64_t bits = 0;
    std::memcpy(&bits, src, static_cast<std::size_t>(dtypeBytes(t)));
    return bits == poisonBits(t);
}

} // namespace tkm::engine
