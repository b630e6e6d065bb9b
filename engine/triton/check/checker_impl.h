#pragma once
// The checker's internal state, shared by its .cpp files (one per family: stmt, expr, emit, builtins_*). An
// instance checks one entry for one set of constexpr values: it walks the tree like code_generator.py, keeps
// an environment of abstract values (values.h) and emits the tile IR into the current region.

#include "engine/triton/check/checker.h"
#include "engine/triton/check/messages.h"
#include "engine/triton/check/values.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tkm::triton::sema {

/// Arguments of a call after evaluation.
struct CallArgs
{
    const ast::Expr* node = nullptr;                   ///< the Call expression
    std::string fn;                                    ///< qualified name for messages ("tl.load")
    std::vector<Value> args;                           ///< positional values
    std::vector<const ast::Expr*> argExprs;            ///< their expressions
    std::vector<std::pair<std::string, Value>> kwargs; ///< keyword values in order
    std::vector<const ast::Keyword*> kwExprs;          ///< their keywords
};

/// Arguments bound to a builtin's parameter list.
struct Bound
{
    std::vector<Value> v;                                 ///< by parameter index (Absent when not passed)
    std::vector<const ast::Expr*> e;                      ///< the expression that gave each (nullptr when not passed)
    std::vector<SourceRange> r;                           ///< its range (the call's when not passed)
    bool has(size_t i) const { return !v[i].isAbsent(); } ///< passed
};

/// A lexical scope of one inlined function.
struct Scope
{
    std::map<std::string, Value> names;        ///< bound names
    std::set<std::string> fromPlainConst;      ///< names bound by `x = <constexpr>` (became tensors, as in Triton)
    std::set<std::string> runtimeParams;       ///< the entry's runtime parameters (for the "not a constexpr" fix)
    const ast::FunctionDef* fn = nullptr;      ///< the function being inlined
    bool isEntry = false;                      ///< the kernel itself
    int loopDepth = 0;                         ///< enclosing for/while loops in this function
    int runtimeIfDepth = 0;                    ///< enclosing runtime ifs in this function
    std::map<std::string, std::string> hidden; ///< names defined only inside a branch or loop: why not visible
    bool returned = false;                     ///< a `return` ended the body
    Value returnValue = Value::none();         ///< what it returned
};

/// The values a loop carries: names assigned in its body that hold a tensor (or block pointer) before it.
struct Carried
{
    std::vector<std::string> names; ///< in order of first assignment
    std::vector<Value> shapes;      ///< each name's value before the loop (block pointers with tensor parts)
    std::vector<Value> inits;       ///< the flattened tensor parts, in order
};

/// Facts about a loaded value, for the warnings of lint.cpp.
struct LoadFact
{
    bool hasMask = false;    ///< mask= given
    bool hasOther = false;   ///< other= given
    bool otherConst = false; ///< other is a constexpr number
    double otherValue = 0;   ///< its value
    std::string otherText;   ///< its source text
    SourceRange otherRange;  ///< where
    SourceRange loadRange;   ///< the load call
};

class Checker
{
public:
    explicit Checker(const CheckInput& input);
    CheckResult run();

    // --- diagnostics (checker.cpp) ---
    Value error(DiagId id, SourceRange r, const std::vector<std::string>& args, std::vector<DiagNote> notes = {},
                std::vector<SourceRange> underline = {});
    void warn(DiagId id, SourceRange r, const std::vector<std::string>& args, std::vector<DiagNote> notes = {});
    DiagNote shapeNote(const std::string& text, const Value& v) const;
    bool hasError() const { return m_errors > 0; }

    // --- emission (emit.cpp) ---
    ir::ValueId newValue(const ir::Type& t, SourceRange r, const std::string& name = {});
    ir::Op& emit(ir::OpKind k, std::vector<ir::ValueId> operands, SourceRange r);
    Value emitValue(ir::OpKind k, std::vector<ir::ValueId> operands, const ir::Type& t, SourceRange r,
                    SourceRange origin, std::vector<int64_t> ints = {});
    Value constant(double v, const ir::Type& t, SourceRange r);
    Value toTensor(const Value& v, SourceRange r);
    ir::Elem literalElem(const Value& v) const;
    Value cast(const Value& v, ir::Elem e, SourceRange r, bool bitcast = false);
    Value scalarAs(const Value& number, ir::Elem e, SourceRange r);
    Value broadcastTo(const Value& v, const std::vector<int64_t>& shape, SourceRange r);
    std::optional<std::vector<int64_t>> broadcastShape(const Value& a, const ast::Expr* ea, const Value& b,
                                                       const ast::Expr* eb, SourceRange r);
    void pushRegion(ir::Region* region);
    void popRegion();
    ir::Region& region() { return *m_regions.back(); }

    // --- expressions (expr.cpp, binop.cpp) ---
    Value eval(const ast::Expr& e);
    /// An expression statement that drops tl.advance's result: reports it (true) or is something else (false).
    bool droppedAdvance(const ast::Expr& e);
    Value evalName(const ast::Expr& e);
    Value evalAttribute(const ast::Expr& e);
    Value evalSubscript(const ast::Expr& e);
    Value evalCall(const ast::Expr& e);
    Value evalCompare(const ast::Expr& e);
    Value evalBoolOp(const ast::Expr& e);
    Value evalUnary(const ast::Expr& e);
    Value evalIfExp(const ast::Expr& e);
    Value binary(ast::BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                 SourceRange r);
    Value compare(ast::CmpOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                  SourceRange r);
    Value foldBinary(ast::BinOpKind op, const Value& a, const Value& b, SourceRange r);
    Value foldCompare(ast::CmpOpKind op, const Value& a, const Value& b, SourceRange r);
    Value arith(ast::BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                SourceRange r);
    Value pointerArith(ast::BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                       SourceRange r);
    bool promote(const char* opText, const Value& a, const Value& b, bool divOrMod, SourceRange r, ir::Elem& out);
    Value elementwise(ir::OpKind k, const Value& a, const Value& b, ir::Elem computeElem, ir::Elem resultElem,
                      const ast::Expr* ea, const ast::Expr* eb, SourceRange r);
    Value unaryOp(ir::OpKind k, const Value& a, SourceRange r);
    Value logical(bool isAnd, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb, SourceRange r);
    bool checkPrecedenceTrap(const ast::Expr& compare);

    // --- names ---
    Value lookup(const std::string& name, SourceRange r);
    Value lookupGlobal(const std::string& name, SourceRange r, bool& found);
    std::vector<std::string> visibleNames() const;
    void assign(const std::string& name, const Value& v);
    Scope& scope() { return m_scopes.back(); }

    // --- statements (stmt.cpp, control.cpp) ---
    void execBody(const ast::Body& body);
    void execBodyFrom(const ast::Body& body, size_t first);
    void exec(const ast::Stmt& s, const ast::Body& body, size_t index);
    void execAssign(const ast::Stmt& s);
    void execAnnAssign(const ast::Stmt& s);
    void execAugAssign(const ast::Stmt& s);
    void assignTarget(const ast::Expr& target, const Value& v, bool sanitize);
    Value sanitize(const Value& v, SourceRange r);
    void execIf(const ast::Stmt& s, const ast::Body& body, size_t index);
    void execRuntimeIf(const ast::Stmt& s, const Value& cond, const ast::Body* rest, size_t restFirst);
    void execFor(const ast::Stmt& s);
    void execStaticFor(const ast::Stmt& s, const std::vector<Value>& iters);
    void execRuntimeFor(const ast::Stmt& s, Value lb, Value ub, Value step, const std::vector<SourceRange>& rs);
    void execWhile(const ast::Stmt& s);
    void execReturn(const ast::Stmt& s);
    std::vector<std::string> carriedNames(const ast::Body& body);
    Carried collectCarried(const ast::Body& body, const std::string& exclude, SourceRange r);
    std::vector<Value> bindCarriedArgs(ir::Region& region, const Carried& c);
    std::vector<ir::ValueId> carriedYields(const Carried& c, SourceRange r, std::set<std::string>& bad);
    void bindCarriedResults(ir::Op& loop, const Carried& c, const std::set<std::string>& bad, SourceRange r,
                            std::map<std::string, Value>& after);
    void hideLoopLocals(const std::map<std::string, Value>& pre, const std::string& target, SourceRange r,
                        const char* loop);
    Value condition(const Value& v, const ast::Expr& e, const char* what);

    // --- calls (call.cpp) ---
    Value callValue(const Value& callee, CallArgs& c);
    Value callJit(const ast::FunctionDef& fn, CallArgs& c);
    Value callBuiltin(const std::string& name, CallArgs& c);
    Value callMethod(const Value& m, CallArgs& c);
    bool bind(const CallArgs& c, const std::string& fnName, const std::vector<const char*>& params, size_t required,
              Bound& out);
    std::optional<int64_t> constInt(const Value& v, const ast::Expr* e, SourceRange r, const std::string& what);
    std::optional<std::vector<int64_t>> constShape(const Value& v, const ast::Expr* e, SourceRange r,
                                                   const std::string& what);
    std::optional<ir::Type> dtypeArg(const Value& v, SourceRange r, const std::string& what);
    Value notConstexpr(const ast::Expr* e, SourceRange r, const std::string& what, const Value& v);
    bool isTlFunction(const std::string& name) const;
    std::vector<std::string> tlFunctionNames() const;

    // --- builtins (builtins_*.cpp) ---
    Value biProgramId(CallArgs& c, bool num);
    Value biArange(CallArgs& c);
    Value biFull(CallArgs& c, int which); // 0 zeros, 1 full, 2 zeros_like, 3 full_like
    Value biLoad(CallArgs& c);
    Value biStore(CallArgs& c);
    Value biWhere(CallArgs& c);
    Value biCast(CallArgs& c, bool method);
    Value biHint(CallArgs& c);
    Value biStaticAssert(CallArgs& c);
    Value biPrint(CallArgs& c, int which); // 0 device_print, 1 print, 2 static_print
    Value biDeviceAssert(CallArgs& c);
    Value biConstexpr(CallArgs& c);
    Value biCdiv(CallArgs& c, bool triton);
    Value biNextPow2(CallArgs& c);
    Value biPyMinMax(CallArgs& c, bool isMax);
    Value biPyConv(CallArgs& c, const std::string& which);
    Value biPyAbs(CallArgs& c);
    Value biPyLen(CallArgs& c);
    Value biMath(CallArgs& c, const std::string& name);
    Value biMinMaxElt(CallArgs& c, bool isMax);
    Value biFma(CallArgs& c);
    Value biReduce(CallArgs& c, const std::string& kind);
    Value reduce(const Value& x, std::optional<int64_t> axis, bool keepDims, const std::string& kind,
                 const ast::Expr* ex, SourceRange r);
    Value biDot(CallArgs& c);
    Value biTrans(CallArgs& c, bool permute);
    Value trans(const Value& x, std::vector<int64_t> perm, SourceRange r);
    Value biReshape(CallArgs& c);
    Value reshape(const Value& x, const std::vector<int64_t>& shape, SourceRange r);
    Value biExpandDims(CallArgs& c);
    Value expandDims(const Value& x, int64_t axis, SourceRange r);
    Value biBroadcastTo(CallArgs& c);
    Value biBroadcast(CallArgs& c);
    Value biMakeBlockPtr(CallArgs& c);
    Value biAdvance(CallArgs& c);
    Value blockPtrLoad(const Value& bp, const Bound& b, size_t bcIndex, size_t padIndex, SourceRange r);
    Value blockPtrStore(const Value& bp, const Value& value, const Bound& b, size_t bcIndex, SourceRange r);
    Value biAtomic(CallArgs& c, const std::string& kind);
    Value biUmulhi(CallArgs& c);
    Value biCumsum(CallArgs& c, const std::string& kind);
    Value biJoinCat(CallArgs& c, bool join);
    Value biSoftmax(CallArgs& c);
    Value biRange(CallArgs& c);

    // --- warnings (lint.cpp) ---
    void lintReduceInput(const Value& x, const std::string& kind, SourceRange r);
    void lintMemAccess(const Value& ptr, bool hasMask, const char* what, SourceRange r);
    void lintMaskBroadcast(const Value& mask, const Value& ptr, SourceRange r);
    void noteLoad(ir::ValueId result, LoadFact f);

    const CheckInput& m_in;
    ir::Function m_fn;
    std::vector<Diagnostic> m_diags;
    int m_errors = 0;
    std::vector<ir::Region*> m_regions;
    std::vector<Scope> m_scopes;
    std::map<std::string, Value> m_globals;           ///< evaluated module-level constexprs
    std::set<std::string> m_globalsInProgress;        ///< cycle guard
    std::set<ir::ValueId> m_pidDerived;               ///< values that depend on tl.program_id
    std::set<ir::ValueId> m_pidBlock;                 ///< program_id · constexpr (a block index), and what it feeds
    std::set<ir::ValueId> m_wrapped;                  ///< values computed through `%` (offsets wrapped in bounds)
    std::map<ir::ValueId, LoadFact> m_loads;          ///< loads (and their casts) for the neutral-element warning
    std::map<ir::ValueId, ir::ValueId> m_castOf;      ///< cast result → its operand
    std::vector<std::string> m_sizeParams;            ///< integer runtime parameters (a size argument)
    bool m_warnedNoMask = false;                      ///< one no-mask warning per kernel
    std::vector<const ast::FunctionDef*> m_callStack; ///< inlined jit functions (recursion guard)
    int m_suppress = 0;                               ///< > 0 while diagnostics are discarded
};

/// Same abstract value (same IR value, same constexpr, same parts).
bool sameValue(const Value& a, const Value& b);
/// Appends the tensor parts of `v` (a tensor, or the parts of a block pointer or tuple); false if some part
/// is not a tensor.
bool flatten(const Value& v, std::vector<Value>& out);
/// Rebuilds a value shaped like `shape` from tensor parts starting at `pos`.
Value rebuild(const Value& shape, const std::vector<Value>& parts, size_t& pos);

/// The expression as Python text (for messages and fix-its).
std::string exprText(const ast::Expr& e);
/// "[64, 128]".
std::string shapeText(const std::vector<int64_t>& shape);
/// Python spelling of a dtype: "tl.float16".
std::string dtypeName(const ir::Type& t);
/// True for a power of two ≥ 1.
bool isPow2(int64_t v);
/// The next power of two ≥ v (v ≥ 1).
int64_t nextPow2(int64_t v);

} // namespace tkm::triton::sema
