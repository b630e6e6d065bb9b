#pragma once
// The checker: abstract interpretation of a parsed kernel with its constexpr values known, mirroring Triton
// 3.6's code_generator.py (builtins, constexpr `if`, `tl.static_range`, loop-carried types, jit helpers inlined)
// and semantic.py / standard.py / math.py (types, the promotion ladder, broadcasting, every tl.* rule of
// TRITON.md's subset). Its output is the tile IR (ir/ir.h) of one specialisation, or diagnostics that say what
// is wrong, where, and the fix. Anything outside the subset is refused with the construct's name and line.

#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/ir/ir.h"
#include "engine/triton/syntax/ast.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tkm::triton {

/// A constexpr value as bound from outside (spec meta, autotune config, heuristics): an int, a float, a bool,
/// a string (`ACTIVATION="leaky_relu"`), a dtype (`tl.float16`) or None.
struct ConstexprValue
{
    enum class Kind { None, Int, Float, Bool, Str, DType };
    Kind kind = Kind::None;
    int64_t intValue = 0;           ///< Int
    double floatValue = 0;          ///< Float
    bool boolValue = false;         ///< Bool
    std::string strValue;           ///< Str
    ir::Elem dtype = ir::Elem::F32; ///< DType

    static ConstexprValue ofInt(int64_t v);     ///< an int
    static ConstexprValue ofFloat(double v);    ///< a float
    static ConstexprValue ofBool(bool v);       ///< a bool
    static ConstexprValue ofStr(std::string v); ///< a string
    static ConstexprValue ofDType(ir::Elem v);  ///< a dtype
    std::string str() const;                    ///< Python spelling: 1024, 0.5, True, 'relu', tl.float16
};

/// What the checker needs besides the tree.
struct CheckInput
{
    const ast::Module* module = nullptr; ///< the parsed file
    std::string entry;                   ///< the kernel's name (a top-level @triton.jit function)
    /// Types of the runtime (non-constexpr) parameters in signature order: pointers as Type{Ptr, {}, pointee},
    /// scalars as their Triton type (ints passed as i32 unless the binding says i64, floats as fp32).
    std::vector<ir::Type> runtimeParamTypes;
    /// Integer runtime parameters Triton's jit would specialise (jit.py): by name, "1" (== 1, folded to a
    /// constant) or "16" (divisible by 16, kept as a hint). Optional.
    std::map<std::string, std::string> specialisation;
    /// Values of the constexpr parameters by name (a parameter with a default may be omitted).
    std::map<std::string, ConstexprValue> constexprs;
    int numWarps = 4;  ///< num_warps
    int numStages = 3; ///< num_stages
};

/// The result: the function (when there are no errors) and every diagnostic (errors and warnings).
struct CheckResult
{
    std::optional<ir::Function> function; ///< set when no error was found
    std::vector<Diagnostic> diagnostics;  ///< errors first where they block, warnings as found
};

/// Checks and specialises `input.entry`. Never throws on bad kernels: every problem is a diagnostic.
CheckResult check(const CheckInput& input);

/// The signature of a jit function as written: each parameter's name and whether it is annotated
/// `tl.constexpr` (or bound to a constexpr by a decorator such as @triton.heuristics).
struct SignatureParam
{
    std::string name;        ///< identifier
    bool constexpr_ = false; ///< annotated tl.constexpr
    bool hasDefault = false; ///< has a default value
    SourceRange range;       ///< its text
};

/// The parameters of `fn` in order.
std::vector<SignatureParam> signatureOf(const ast::FunctionDef& fn);

} // namespace tkm::triton
