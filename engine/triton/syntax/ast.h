#pragma once
// Syntax tree of the Python subset that Triton kernels are written in (TRITON.md, "The subset"), as the parser
// (parser.h) builds it. Close to CPython's `ast` module in names and shapes so that a reader of Triton's
// code_generator.py (which walks CPython's ast) finds the same nodes: Name, Constant, Attribute, Subscript,
// Call, BinOp, UnaryOp, BoolOp, Compare, IfExp, Tuple, List, Dict, Lambda; Assign, AugAssign, AnnAssign,
// ExprStmt, Return, If, For, While, Break, Continue, Pass, Assert, FunctionDef, Import. Every node carries the
// 1-based source range of its text. Host code the parser skips never reaches the tree (Module::skipped says where).

#include "engine/triton/diag/diagnostic.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tkm::triton::ast {

struct Expr;
struct Stmt;
using ExprPtr = std::unique_ptr<Expr>;
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

/// Kinds of expression.
enum class ExprKind {
    Name,      ///< `x` — id
    Constant,  ///< literal — constant
    Attribute, ///< `value.attr` — value, id (the attribute name)
    Subscript, ///< `value[i, :, None]` — value, slices
    Call,      ///< `func(args, k=v)` — value (the callee), args, keywords
    BinOp,     ///< `left op right` — binOp, left, right
    UnaryOp,   ///< `op operand` — unaryOp, left (the operand)
    BoolOp,    ///< `a and b and c` — boolOp, elts (≥ 2 operands)
    Compare,   ///< `a < b <= c` — left, cmpOps, elts (the comparators, one per op)
    IfExp,     ///< `body if test else orelse` — test, left (body), right (orelse)
    Tuple,     ///< `(a, b)` or `a, b` — elts
    List,      ///< `[a, b]` — elts
    Dict,      ///< `{k: v}` — elts (keys) and values, same length
    Lambda,    ///< `lambda args: body` — params (names), left (body); kept as data (@triton.heuristics)
    Starred,   ///< `*x` in a call or tuple — left
};

/// Binary operators (Python's precedence is the parser's business; the tree holds the result).
enum class BinOpKind { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, MatMul, LShift, RShift, BitAnd, BitOr, BitXor };
/// Unary operators.
enum class UnaryOpKind { Neg, Pos, Not, Invert };
/// Boolean operators.
enum class BoolOpKind { And, Or };
/// Comparison operators.
enum class CmpOpKind { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };

/// Python spelling of an operator: "+", "//", "<<", "and", "not", "is not", …
const char* opText(BinOpKind op);
const char* opText(UnaryOpKind op);
const char* opText(BoolOpKind op);
const char* opText(CmpOpKind op);

/// A literal value.
struct Constant
{
    enum class Kind { None, Bool, Int, Float, Str, Ellipsis };
    Kind kind = Kind::None; ///< which field holds the value
    bool boolValue = false; ///< Bool
    int64_t intValue = 0;   ///< Int (a literal past int64 is a syntax error "integer literal too large")
    double floatValue = 0;  ///< Float (also `1e-6`, `float('inf')` is a Call, not a Constant)
    std::string strValue;   ///< Str (escapes decoded; adjacent literals concatenated; f-strings refused)
};

/// One element of a subscript: an index expression, a slice `lo:hi:step` (each part optional), `None`, or `...`.
struct SliceItem
{
    enum class Kind { Index, Slice, NewAxis, Ellipsis };
    Kind kind = Kind::Index; ///< which
    ExprPtr index;           ///< Index
    ExprPtr lower;           ///< Slice (may be null)
    ExprPtr upper;           ///< Slice (may be null)
    ExprPtr step;            ///< Slice (may be null)
    SourceRange range;       ///< the element's text
};

/// `name=value` in a call.
struct Keyword
{
    std::string name;  ///< keyword
    ExprPtr value;     ///< its value
    SourceRange range; ///< `name=value`
};

/// An expression node. Only the fields named for its kind are set.
struct Expr
{
    ExprKind kind = ExprKind::Name;
    SourceRange range;                 ///< the whole expression's text
    std::string id;                    ///< Name: identifier; Attribute: attribute name
    Constant constant;                 ///< Constant
    ExprPtr value;                     ///< Attribute, Subscript: the object; Call: the callee
    std::vector<SliceItem> slices;     ///< Subscript: one per comma-separated element
    std::vector<ExprPtr> args;         ///< Call: positional arguments
    std::vector<Keyword> keywords;     ///< Call
    BinOpKind binOp = BinOpKind::Add;  ///< BinOp
    UnaryOpKind unaryOp = UnaryOpKind::Neg; ///< UnaryOp
    BoolOpKind boolOp = BoolOpKind::And;    ///< BoolOp
    std::vector<CmpOpKind> cmpOps;     ///< Compare
    ExprPtr left;                      ///< BinOp, Compare: left operand; UnaryOp: operand; IfExp: body; Lambda
    ExprPtr right;                     ///< BinOp: right operand; IfExp: orelse
    ExprPtr test;                      ///< IfExp: condition
    std::vector<ExprPtr> elts;         ///< Tuple, List, BoolOp operands, Compare comparators, Dict keys
    std::vector<ExprPtr> values;       ///< Dict values
    std::vector<std::string> params;   ///< Lambda parameter names
    SourceRange opRange;               ///< BinOp/UnaryOp/BoolOp: the operator token; Compare: the first operator
    bool parenthesized = false;        ///< written inside its own parentheses (for the `&` vs `<` diagnostic)
};

/// Kinds of statement.
enum class StmtKind {
    ExprStmt,    ///< an expression on its own (a call; a docstring) — value
    Assign,      ///< `a = b = value`, `a, b = value` — targets, value
    AugAssign,   ///< `x += value` — targets[0], binOp, value
    AnnAssign,   ///< `x: annotation = value` — targets[0], annotation, value (may be null)
    Return,      ///< `return value` — value (may be null)
    If,          ///< `if test: body elif …: … else: orelse` (elif is a nested If in orelse) — test, body, orelse
    For,         ///< `for target in iter: body` — targets[0], iter, body (an `else:` clause is refused)
    While,       ///< `while test: body` — test, body
    Break,       ///<
    Continue,    ///<
    Pass,        ///<
    Assert,      ///< `assert test, msg` — test, value (the message, may be null)
    FunctionDef, ///< a `def` — function
    Import,      ///< `import …` / `from … import …` — modules names the imported modules; ignored later
    Other,       ///< a statement kept only by name (`with`, `try`, `class`, `global`, `del`, `raise`, …): kind
                 ///< names the keyword in `keyword`; the checker refuses it inside a kernel
};

struct FunctionDef;

/// A statement node. Only the fields named for its kind are set.
struct Stmt
{
    StmtKind kind = StmtKind::Pass;
    SourceRange range;                ///< the statement's first line (for compound statements, its header)
    std::vector<ExprPtr> targets;     ///< Assign (one per `=`), AugAssign/AnnAssign/For (one)
    ExprPtr value;                    ///< ExprStmt, Assign, AugAssign, AnnAssign, Return, Assert (message)
    ExprPtr annotation;               ///< AnnAssign
    BinOpKind binOp = BinOpKind::Add; ///< AugAssign
    ExprPtr test;                     ///< If, While, Assert
    ExprPtr iter;                     ///< For
    Body body;                        ///< If, For, While
    Body orelse;                      ///< If (a lone nested If when written `elif`)
    bool isElif = false;              ///< If: this If was written as `elif`
    std::unique_ptr<FunctionDef> function; ///< FunctionDef
    std::vector<std::string> modules; ///< Import
    std::string keyword;              ///< Other: `with`, `try`, `class`, …
};

/// One parameter of a `def`.
struct Param
{
    std::string name;   ///< identifier
    ExprPtr annotation; ///< `tl.constexpr`, `tl.tensor`, … or null
    ExprPtr defaultValue; ///< `= 1024` or null
    SourceRange range;  ///< the parameter's text
};

/// A decorator: `@triton.jit`, `@triton.jit(debug=True)`, `@triton.autotune(configs=[…], key=[…])`, … The
/// expression is kept whole; `name` is its dotted callee ("triton.jit", "triton.autotune", "triton.heuristics").
struct Decorator
{
    std::string name;  ///< dotted name without the call
    ExprPtr expr;      ///< the decorator expression (a Name/Attribute or a Call)
    SourceRange range; ///< from `@` to the end of the line
};

/// A function definition (a kernel, a jit helper, or host code kept whole).
struct FunctionDef
{
    std::string name;                   ///< identifier
    std::vector<Decorator> decorators;  ///< outermost first, as written
    std::vector<Param> params;          ///< in order (`*args`, `**kw` and keyword-only markers are refused)
    ExprPtr returns;                    ///< `-> annotation` or null
    Body body;                          ///< statements
    SourceRange range;                  ///< the `def` line
    SourceRange nameRange;              ///< the name
    /// True when a decorator is `triton.jit` (or `jit` imported from triton), with or without a call.
    bool isJit() const;
    /// The decorator named `dotted` (e.g. "triton.autotune"), or nullptr.
    const Decorator* decorator(const std::string& dotted) const;
};

/// A top-level statement the parser skipped as host code (not a jit function, import or simple assignment).
struct SkippedHost
{
    SourceRange range; ///< its lines
    std::string what;  ///< "def main", "if statement", …
};

/// A parsed kernel file.
struct Module
{
    Body body;                         ///< top-level statements that were parsed (jit functions, imports,
                                       ///< module-level assignments such as `DEVICE = …` or `BLOCK: tl.constexpr = 128`)
    std::vector<SkippedHost> skipped;  ///< host code passed over
    /// The top-level `def` named `name`, or nullptr.
    const FunctionDef* function(const std::string& name) const;
    /// Every top-level `@triton.jit` function, in file order.
    std::vector<const FunctionDef*> jitFunctions() const;
};

} // namespace tkm::triton::ast
