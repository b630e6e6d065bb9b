#pragma once
// Triton 3.6's type rules (python/triton/language/semantic.py): the kind ladder, computation_type_impl,
// integer_promote_impl and numpy broadcasting of shapes. Pure functions, no IR.

#include "engine/triton/ir/ir.h"

#include <optional>
#include <string>
#include <vector>

namespace tkm::triton::sema {

/// dtype.kind(): 0 BOOLEAN (int1), 1 INTEGRAL, 2 FLOATING.
int elemKind(ir::Elem e);
/// Signed as Triton's dtype sees it: int1 … int64 (int1 is named "int1", hence signed).
bool isSignedInt(ir::Elem e);
/// Unsigned: uint8 … uint64.
bool isUnsignedInt(ir::Elem e);
/// fp_mantissa_width: fp16 10, bf16 7, fp32 23, fp64 52.
int mantissaWidth(ir::Elem e);

/// integer_promote_impl: C's usual arithmetic conversions on Triton's int types.
ir::Elem integerPromote(ir::Elem a, ir::Elem b);

/// Why computationType failed.
enum class PromoteError { None, Signedness, NotArithmetic };

/// computation_type_impl(a, a_is_scalar, b, b_is_scalar, div_or_mod): the dtype both operands are cast to.
ir::Elem computationType(ir::Elem a, bool aScalar, ir::Elem b, bool bScalar, bool divOrMod, PromoteError& err);

/// numpy broadcasting of two shapes (ranks aligned at the right); nullopt with the first mismatching axis
/// (counted from the left of the longer shape) in `badAxis`.
std::optional<std::vector<int64_t>> broadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                                    size_t& badAxis);

} // namespace tkm::triton::sema
