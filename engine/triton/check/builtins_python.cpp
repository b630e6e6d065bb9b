// The Python builtins a kernel may call, as code_generator.py treats them (min/max fold on constexprs and
// become tl.minimum/tl.maximum on tensors; float('inf'), int(), abs(), len()), tl.constexpr(), tl.cdiv and
// triton.cdiv / triton.next_power_of_2 on constexprs, and range() outside a `for` header (refused).
#include "engine/triton/check/checker_impl.h"

#include <cctype>
#include <cmath>
#include <limits>

namespace tkm::triton::sema {

namespace {

std::string exprOr(const ast::Expr* e, const std::string& dflt)
{
    return e ? exprText(*e) : dflt;
}

} // namespace

Value Checker::biConstexpr(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.constexpr", {"value"}, 1, b)) {
        return Value::error();
    }
    if (!b.v[0].isConstexpr()) {
        return notConstexpr(b.e[0], b.r[0], "the argument of tl.constexpr", b.v[0]);
    }
    return b.v[0];
}

Value Checker::biCdiv(CallArgs& c, bool triton)
{
    Bound b;
    if (!bind(c, triton ? "triton.cdiv" : "tl.cdiv", {"x", "div"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Value s = binary(ast::BinOpKind::Add, b.v[0], b.v[1], b.e[0], b.e[1], r);
    s = binary(ast::BinOpKind::Sub, s, Value::ofInt(1), nullptr, nullptr, r);
    return binary(ast::BinOpKind::FloorDiv, s, b.v[1], nullptr, b.e[1], r);
}

Value Checker::biNextPow2(CallArgs& c)
{
    Bound b;
    if (!bind(c, "triton.next_power_of_2", {"n"}, 1, b)) {
        return Value::error();
    }
    auto n = constInt(b.v[0], b.e[0], b.r[0], "the argument of triton.next_power_of_2");
    if (!n) {
        return Value::error();
    }
    return Value::ofInt(nextPow2(std::max<int64_t>(*n, 1)));
}

Value Checker::biPyMinMax(CallArgs& c, bool isMax)
{
    std::vector<Value> vals = c.args;
    if (vals.size() == 1 && vals[0].kind == VKind::Tuple) {
        vals = vals[0].elems;
    }
    if (vals.empty()) {
        return error(DiagId::MissingArg, c.node->range, {isMax ? "max" : "min", "args"});
    }
    bool allConst = true;
    for (const Value& v : vals) {
        allConst = allConst && v.isNumber();
    }
    if (allConst) {
        Value best = vals[0];
        for (size_t i = 1; i < vals.size(); ++i) {
            bool better = isMax ? vals[i].asDouble() > best.asDouble() : vals[i].asDouble() < best.asDouble();
            if (better) {
                best = vals[i];
            }
        }
        return best;
    }
    // On tensors Triton's code generator maps min/max to tl.minimum/tl.maximum.
    Value acc = vals[0];
    for (size_t i = 1; i < vals.size(); ++i) {
        CallArgs two;
        two.node = c.node;
        two.fn = isMax ? "max" : "min";
        two.args = {acc, vals[i]};
        two.argExprs = {i == 1 && !c.argExprs.empty() ? c.argExprs[0] : nullptr,
                        i < c.argExprs.size() ? c.argExprs[i] : nullptr};
        acc = biMinMaxElt(two, isMax);
        if (acc.isError()) {
            return acc;
        }
    }
    return acc;
}

Value Checker::biPyConv(CallArgs& c, const std::string& which)
{
    if (c.args.size() != 1 || !c.kwargs.empty()) {
        return error(DiagId::TooManyArgs, c.node->range, {which + "()", "1", std::to_string(c.args.size())});
    }
    const Value& v = c.args[0];
    if (v.kind == VKind::Str && which == "float") {
        std::string s = v.s;
        for (char& ch : s) {
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        if (s == "inf" || s == "+inf" || s == "infinity") {
            return Value::ofFloat(std::numeric_limits<double>::infinity());
        }
        if (s == "-inf" || s == "-infinity") {
            return Value::ofFloat(-std::numeric_limits<double>::infinity());
        }
        if (s == "nan") {
            return Value::ofFloat(std::numeric_limits<double>::quiet_NaN());
        }
        try {
            return Value::ofFloat(std::stod(s));
        } catch (...) {
            return error(DiagId::ExpectedInt, c.node->range, {"float()", v.describe()});
        }
    }
    if (!v.isNumber()) {
        if (v.isTensor()) {
            std::string dt = which == "float" ? "tl.float32" : which == "int" ? "tl.int32" : "tl.int1";
            return error(
                DiagId::Unsupported, c.node->range,
                {which + "() of a tensor", ": convert with " + exprOr(c.argExprs[0], "x") + ".to(" + dt + ")"});
        }
        return error(DiagId::ExpectedInt, c.node->range, {which + "()", v.describe()});
    }
    if (which == "float") {
        return Value::ofFloat(v.asDouble());
    }
    if (which == "bool") {
        return Value::ofBool(v.truthy());
    }
    return Value::ofInt(v.kind == VKind::Float ? static_cast<int64_t>(std::trunc(v.f))
                                               : static_cast<int64_t>(v.asDouble()));
}

Value Checker::biPyAbs(CallArgs& c)
{
    if (c.args.size() != 1) {
        return error(DiagId::TooManyArgs, c.node->range, {"abs()", "1", std::to_string(c.args.size())});
    }
    const Value& v = c.args[0];
    if (v.kind == VKind::Int) {
        return Value::ofInt(v.i < 0 ? -v.i : v.i);
    }
    if (v.kind == VKind::Float) {
        return Value::ofFloat(std::fabs(v.f));
    }
    return biMath(c, "abs");
}

Value Checker::biPyLen(CallArgs& c)
{
    if (c.args.size() != 1) {
        return error(DiagId::TooManyArgs, c.node->range, {"len()", "1", std::to_string(c.args.size())});
    }
    const Value& v = c.args[0];
    if (v.kind == VKind::Tuple) {
        return Value::ofInt(static_cast<int64_t>(v.elems.size()));
    }
    if (v.kind == VKind::Str) {
        return Value::ofInt(static_cast<int64_t>(v.s.size()));
    }
    if (v.isTensor() && !v.type.isScalar()) {
        return Value::ofInt(v.type.shape[0]);
    }
    return error(DiagId::Unsupported, c.node->range, {"len() of " + v.describe(), ""});
}

Value Checker::biRange(CallArgs& c)
{
    return error(DiagId::Unsupported, c.node->range, {"`" + c.fn + "(…)` outside the header of a `for` loop", ""});
}

} // namespace tkm::triton::sema
