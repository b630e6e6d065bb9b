// Expressions: names (locals, then the module's constexpr globals, jit functions, `tl`/`triton`), attributes
// of modules, tensors and dtypes, subscripts (`[:, None]`, tuple indexing), comparisons (with the `&` vs `<`
// precedence trap), `and`/`or`/`not`, conditional expressions and calls (code_generator.py's visit_*).
#include "engine/triton/check/checker_impl.h"

#include <cmath>

namespace tkm::triton::sema {

using ast::ExprKind;
using ir::Elem;
using ir::OpKind;

namespace {

const std::map<std::string, Elem>& dtypeNames()
{
    static const std::map<std::string, Elem> m = {
        {"int1", Elem::I1},     {"int8", Elem::I8},     {"int16", Elem::I16},     {"int32", Elem::I32},
        {"int64", Elem::I64},   {"uint8", Elem::U8},    {"uint16", Elem::U16},    {"uint32", Elem::U32},
        {"uint64", Elem::U64},  {"float16", Elem::F16}, {"bfloat16", Elem::BF16}, {"float32", Elem::F32},
        {"float64", Elem::F64}, {"fp16", Elem::F16},    {"bf16", Elem::BF16},     {"fp32", Elem::F32},
        {"fp64", Elem::F64},    {"bool", Elem::I1},
    };
    return m;
}

const std::set<std::string>& tensorMethods()
{
    static const std::set<std::string> s = {
        "to",    "reshape", "view",    "trans",       "permute",    "expand_dims", "broadcast_to", "sum",  "max",
        "min",   "argmax",  "argmin",  "xor_sum",     "exp",        "exp2",        "log",          "log2", "sqrt",
        "rsqrt", "abs",     "sigmoid", "cumsum",      "cumprod",    "floor",       "ceil",         "sin",  "cos",
        "erf",   "ravel",   "softmax", "logical_and", "logical_or", "sqrt_rn",
    };
    return s;
}

const std::set<std::string>& dtypeMethods()
{
    static const std::set<std::string> s = {
        "is_floating", "is_int",    "is_int_signed", "is_int_unsigned", "is_fp16",
        "is_bf16",     "is_fp32",   "is_fp64",       "is_ptr",          "is_bool",
        "is_int1",     "is_int8",   "is_int16",      "is_int32",        "is_int64",
        "is_uint8",    "is_uint16", "is_uint32",     "is_uint64",       "is_standard_floating",
    };
    return s;
}

} // namespace

Value Checker::eval(const ast::Expr& e)
{
    switch (e.kind) {
    case ExprKind::Name:
        return evalName(e);
    case ExprKind::Constant:
        switch (e.constant.kind) {
        case ast::Constant::Kind::None:
            return Value::none();
        case ast::Constant::Kind::Bool:
            return Value::ofBool(e.constant.boolValue);
        case ast::Constant::Kind::Int:
            return Value::ofInt(e.constant.intValue);
        case ast::Constant::Kind::Float:
            return Value::ofFloat(e.constant.floatValue);
        case ast::Constant::Kind::Str:
            return Value::ofStr(e.constant.strValue);
        case ast::Constant::Kind::Ellipsis:
            return error(DiagId::Unsupported, e.range, {"`...`", ""});
        }
        break;
    case ExprKind::Attribute:
        return evalAttribute(e);
    case ExprKind::Subscript:
        return evalSubscript(e);
    case ExprKind::Call:
        return evalCall(e);
    case ExprKind::BinOp: {
        Value a = eval(*e.left);
        Value b = eval(*e.right);
        return binary(e.binOp, a, b, e.left.get(), e.right.get(), e.range);
    }
    case ExprKind::UnaryOp:
        return evalUnary(e);
    case ExprKind::BoolOp:
        return evalBoolOp(e);
    case ExprKind::Compare:
        return evalCompare(e);
    case ExprKind::IfExp:
        return evalIfExp(e);
    case ExprKind::Tuple:
    case ExprKind::List: {
        std::vector<Value> elems;
        bool bad = false;
        for (const auto& x : e.elts) {
            if (x->kind == ExprKind::Starred) {
                return error(DiagId::Unsupported, x->range, {"unpacking with `*`", ""});
            }
            elems.push_back(eval(*x));
            bad = bad || elems.back().isError();
        }
        return bad ? Value::error() : Value::tuple(std::move(elems));
    }
    case ExprKind::Dict:
        return error(DiagId::Unsupported, e.range, {"a dict", ""});
    case ExprKind::Lambda:
        return error(DiagId::Unsupported, e.range, {"a lambda", ""});
    case ExprKind::Starred:
        return error(DiagId::Unsupported, e.range, {"unpacking with `*`", ""});
    }
    return error(DiagId::Internal, e.range, {"unknown expression"});
}

Value Checker::evalName(const ast::Expr& e)
{
    return lookup(e.id, e.range);
}

Value Checker::evalAttribute(const ast::Expr& e)
{
    Value obj = eval(*e.value);
    if (obj.isError()) {
        return obj;
    }
    const std::string& a = e.id;
    if (obj.kind == VKind::Module) {
        if (obj.s == "math") {
            // Python's math module on constexprs (e.g. LOG2E = math.log2(math.e)).
            static const std::map<std::string, double> consts = {
                {"pi", 3.14159265358979323846}, {"e", 2.71828182845904523536}, {"inf", INFINITY}, {"nan", NAN}};
            auto c = consts.find(a);
            if (c != consts.end()) {
                return Value::ofFloat(c->second);
            }
            static const std::set<std::string> fns = {"log", "log2", "log10", "exp", "sqrt", "ceil", "floor", "fabs"};
            if (fns.count(a)) {
                return Value::func("math." + a);
            }
            std::vector<std::string> names(fns.begin(), fns.end());
            return error(DiagId::UnknownTl, e.range,
                         {"math." + a, "Python's math module (on constexprs)", didYouMean(closestName(a, names))});
        }
        if (obj.s == "triton") {
            if (a == "language") {
                return Value::module("tl");
            }
            if (a == "cdiv" || a == "next_power_of_2" || a == "jit") {
                return Value::func("triton." + a);
            }
            return error(
                DiagId::UnknownTl, e.range,
                {"triton." + a, "triton", didYouMean(closestName(a, {"cdiv", "next_power_of_2", "language"}))});
        }
        auto dt = dtypeNames().find(a);
        if (dt != dtypeNames().end() && a != "bool" && a.rfind("fp", 0) != 0 && a != "bf16") {
            return Value::ofElem(dt->second);
        }
        if (obj.s == "tl" && a == "math") {
            return Value::module("tl.math");
        }
        if (obj.s == "tl" && (a == "constexpr" || a == "tensor" || a == "pointer_type" || a == "dtype")) {
            return Value::func("tl." + a);
        }
        if (isTlFunction(a)) {
            return Value::func("tl." + a);
        }
        std::vector<std::string> names = tlFunctionNames();
        std::string best = closestName(a, names);
        std::string prefix = obj.s == "tl.math" ? "tl.math." : "tl.";
        return error(DiagId::UnknownTl, e.range,
                     {prefix + a, obj.s == "tl.math" ? "triton.language.math" : "triton.language",
                      didYouMean(best.empty() ? "" : prefix + best)});
    }
    if (obj.isTensor()) {
        if (a == "dtype" || a == "type") {
            return Value::ofDType(obj.type);
        }
        if (a == "shape") {
            std::vector<Value> dims;
            for (int64_t d : obj.type.shape) {
                dims.push_back(Value::ofInt(d));
            }
            return Value::tuple(dims);
        }
        if (a == "T") {
            if (obj.type.shape.size() != 2) {
                return error(DiagId::TransPerm, e.range,
                             {"`.T`", std::to_string(obj.type.shape.size()), exprText(*e.value)});
            }
            return trans(obj, {1, 0}, e.range);
        }
        if (a == "numel") {
            return Value::ofInt(obj.type.numel());
        }
        if (tensorMethods().count(a)) {
            return Value::method(a, obj);
        }
        std::vector<std::string> names(tensorMethods().begin(), tensorMethods().end());
        names.push_back("dtype");
        names.push_back("shape");
        names.push_back("T");
        return error(DiagId::UnknownAttr, e.range, {"a tensor", a, didYouMean(closestName(a, names))});
    }
    if (obj.kind == VKind::DType) {
        if (a == "element_ty") {
            if (!obj.type.isPtr()) {
                return error(DiagId::UnknownAttr, e.range,
                             {dtypeName(obj.type), a, " (only pointer dtypes have an element type)"});
            }
            return Value::ofElem(obj.type.pointee);
        }
        if (a == "scalar") {
            return obj;
        }
        if (a == "primitive_bitwidth") {
            return Value::ofInt(ir::bitWidth(obj.type.elem));
        }
        if (a == "itemsize") {
            return Value::ofInt(ir::elemBytes(obj.type.elem));
        }
        if (dtypeMethods().count(a)) {
            return Value::method(a, obj);
        }
        std::vector<std::string> names(dtypeMethods().begin(), dtypeMethods().end());
        names.push_back("element_ty");
        names.push_back("primitive_bitwidth");
        return error(DiagId::UnknownAttr, e.range, {dtypeName(obj.type), a, didYouMean(closestName(a, names))});
    }
    if (obj.kind == VKind::Tuple && a == "index") {
        return error(DiagId::Unsupported, e.range, {"tuple.index", ""});
    }
    return error(DiagId::UnknownAttr, e.range, {obj.describe(), a, ""});
}

Value Checker::evalSubscript(const ast::Expr& e)
{
    Value obj = eval(*e.value);
    if (obj.isError()) {
        return obj;
    }
    if (obj.kind == VKind::Tuple) {
        if (e.slices.size() != 1 || e.slices[0].kind != ast::SliceItem::Kind::Index) {
            return error(DiagId::Unsupported, e.range, {"slicing a tuple", ""});
        }
        Value idx = eval(*e.slices[0].index);
        if (idx.isError()) {
            return idx;
        }
        auto k = constInt(idx, e.slices[0].index.get(), e.slices[0].range, "a tuple index");
        if (!k) {
            return Value::error();
        }
        int64_t n = static_cast<int64_t>(obj.elems.size());
        int64_t i = *k < 0 ? *k + n : *k;
        if (i < 0 || i >= n) {
            return error(DiagId::TupleIndex, e.slices[0].range, {std::to_string(*k), std::to_string(n)});
        }
        return obj.elems[static_cast<size_t>(i)];
    }
    if (!obj.isTensor()) {
        return error(DiagId::NotSubscriptable, e.range, {obj.describe()});
    }
    Value cur = obj;
    size_t axis = 0;
    std::string text = exprText(e);
    for (const ast::SliceItem& it : e.slices) {
        switch (it.kind) {
        case ast::SliceItem::Kind::NewAxis:
            cur = expandDims(cur, static_cast<int64_t>(axis), e.range);
            ++axis;
            break;
        case ast::SliceItem::Kind::Slice:
            if (it.lower || it.upper || it.step) {
                return error(DiagId::SliceIndex, it.range, {text});
            }
            if (axis >= cur.type.shape.size()) {
                return error(DiagId::TooManyIndices, it.range, {exprText(*e.value), shapeText(obj.type.shape)});
            }
            ++axis;
            break;
        case ast::SliceItem::Kind::Index: {
            std::string idx = it.index ? exprText(*it.index) : "0";
            return error(DiagId::IntIndex, it.range, {text, idx, exprText(*e.value)});
        }
        case ast::SliceItem::Kind::Ellipsis:
            return error(DiagId::SliceIndex, it.range, {text});
        }
        if (cur.isError()) {
            return cur;
        }
    }
    return cur;
}

Value Checker::evalCompare(const ast::Expr& e)
{
    if (checkPrecedenceTrap(e)) {
        return Value::error();
    }
    Value left = eval(*e.left);
    if (e.cmpOps.size() == 1) {
        Value right = eval(*e.elts[0]);
        return compare(e.cmpOps[0], left, right, e.left.get(), e.elts[0].get(), e.range);
    }
    // A chain folds like Python (a < b and b < c) only on constexprs; Triton refuses it on tensors.
    std::vector<Value> vals{left};
    for (const auto& x : e.elts) {
        vals.push_back(eval(*x));
    }
    for (const Value& v : vals) {
        if (v.isError()) {
            return v;
        }
        if (!v.isConstexpr()) {
            return error(DiagId::Unsupported, e.range,
                         {"a chained comparison on tensors (`" + exprText(e) + "`)",
                          ": split it with `&`, e.g. `(a < b) & (b < c)`"});
        }
    }
    bool all = true;
    for (size_t i = 0; i < e.cmpOps.size(); ++i) {
        Value r = foldCompare(e.cmpOps[i], vals[i], vals[i + 1], e.range);
        if (r.isError()) {
            return r;
        }
        all = all && r.truthy();
    }
    return Value::ofBool(all);
}

bool Checker::checkPrecedenceTrap(const ast::Expr& e)
{
    // `a < M & b < K` parses as `a < (M & b) < K`: an operand of the comparison is an unparenthesized `&`/`|`.
    auto isTrap = [](const ast::Expr& x) {
        return x.kind == ExprKind::BinOp && !x.parenthesized &&
               (x.binOp == ast::BinOpKind::BitAnd || x.binOp == ast::BinOpKind::BitOr);
    };
    std::vector<const ast::Expr*> operands{e.left.get()};
    for (const auto& x : e.elts) {
        operands.push_back(x.get());
    }
    // A single comparison `(x & 0xFF) < 16` is legitimate Python; it is the trap only when the `&` joins a
    // comparison (`(a < M) & b < K`) or the comparisons are chained (`a < M & b < K`, which Triton refuses).
    auto joinsComparison = [](const ast::Expr& x) {
        auto isCmp = [](const ast::ExprPtr& p) { return p && p->kind == ExprKind::Compare; };
        return isCmp(x.left) || isCmp(x.right);
    };
    const ast::Expr* trap = nullptr;
    for (const ast::Expr* x : operands) {
        if (isTrap(*x) && (e.cmpOps.size() > 1 || joinsComparison(*x))) {
            trap = x;
            break;
        }
    }
    if (!trap) {
        return false;
    }
    // Rebuild what was meant: split the operands at the `&`/`|` and parenthesize each comparison.
    std::vector<std::string> groups{""};
    std::vector<std::string> joins;
    std::vector<bool> hasCmp{false};
    for (size_t i = 0; i < operands.size(); ++i) {
        const ast::Expr* x = operands[i];
        if (i > 0) {
            groups.back() += std::string(" ") + ast::opText(e.cmpOps[i - 1]) + " ";
            hasCmp.back() = true;
        }
        if (isTrap(*x)) {
            groups.back() += exprText(*x->left);
            joins.push_back(ast::opText(x->binOp));
            groups.push_back(exprText(*x->right));
            hasCmp.push_back(false);
        } else {
            groups.back() += exprText(*x);
        }
    }
    std::string fix;
    for (size_t g = 0; g < groups.size(); ++g) {
        if (g > 0) {
            fix += " " + joins[g - 1] + " ";
        }
        fix += hasCmp[g] ? "(" + groups[g] + ")" : groups[g];
    }
    Diagnostic d = makeDiagnostic(DiagId::AndPrecedence, trap->opRange.begin.line ? trap->opRange : e.range,
                                  {ast::opText(trap->binOp), ast::opText(e.cmpOps[0]), fix});
    d.range = e.range;
    d.underline.push_back(trap->opRange);
    d.fixit = fix;
    if (m_suppress == 0) {
        m_diags.push_back(d);
        ++m_errors;
    }
    return true;
}

Value Checker::evalBoolOp(const ast::Expr& e)
{
    const char* op = ast::opText(e.boolOp);
    if (e.elts.size() != 2) {
        return error(DiagId::BoolOpChain, e.range, {op});
    }
    Value a = eval(*e.elts[0]);
    if (a.isError()) {
        return a;
    }
    bool isAnd = e.boolOp == ast::BoolOpKind::And;
    if (a.isConstexpr()) {
        // Python short-circuit on constexprs.
        if (isAnd ? !a.truthy() : a.truthy()) {
            return a;
        }
        Value b = eval(*e.elts[1]);
        if (b.isConstexpr() || b.isError()) {
            return b;
        }
        return logical(isAnd, a, b, e.elts[0].get(), e.elts[1].get(), e.range);
    }
    Value b = eval(*e.elts[1]);
    if (b.isError()) {
        return b;
    }
    if (!a.isTensor() && !a.isNumber()) {
        return error(DiagId::OperandTypes, e.range, {op, a.describe(), b.describe(), ""});
    }
    return logical(isAnd, a, b, e.elts[0].get(), e.elts[1].get(), e.range);
}

Value Checker::evalUnary(const ast::Expr& e)
{
    Value a = eval(*e.left);
    if (a.isError()) {
        return a;
    }
    switch (e.unaryOp) {
    case ast::UnaryOpKind::Pos:
        return a;
    case ast::UnaryOpKind::Neg:
        if (a.kind == VKind::Int || a.kind == VKind::Bool) {
            return Value::ofInt(-(a.kind == VKind::Bool ? (a.b ? 1 : 0) : a.i));
        }
        if (a.kind == VKind::Float) {
            return Value::ofFloat(-a.f);
        }
        if (a.isTensor() && !a.type.isPtr()) {
            return unaryOp(OpKind::Neg, a, e.range);
        }
        break;
    case ast::UnaryOpKind::Not:
        if (a.isConstexpr()) {
            return Value::ofBool(!a.truthy());
        }
        if (a.isTensor() && a.type.elem == Elem::I1) {
            return unaryOp(OpKind::Not, a, e.range);
        }
        if (a.isTensor() && !a.type.isPtr()) {
            return compare(ast::CmpOpKind::Eq, a, Value::ofInt(0), e.left.get(), nullptr, e.range);
        }
        break;
    case ast::UnaryOpKind::Invert:
        if (a.kind == VKind::Int || a.kind == VKind::Bool) {
            return Value::ofInt(~(a.kind == VKind::Bool ? (a.b ? 1 : 0) : a.i));
        }
        if (a.isTensor() && ir::isInt(a.type.elem)) {
            return unaryOp(OpKind::Not, a, e.range);
        }
        break;
    }
    return error(DiagId::OperandTypes, e.range, {ast::opText(e.unaryOp), a.describe(), "nothing", ""});
}

Value Checker::evalIfExp(const ast::Expr& e)
{
    Value c = eval(*e.test);
    if (c.isError()) {
        return c;
    }
    if (c.isConstexpr()) {
        return c.truthy() ? eval(*e.left) : eval(*e.right);
    }
    Value cond = condition(c, *e.test, "a conditional expression");
    if (cond.isError()) {
        return cond;
    }
    ir::Op ifOp;
    ifOp.kind = OpKind::If;
    ifOp.operands.push_back(cond.id);
    ifOp.range = e.range;
    ifOp.regions.push_back(std::make_unique<ir::Region>());
    ifOp.regions.push_back(std::make_unique<ir::Region>());
    Value vals[2];
    for (int k = 0; k < 2; ++k) {
        pushRegion(ifOp.regions[static_cast<size_t>(k)].get());
        vals[k] = toTensor(eval(k == 0 ? *e.left : *e.right), (k == 0 ? e.left : e.right)->range);
        popRegion();
    }
    if (vals[0].isError() || vals[1].isError()) {
        return Value::error();
    }
    if (!(vals[0].type == vals[1].type)) {
        return error(DiagId::IfTypeMismatch, e.range, {exprText(e), vals[0].type.str(), vals[1].type.str()});
    }
    for (int k = 0; k < 2; ++k) {
        ir::Op y;
        y.kind = OpKind::Yield;
        y.operands.push_back(vals[k].id);
        y.range = e.range;
        ifOp.regions[static_cast<size_t>(k)]->ops.push_back(std::move(y));
    }
    ir::ValueId id = newValue(vals[0].type, e.range);
    ifOp.results.push_back(id);
    region().ops.push_back(std::move(ifOp));
    return Value::tensor(id, vals[0].type, vals[0].origin);
}

Value Checker::evalCall(const ast::Expr& e)
{
    Value callee = eval(*e.value);
    if (callee.isError()) {
        return callee;
    }
    CallArgs c;
    c.node = &e;
    c.fn = exprText(*e.value);
    bool bad = false;
    for (const auto& a : e.args) {
        if (a->kind == ExprKind::Starred) {
            return error(DiagId::Unsupported, a->range, {"unpacking arguments with `*`", ""});
        }
        c.args.push_back(eval(*a));
        c.argExprs.push_back(a.get());
        bad = bad || c.args.back().isError();
    }
    for (const auto& k : e.keywords) {
        c.kwargs.emplace_back(k.name, k.value ? eval(*k.value) : Value::none());
        c.kwExprs.push_back(&k);
        bad = bad || c.kwargs.back().second.isError();
    }
    if (bad) {
        return Value::error();
    }
    return callValue(callee, c);
}

Value Checker::condition(const Value& v, const ast::Expr& e, const char* what)
{
    Value t = toTensor(v, e.range);
    if (t.isError()) {
        return t;
    }
    if (!t.type.isScalar()) {
        return error(DiagId::CondNotScalar, e.range, {what, exprText(e), t.type.str()});
    }
    if (t.type.elem == Elem::I1) {
        return t;
    }
    return compare(ast::CmpOpKind::NotEq, t, Value::ofInt(0), &e, nullptr, e.range);
}

} // namespace tkm::triton::sema
