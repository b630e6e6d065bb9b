#pragma once
// The tile IR: what the checker (check/) makes of one kernel specialised for one set of constexpr values, and
// what the CPU interpreter (interp/) runs and the CUDA lowering (part 2) emits from. It sits where Triton's `tt`
// dialect sits after code_generator.py: jit helpers are inlined, constexpr `if`s folded, `tl.static_range`
// unrolled, block pointers and tuples flattened into their scalar/tile parts, and every value has a static
// type — an element type and a shape (empty shape = scalar). Control flow stays structured (For / While / If
// with regions and yielded values, like MLIR's scf), so the lowering can keep loop-carried tiles in registers.
//
// Values are SSA: each op defines its results (Op::results) once; an operand is a ValueId. Regions hold ops
// in order; a region's arguments are values defined on entry (loop induction variable, loop-carried values).
// Every op keeps the source range of the Triton expression it came from, so a fault, a print or a generated
// CUDA line maps back to the learner's line.
//
// Semantics of each op are Triton 3.6's (python/triton/language/semantic.py; the interpreter,
// python/triton/runtime/interpreter.py, is the executable spec): integer `//` and `%` truncate toward zero as
// in C (the checker lowers Python's floor semantics only where Triton does: never for tensors), shifts are
// arithmetic for signed types, comparisons give i1, float → int casts truncate toward zero.

#include "engine/triton/diag/diagnostic.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tkm::triton::ir {

/// Element types (Triton's scalar types). Ptr is a pointer whose pointee is Type::pointee.
enum class Elem { I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64, Ptr };

/// Triton's name: "int1", "int32", "uint8", "fp16", "bf16", "fp32", "fp64", "pointer".
const char* elemName(Elem e);
/// Size [bytes] of one element in memory (I1: 1, Ptr: 8).
int elemBytes(Elem e);
/// F16, BF16, F32, F64.
bool isFloat(Elem e);
/// I1 … U64.
bool isInt(Elem e);
/// U8 … U64 (and I1, which Triton treats as unsigned).
bool isUnsigned(Elem e);
/// Bit width (I1: 1, Ptr: 64).
int bitWidth(Elem e);

/// A value's type: element type, shape (empty: scalar; else a tile, every extent a power of two ≥ 1 as
/// Triton requires of tensor shapes), and for pointers the pointee element type.
struct Type
{
    Elem elem = Elem::I32;    ///< element type
    std::vector<int64_t> shape; ///< tile extents, outermost first; empty for a scalar
    Elem pointee = Elem::F32; ///< Ptr: the element type pointed to (never Ptr: no pointer-to-pointer)

    bool isScalar() const { return shape.empty(); } ///< no shape
    bool isPtr() const { return elem == Elem::Ptr; } ///< pointer or pointer tile
    int64_t numel() const;                          ///< product of the shape (1 for a scalar)
    bool operator==(const Type& o) const;           ///< same elem, shape and (for Ptr) pointee
    /// Triton's spelling: "fp32", "pointer<fp16>", "<128xfp32>", "<32x64xpointer<fp32>>".
    std::string str() const;
};

/// Index of a value within its Function (Function::values).
using ValueId = int32_t;
inline constexpr ValueId kNoValue = -1;

/// Operations. Operand conventions are given per op: `a`, `b`, `c` are operands[0..2]; attributes are in
/// Op::ints / Op::floats / Op::text / Op::toType as named.
enum class OpKind {
    // --- values and indices ---
    Constant,    ///< scalar or splat tile: floats[0] (float types) or ints[0] (integer types, I1: 0/1)
    ProgramId,   ///< i32 scalar: ints[0] = axis 0..2
    NumPrograms, ///< i32 scalar: ints[0] = axis
    Arange,      ///< i32 1-D tile [ints[0], ints[1]) (end − start a power of two)
    Splat,       ///< scalar a → tile of the result shape
    Broadcast,   ///< tile a → result shape (numpy rules: extents of 1 stretched; ranks already equal)
    ExpandDims,  ///< a with a new extent-1 axis at ints[0]
    Reshape,     ///< a to the result shape (same numel, row-major order kept; ints[0] = 1 if can_reorder)
    Trans,       ///< a permuted: ints = the permutation (result dim i = operand dim ints[i])
    Join,        ///< tl.join(a, b): new last axis of extent 2
    Cat,         ///< tl.cat(a, b) along axis 0 (can_reorder)
    // --- elementwise arithmetic (operands have the result's shape after broadcasting; types already promoted) ---
    Add, Sub, Mul,
    Div,         ///< floats: true division (fp32 correctly rounded as `div.rn`; ints: truncating)
    Rem,         ///< ints: C remainder (sign of the dividend); floats: fmod
    FloorDiv,    ///< ints: floor division (scalar Python ints folded by the checker only); kept for constexpr
    Neg,         ///< -a
    And, Or, Xor,///< bitwise (I1: logical)
    Not,         ///< bitwise invert `~a` (I1: logical not)
    Shl, Shr,    ///< shifts (Shr arithmetic for signed, logical for unsigned)
    Min, Max,    ///< tl.minimum / tl.maximum; ints[0] = propagate_nan (0: NONE — returns the non-NaN, 1: ALL)
    Eq, Ne, Lt, Le, Gt, Ge, ///< comparisons → I1 (signedness from the operand type; floats ordered, Ne unordered)
    Select,      ///< tl.where(a: I1, b, c)
    AddPtr,      ///< pointer a + integer offset b (in elements of the pointee)
    // --- math (floats) ---
    Exp, Exp2, Log, Log2, Sqrt, Rsqrt, Abs, Floor, Ceil, Sin, Cos, Erf, Tanh, Sigmoid,
    Fma,         ///< a·b + c with one rounding
    UMulHi,      ///< tl.umulhi
    // --- conversions ---
    Cast,        ///< a converted to toType.elem (ints[0] = fp_downcast_rounding: 0 rtne, 1 rtz)
    Bitcast,     ///< a reinterpreted as toType.elem (same bit width)
    PtrToInt,    ///< a pointer as an i64 address (for `ptr.to(tl.int64)`-style tricks; rare)
    IntToPtr,    ///< i64 address → pointer (pointee in the result type)
    // --- memory ---
    Load,        ///< a: pointer (scalar or tile); b: mask (I1, same shape) or kNoValue; c: other (same shape,
                 ///< already cast to the pointee) or kNoValue (then masked-off lanes read 0 as Triton's
                 ///< interpreter does: undefined on the GPU). ints[0] = 1 if the learner wrote `mask=`
    Store,       ///< a: pointer; b: value (cast to the pointee); c: mask or kNoValue. No result
    AtomicRMW,   ///< a: pointer; b: value; c: mask or kNoValue; text = "add"|"max"|"min"|"and"|"or"|"xor"|"xchg";
                 ///< result: the old values
    AtomicCAS,   ///< a: pointer; b: compare; c: new value; result: the old values
    // --- reductions and scans ---
    Reduce,      ///< a reduced along ints[0]; ints[1] = keep_dims; text = "sum"|"max"|"min"|"xor_sum"|"argmax"|
                 ///< "argmin"|"and"|"or"; argmax/argmin give I32 indices (ints[2] = tie_break_left)
    Scan,        ///< cumulative along ints[0]; text = "sum"|"prod"|"max"|"min"; ints[1] = reverse
    // --- dot ---
    Dot,         ///< a [M,K] · b [K,N] (+ c [M,N] acc, or kNoValue); text = input_precision "tf32"|"tf32x3"|"ieee";
                 ///< result elem = out dtype (fp32 accumulation for fp16/bf16/fp32 inputs, i32 for i8)
    // --- debugging ---
    Print,       ///< tl.device_print(text, operands…): ints[0] = 1 for hex
    Assert,      ///< tl.device_assert(a, text): a false element is a fault with the message
    // --- structured control flow ---
    For,         ///< operands: lower, upper, step (i32 or i64 scalars), then the initial loop-carried values;
                 ///< regions[0] args: induction variable, then the carried values; it ends in Yield of the
                 ///< next carried values; results: the final carried values. ints[0] = 1 if unrolled-able hint
    While,       ///< operands: initial carried values; regions[0] (before) args = carried, ends in Condition;
                 ///< regions[1] (after) args = Condition's forwarded values, ends in Yield; results: final values
    If,          ///< a: I1 scalar condition; regions[0] then, regions[1] else (may be empty); each ends in Yield
                 ///< of the results (none when the If has no results)
    Yield,       ///< operands: the values leaving the region
    Condition,   ///< a: I1 scalar; operands[1..]: values forwarded to the after-region (and to the results)
    Break,       ///< leave the innermost For/While (only where the checker can prove it legal: refused in 3.6)
};

/// Name of an op for the IR dump ("tt.load", "arith.addf"-like short names: "load", "add").
const char* opName(OpKind k);

struct Region;

/// One operation.
struct Op
{
    OpKind kind = OpKind::Constant;
    std::vector<ValueId> operands;         ///< see OpKind
    std::vector<ValueId> results;          ///< values this op defines (0 or 1, except For/While/If: any)
    std::vector<int64_t> ints;             ///< integer attributes (see OpKind)
    std::vector<double> floats;            ///< float attributes (Constant)
    std::string text;                      ///< string attribute (reduce kind, atomic kind, print prefix, …)
    Type toType;                           ///< Cast/Bitcast/IntToPtr target
    std::vector<std::unique_ptr<Region>> regions; ///< For: 1, While: 2, If: 2
    SourceRange range;                     ///< the Triton expression or statement it came from
};

/// An ordered list of ops with entry arguments.
struct Region
{
    std::vector<ValueId> args; ///< values defined on entry
    std::vector<Op> ops;       ///< in order; For/While/If regions end in Yield or Condition
};

/// How a kernel parameter is passed.
enum class ParamKind { Pointer, Scalar };

/// A runtime parameter of the kernel (constexpr parameters are folded and do not appear).
struct KernelParam
{
    std::string name;   ///< as in the signature
    ParamKind kind = ParamKind::Pointer;
    Type type;          ///< Ptr with pointee for pointers; scalar type (i32/i64/fp32/…) otherwise
    ValueId value = kNoValue; ///< the value it defines in the body
    int specIndex = -1; ///< index among the exercise's params it binds to (set by the binding)
    bool divisibleBy16 = false; ///< Triton's specialisation (jit.py): int divisible by 16 / pointer 16-B aligned
    bool equalsOne = false;     ///< Triton folds an int parameter equal to 1 to a constant
};

/// Description of one value (the type; where it was defined, for messages).
struct ValueInfo
{
    Type type;          ///< static type
    std::string name;   ///< the Python name it was first bound to, if any (for dumps and messages)
    SourceRange range;  ///< where it was defined
};

/// One kernel specialised for one set of constexpr values.
struct Function
{
    std::string name;                 ///< the entry's name
    std::vector<KernelParam> params;  ///< runtime parameters in signature order
    std::vector<ValueInfo> values;    ///< every value, indexed by ValueId
    Region body;                      ///< the kernel body (ends without Yield; a `return` ends the program)
    int numWarps = 4;                 ///< num_warps (spec meta NUM_WARPS or autotune config)
    int numStages = 3;                ///< num_stages
    std::vector<std::pair<std::string, std::string>> constexprs; ///< the constexpr values it was made for, as text

    /// Adds a value of type `t` and returns its id.
    ValueId addValue(Type t, std::string name = {}, SourceRange range = {});
    /// The type of value `v`.
    const Type& typeOf(ValueId v) const { return values[static_cast<size_t>(v)].type; }
};

/// Text form of the function, one op per line with types, for tests and `tkm-run compile --dump-ir`:
///   %3 = arange 0, 1024 : <1024xint32>            # line 6
std::string dump(const Function& f);

} // namespace tkm::triton::ir
