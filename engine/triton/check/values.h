#pragma once
// Abstract values of the checker: what a Python name holds while code_generator.py-style abstract
// interpretation walks a kernel. Constexprs (int, float, bool, str, None, dtype, tuples of them) are folded and
// never emitted unless used as a tensor operand; tensors are IR values with a static type; block pointers are
// kept flattened into their parts; jit functions, modules and tl.* functions are references.

#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/ir/ir.h"
#include "engine/triton/syntax/ast.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tkm::triton::sema {

/// What a value is.
enum class VKind {
    Error,    ///< the result of an expression that already reported an error (suppresses follow-on errors)
    Absent,   ///< an argument that was not passed
    None,     ///< Python None
    Int,      ///< constexpr int
    Float,    ///< constexpr float
    Bool,     ///< constexpr bool
    Str,      ///< constexpr str
    DType,    ///< a dtype (tl.float16, ptr.dtype)
    Tuple,    ///< a tuple of values
    Tensor,   ///< an IR value (scalar or tile)
    BlockPtr, ///< tl.make_block_ptr(...), flattened
    JitFn,    ///< a @triton.jit function
    PyFn,     ///< a top-level function that is not @triton.jit
    Module,   ///< `tl`, `triton`, `tl.math`
    Func,     ///< a builtin function: s = its qualified name ("tl.load", "min", "triton.cdiv")
    Method,   ///< a bound method: s = name, elems[0] = self
};

/// One abstract value (copyable; small in practice).
struct Value
{
    VKind kind = VKind::None;
    int64_t i = 0;                        ///< Int
    double f = 0;                         ///< Float
    bool b = false;                       ///< Bool
    std::string s;                        ///< Str; Module/Func/Method name
    ir::Type type;                        ///< Tensor: its type; DType: the dtype (empty shape)
    ir::ValueId id = ir::kNoValue;        ///< Tensor
    std::vector<Value> elems;             ///< Tuple; Method: {self}; BlockPtr: {base, shape…, strides…, offsets…}
    std::vector<int64_t> blockShape;      ///< BlockPtr
    std::vector<int64_t> order;           ///< BlockPtr
    const ast::FunctionDef* fn = nullptr; ///< JitFn, PyFn
    SourceRange origin;                   ///< Tensor: where its shape came from (for notes)

    static Value error();                                                ///< the error value
    static Value absent();                                               ///< an argument not passed
    static Value none();                                                 ///< None
    static Value ofInt(int64_t v);                                       ///< constexpr int
    static Value ofFloat(double v);                                      ///< constexpr float
    static Value ofBool(bool v);                                         ///< constexpr bool
    static Value ofStr(std::string v);                                   ///< constexpr str
    static Value ofDType(ir::Type t);                                    ///< a dtype
    static Value ofElem(ir::Elem e);                                     ///< a scalar dtype
    static Value tuple(std::vector<Value> elems);                        ///< a tuple
    static Value tensor(ir::ValueId id, ir::Type t, SourceRange origin); ///< an IR value
    static Value func(std::string name);                                 ///< a builtin
    static Value module(std::string name);                               ///< a module
    static Value method(std::string name, Value self);                   ///< a bound method

    bool isError() const { return kind == VKind::Error; }   ///< an error value
    bool isAbsent() const { return kind == VKind::Absent; } ///< not passed
    bool isTensor() const { return kind == VKind::Tensor; } ///< an IR value
    bool isNumber() const;                                  ///< constexpr int, float or bool (Python scalars)
    bool isConstexpr() const; ///< folded at check time (numbers, str, None, dtype, tuples of constexprs)
    bool truthy() const;      ///< Python truth of a constexpr
    double asDouble() const;  ///< a number as double
    /// For messages: "128", "1.5", "True", "'relu'", "tl.float16", "<128xfp32>", "a block pointer", …
    std::string describe() const;
};

/// Python's name of a value's kind for messages: "int", "tensor", "tuple", "block pointer", …
std::string kindName(const Value& v);

} // namespace tkm::triton::sema
