#include "engine/triton/check/types.h"

namespace tkm::triton::sema {

using ir::Elem;

int elemKind(Elem e)
{
    if (e == Elem::I1) {
        return 0;
    }
    return ir::isFloat(e) ? 2 : 1;
}

bool isSignedInt(Elem e)
{
    return e == Elem::I1 || e == Elem::I8 || e == Elem::I16 || e == Elem::I32 || e == Elem::I64;
}

bool isUnsignedInt(Elem e)
{
    return e == Elem::U8 || e == Elem::U16 || e == Elem::U32 || e == Elem::U64;
}

int mantissaWidth(Elem e)
{
    switch (e) {
    case Elem::F16:
        return 10;
    case Elem::BF16:
        return 7;
    case Elem::F32:
        return 23;
    case Elem::F64:
        return 52;
    default:
        return 0;
    }
}

Elem integerPromote(Elem a, Elem b)
{
    int ra = ir::bitWidth(a);
    int rb = ir::bitWidth(b);
    bool ua = isUnsignedInt(a);
    bool ub = isUnsignedInt(b);
    if (ua == ub) {
        return ra > rb ? a : b;
    }
    if (ua) {
        return ra >= rb ? a : b;
    }
    return rb >= ra ? b : a;
}

Elem computationType(Elem a, bool aScalar, Elem b, bool bScalar, bool divOrMod, PromoteError& err)
{
    err = PromoteError::None;
    // A Python scalar of a lower or equal kind does not take part in the promotion (PyTorch-like).
    if (aScalar != bScalar) {
        Elem scalar = aScalar ? a : b;
        Elem tensor = aScalar ? b : a;
        if (elemKind(scalar) <= elemKind(tensor)) {
            if (divOrMod && (tensor == Elem::F16 || tensor == Elem::BF16)) {
                return Elem::F32;
            }
            return tensor;
        }
    }
    if (a == Elem::F64 || b == Elem::F64) {
        return Elem::F64;
    }
    if (a == Elem::F32 || b == Elem::F32) {
        return Elem::F32;
    }
    if (a == Elem::F16 || b == Elem::F16) {
        return divOrMod ? Elem::F32 : Elem::F16;
    }
    if (a == Elem::BF16 || b == Elem::BF16) {
        if (divOrMod) {
            return Elem::F32;
        }
        return a == Elem::BF16 && b == Elem::BF16 ? Elem::BF16 : Elem::F32;
    }
    if (!ir::isInt(a) || !ir::isInt(b)) {
        err = PromoteError::NotArithmetic;
        return a;
    }
    if (divOrMod && isUnsignedInt(a) != isUnsignedInt(b)) {
        err = PromoteError::Signedness;
        return a;
    }
    return integerPromote(a, b);
}

std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                                    size_t& badAxis)
{
    size_t n = std::max(a.size(), b.size());
    std::vector<int64_t> out(n);
    for (size_t i = 0; i < n; ++i) {
        // Align at the right, as numpy and Triton's broadcast_impl_value (which prepends axes) do.
        int64_t da = i + a.size() >= n ? a[i + a.size() - n] : 1;
        int64_t db = i + b.size() >= n ? b[i + b.size() - n] : 1;
        if (da != db && da != 1 && db != 1) {
            badAxis = i;
            return std::nullopt;
        }
        out[i] = da == 1 ? db : da;
    }
    return out;
}

} // namespace tkm::triton::sema
