#pragma once
// The table of the checker's diagnostic texts, in the manner of Clang's Diagnostic*.td: one row per
// diagnostic with its stable code, severity and text. `{0}`, `{1}`, … are replaced by the arguments.

#include "engine/triton/diag/diagnostic.h"

#include <string>
#include <vector>

namespace tkm::triton::sema {

// X(id, severity, code, text)
#define TKM_CHECK_DIAGNOSTICS(X)                                                                                       \
    X(EntryNotFound, Error, "entry-not-found", "no @triton.jit function named `{0}` in the file{1}")                   \
    X(EntryNotJit, Error, "entry-not-jit", "`{0}` is not decorated with @triton.jit")                                  \
    X(ParamCount, Error, "param-count", "`{0}` has {1} runtime parameter(s) but the exercise passes {2}: {3}")         \
    X(ConstexprMissing, Error, "constexpr-missing",                                                                    \
      "no value for the constexpr parameter `{0}`: give it in the exercise's meta or as a default (`{0}: "             \
      "tl.constexpr = …`)")                                                                                            \
    X(UndefinedName, Error, "undefined-name", "name `{0}` is not defined{1}")                                          \
    X(NameNotVisible, Error, "name-not-visible", "`{0}` is not defined here: {1}")                                     \
    X(GlobalNotConstexpr, Error, "global-not-constexpr",                                                               \
      "the global `{0}` is not a constexpr: Triton kernels only read globals made with tl.constexpr (`{0} = "          \
      "tl.constexpr(…)` or `{0}: tl.constexpr = …`)")                                                                  \
    X(UnknownTl, Error, "unknown-tl", "`{0}` is not a function of {1}{2}")                                             \
    X(UnknownAttr, Error, "unknown-attr", "{0} has no attribute `{1}`{2}")                                             \
    X(NotCallable, Error, "not-callable", "{0} is not callable")                                                       \
    X(NonJitCall, Error, "non-jit-call",                                                                               \
      "`{0}` is a plain Python function: a kernel can only call @triton.jit functions; decorate it with "              \
      "@triton.jit")                                                                                                   \
    X(JitArity, Error, "jit-arity", "`{0}` takes {1} argument(s) but {2} were given")                                  \
    X(JitMissingArg, Error, "jit-missing-arg", "`{0}` is missing its argument `{1}`")                                  \
    X(JitUnknownKeyword, Error, "jit-unknown-keyword", "`{0}` has no parameter named `{1}`")                           \
    X(JitRecursion, Error, "jit-recursion", "`{0}` calls itself: recursion is not supported in Triton")                \
    X(BadKeyword, Error, "bad-keyword", "{0} does not accept the keyword `{1}`{2}")                                    \
    X(TooManyArgs, Error, "too-many-args", "{0} takes at most {1} positional argument(s) but {2} were given")          \
    X(MissingArg, Error, "missing-arg", "{0} is missing its argument `{1}`")                                           \
    X(NotConstexprParam, Error, "not-constexpr",                                                                       \
      "{0} is not a tl.constexpr: annotate it in the signature ({0}: tl.constexpr); if {0} is a size that "        \
      "changes between calls, keep it a runtime argument and give the tile a power-of-two constexpr instead "      \
      "(BLOCK: tl.constexpr, launched with triton.next_power_of_2({0})), masking the lanes at or past {0}")       \
    X(NotConstexprLocal, Error, "not-constexpr",                                                                       \
      "`{0}` is not a tl.constexpr: a plain assignment makes a tensor in Triton; write `{0}: tl.constexpr = …`")       \
    X(NotConstexpr, Error, "not-constexpr", "{0} must be a tl.constexpr, but `{1}` is a runtime value ({2})")          \
    X(ExpectedInt, Error, "expected-int", "{0} must be an int, got {1}")                                               \
    X(ExpectedTensor, Error, "expected-tensor", "{0} must be a tensor, got {1}")                                       \
    X(ExpectedDType, Error, "expected-dtype", "{0} must be a dtype such as tl.float32, got {1}")                       \
    X(ArangeNotPow2, Error, "arange-not-pow2",                                                                         \
      "{0} is not a power of two: use {1} (triton.next_power_of_2({0})) and mask the extra lanes")                     \
    X(ArangeRange, Error, "arange-range", "tl.arange({0}, {1}) is empty: end must be greater than start")              \
    X(TooManyElements, Error, "tile-too-large",                                                                        \
      "a tile of {0} elements is too large: Triton allows at most 1048576 (2**20) elements per tensor")                \
    X(ShapeNotPow2, Error, "shape-not-pow2",                                                                           \
      "the shape {0} has an extent {1} that is not a power of two: Triton tensors need power-of-two extents; "         \
      "use {2} and mask the extra lanes")                                                                              \
    X(ShapeNotConstexpr, Error, "shape-not-constexpr",                                                                 \
      "the shape of {0} must be made of tl.constexpr ints, but `{1}` is a runtime value")                              \
    X(Broadcast, Error, "broadcast", "cannot broadcast `{0}` {1} with `{2}` {3}: {4}")                                 \
    X(ShapeNote, Note, "note", "`{0}` got its shape {1} here")                                                         \
    X(AndPrecedence, Error, "and-precedence", "`{0}` binds tighter than `{1}` in Python: write `{2}`")                 \
    X(BoolOpChain, Error, "boolop-chain",                                                                              \
      "chained boolean operators (A {0} B {0} C) are not supported on tensors; use parentheses to split the "          \
      "chain")                                                                                                         \
    X(BoolOpTensor, Error, "boolop-tensor",                                                                            \
      "`{0}` on a tile is ambiguous in Python; for an elementwise {0}, write `{1}` with parentheses around each "      \
      "comparison")                                                                                                    \
    X(OperandTypes, Error, "operand-types", "unsupported operand types for `{0}`: {1} and {2}{3}")                     \
    X(PtrMinusPtr, Error, "ptr-minus-ptr",                                                                             \
      "cannot subtract two pointers in Triton: subtract the integer offsets instead")                                  \
    X(PtrFloat, Error, "ptr-float",                                                                                    \
      "cannot add {0} to a pointer: pointer offsets must be integers (use `.to(tl.int32)` on the offsets)")            \
    X(UnsignedNegative, Error, "unsigned-negative",                                                                    \
      "cannot combine an unsigned tensor ({0}) with the negative scalar {1}: cast one of them explicitly")             \
    X(DivSignedness, Error, "div-signedness",                                                                          \
      "cannot use `{0}` with {1} and {2} because they have different signedness: cast them to the same "               \
      "signedness")                                                                                                    \
    X(FloorDivFloat, Error, "floordiv-float",                                                                          \
      "`//` is only defined for integer tensors in Triton ({0} here): use tl.floor(a / b) for floats")                 \
    X(PowTensor, Error, "pow-tensor",                                                                                  \
      "`**` is not supported on tensors: multiply explicitly, or use tl.exp2(y * tl.log2(x))")                         \
    X(IntIndex, Error, "int-index",                                                                                    \
      "Triton 3.6 does not support integer indexing of tensors (`{0}`): to read one element, use "                     \
      "tl.sum(tl.where(offs == {1}, {2}, 0)) or load it from memory")                                                  \
    X(SliceIndex, Error, "slice-index",                                                                                \
      "only `:` and `None` may index a tensor (`{0}`); slicing with bounds is not supported in Triton 3.6")            \
    X(TooManyIndices, Error, "too-many-indices", "too many indices for `{0}` of shape {1}")                            \
    X(TupleIndex, Error, "tuple-index", "tuple index {0} is out of range for a tuple of {1}")                          \
    X(NotSubscriptable, Error, "not-subscriptable", "{0} cannot be indexed")                                           \
    X(AxisRange, Error, "axis-range", "axis {0} is out of range for `{1}` of shape {2} (rank {3}): use {4}")           \
    X(ScalarReduce, Error, "scalar-reduce", "cannot reduce the scalar `{0}`: {1} needs a tile")                        \
    X(MathDType, Error, "math-dtype",                                                                                  \
      "{0} accepts fp32 or fp64 only (as Triton's libdevice does), got {1}: write {0}({2}.to(tl.float32))")            \
    X(IntOnly, Error, "int-only", "{0} needs integer operands, got {1}")                                               \
    X(DotRank, Error, "dot-rank", "tl.dot needs 2-D (or 3-D batched) tiles, but `{0}` has shape {1}")                  \
    X(DotK, Error, "dot-k",                                                                                            \
      "tl.dot: the inner dimensions differ: `{0}` is {1} and `{2}` is {3} ({4} ≠ {5}); K must match")                  \
    X(DotDType, Error, "dot-dtype",                                                                                    \
      "tl.dot: both operands must have the same dtype, got {0} and {1}: cast one with `.to({2})`")                     \
    X(DotSmall, Error, "dot-small",                                                                                    \
      "tl.dot: {0} = {1} is smaller than 16: every dimension of a tl.dot must be at least 16 (pad the block to "       \
      "16 and mask)")                                                                                                  \
    X(DotAcc, Error, "dot-acc", "tl.dot: the accumulator has type {0} but the product is {1}")                         \
    X(DotPrecision, Error, "dot-precision",                                                                            \
      "tl.dot: input_precision must be \"tf32\", \"tf32x3\" or \"ieee\", got {0}")                                     \
    X(LoadNotPtr, Error, "not-pointer", "{0} needs a pointer, but `{1}` is {2}{3}")                                    \
    X(OtherWithoutMask, Error, "other-without-mask",                                                                   \
      "`other=` without `mask=`: Triton 3.6 only uses `other` for masked-off lanes; add mask=…")                       \
    X(MaskNotBool, Error, "mask-not-bool",                                                                             \
      "the mask must be a boolean (int1) tensor, got {0}: write a comparison such as `offsets < n`")                   \
    X(StoreShape, Error, "store-shape",                                                                                \
      "cannot store `{0}` {1} through `{2}` {3}: the value must broadcast to the pointer's shape")                     \
    X(MaskShape, Error, "mask-shape",                                                                                  \
      "{0} `{1}` {2} does not match the pointer block `{3}` {4}: Triton broadcasts it only to the same rank "          \
      "(extents of 1 are stretched); build it from the same offsets, e.g. with [:, None] / [None, :]")                 \
    X(ProgramIdAxis, Error, "program-id-axis", "{0}: axis must be 0, 1 or 2 (the grid has three dimensions), got {1}") \
    X(ReshapeNumel, Error, "reshape-numel", "cannot reshape `{0}` {1} to {2}: the number of elements differs")         \
    X(TransPerm, Error, "trans-perm", "tl.trans: {0} is not a permutation of the {1} axes of `{2}`")                   \
    X(BroadcastTo, Error, "broadcast-to", "cannot broadcast `{0}` {1} to {2}")                                         \
    X(BitcastWidth, Error, "bitcast-width", "cannot bitcast {0} to {1}: the bit widths differ")                        \
    X(StaticAssert, Error, "static-assert", "static assertion failed{0}")                                              \
    X(StaticAssertNotConst, Error, "static-assert-runtime",                                                            \
      "tl.static_assert needs a constexpr condition: use tl.device_assert for runtime values")                         \
    X(StaticRangeNotConst, Error, "not-constexpr",                                                                     \
      "tl.static_range needs constexpr bounds, but `{0}` is a runtime value: annotate it as tl.constexpr or use "      \
      "range(…)")                                                                                                      \
    X(RangeStepZero, Error, "range-step-zero", "the step of range() must not be zero")                                 \
    X(ForIter, Error, "for-iter",                                                                                      \
      "a kernel's `for` must iterate over range(…), tl.range(…) or tl.static_range(…), not {0}")                       \
    X(LoopCarriedType, Error, "loop-carried-type",                                                                     \
      "loop-carried variable `{0}` changes type from {1} to {2} in the loop body: a value carried across "             \
      "iterations must keep its dtype and shape; {3}")                                                                 \
    X(LoopCarriedKind, Error, "loop-carried-kind",                                                                     \
      "`{0}` is {1} before the loop but is reassigned in the loop body: only tensors can change across "               \
      "iterations; make it a tensor before the loop")                                                                  \
    X(IfTypeMismatch, Error, "if-type-mismatch",                                                                       \
      "`{0}` has type {1} in the `then` branch but {2} in the `else` branch: both branches must give it the "          \
      "same dtype and shape")                                                                                          \
    X(IfKindMismatch, Error, "if-kind-mismatch",                                                                       \
      "`{0}` is assigned {1} in one branch of a runtime `if` and {2} in the other: both must be tensors of the "       \
      "same type")                                                                                                     \
    X(CondNotScalar, Error, "cond-not-scalar",                                                                         \
      "the condition of {0} must be a scalar, but `{1}` is a tile {2}: reduce it first (e.g. tl.max(...) > 0)")        \
    X(ReturnInLoop, Error, "return-in-loop", "`return` inside a `for` or `while` loop is not supported in Triton")     \
    X(ReturnInIf, Error, "return-in-if",                                                                               \
      "`return` under a runtime `if` is only supported at the top level of a function, not nested in another "         \
      "runtime `if` or a constexpr `if`: assign the result and return once at the end")                                \
    X(ReturnMismatch, Error, "return-mismatch",                                                                        \
      "this function returns {0} on one path and {1} on the other: every return must give the same types")             \
    X(ReturnValueInKernel, Error, "return-value-kernel",                                                               \
      "a kernel cannot return a value: store the result with tl.store")                                                \
    X(Unsupported, Error, "unsupported", "{0} is not supported in a Triton kernel{1}")                                 \
    X(AssignTarget, Error, "assign-target", "cannot assign to {0}: {1}")                                               \
    X(UnpackCount, Error, "unpack-count", "cannot unpack {0} value(s) into {1} name(s)")                               \
    X(ConstexprAnnot, Error, "constexpr-annot", "`{0}: tl.constexpr` needs a constexpr value, but {1}")                \
    X(DeviceAssertFail, Error, "assert-failed", "assertion failed{0}")                                                 \
    X(BlockPtrArgs, Error, "block-ptr-args", "tl.make_block_ptr: {0}")                                                 \
    X(BoundaryCheck, Error, "boundary-check", "boundary_check={0}: {1}")                                               \
    X(PaddingOption, Error, "padding-option", "padding_option must be \"zero\" or \"nan\", got {0}")                   \
    X(BlockPtrMask, Error, "block-ptr-mask",                                                                           \
      "a load or store through a block pointer takes boundary_check=… instead of mask/other")                          \
    X(AtomicDType, Error, "atomic-dtype", "{0} does not support {1}")                                                  \
    X(WhereCond, Error, "where-cond", "the condition of tl.where must be a boolean (int1) tensor, got {0}")            \
    X(ConstexprOp, Error, "constexpr-op", "cannot apply `{0}` to {1} and {2}")                                         \
    X(ZeroDivision, Error, "zero-division", "division by zero in a constexpr expression")                              \
    X(Internal, Error, "internal", "internal checker error: {0}")                                                      \
    X(AdvanceUnused, Error, "advance-unused",                                                                          \
      "the result of tl.advance is dropped: a block pointer is a value, and tl.advance returns a moved copy while "   \
      "`{0}` stays where it was (Triton 3.6 refuses this too); assign it back: `{0} = tl.advance({0}, …)`")          \
    X(WarnOtherNotNeutral, Warning, "other-not-neutral",                                                               \
      "other={0} is not neutral for {1}: masked-off lanes would count as {0}{2}; use other={3}")                       \
    X(WarnMaskNoOther, Warning, "mask-no-other",                                                                       \
      "masked-off lanes of this load are undefined on the GPU and feed {0}: give other={1}")                           \
    X(WarnNoMask, Warning, "no-mask",                                                                                  \
      "this {0} has no mask, yet its offsets grow with tl.program_id and the kernel has a size argument `{1}`: "       \
      "the last program reads/writes past the end unless {1} is a multiple of the block; add mask=offsets < {1}")      \
    X(WarnMaskBroadcast, Warning, "mask-broadcast",                                                                    \
      "the mask {0} is broadcast to the {1} block along its leading axis: every row gets the same mask, so only "      \
      "columns are checked; if rows can run past the end, mask them too, e.g. mask=(rows[:, None] < M) & "             \
      "(cols[None, :] < N)")                                                                                           \
    X(WarnUnusedAssertMsg, Warning, "assert-python",                                                                   \
      "a Python `assert` on a runtime value is ignored by Triton unless debug mode is on: use tl.device_assert")

/// Identifiers of the checker's diagnostics.
enum class DiagId {
#define TKM_DIAG_ENUM(id, sev, code, text) id,
    TKM_CHECK_DIAGNOSTICS(TKM_DIAG_ENUM)
#undef TKM_DIAG_ENUM
};

/// The diagnostic `id` at `range` with `{N}` replaced by `args[N]`.
Diagnostic makeDiagnostic(DiagId id, SourceRange range, const std::vector<std::string>& args);

/// The text of `id` with its arguments (for notes).
std::string diagText(DiagId id, const std::vector<std::string>& args);

/// The closest of `candidates` to `name` by edit distance (≤ 2, or ≤ a third of the length), or "".
std::string closestName(const std::string& name, const std::vector<std::string>& candidates);

/// ": did you mean `x`?" when `closest` is non-empty, else "".
std::string didYouMean(const std::string& closest);

} // namespace tkm::triton::sema
