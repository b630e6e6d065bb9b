// Calls: builtins by qualified name (one table), tensor and dtype methods, jit helpers inlined at each call
// (fresh scope, constexpr arguments folded, defaults, tuple returns) and the binding of arguments to a
// builtin's parameter list with the errors Python would give (unknown keyword, too many, missing).
#include "engine/triton/check/checker_impl.h"

#include <cmath>
#include <functional>

namespace tkm::triton::sema {

using ir::Elem;

namespace {

using Handler = std::function<Value(Checker&, CallArgs&)>;

const std::map<std::string, Handler>& handlers()
{
    static const std::map<std::string, Handler> m = [] {
        std::map<std::string, Handler> h;
        h["tl.program_id"] = [](Checker& k, CallArgs& c) { return k.biProgramId(c, false); };
        h["tl.num_programs"] = [](Checker& k, CallArgs& c) { return k.biProgramId(c, true); };
        h["tl.arange"] = [](Checker& k, CallArgs& c) { return k.biArange(c); };
        h["tl.zeros"] = [](Checker& k, CallArgs& c) { return k.biFull(c, 0); };
        h["tl.full"] = [](Checker& k, CallArgs& c) { return k.biFull(c, 1); };
        h["tl.zeros_like"] = [](Checker& k, CallArgs& c) { return k.biFull(c, 2); };
        h["tl.full_like"] = [](Checker& k, CallArgs& c) { return k.biFull(c, 3); };
        h["tl.load"] = [](Checker& k, CallArgs& c) { return k.biLoad(c); };
        h["tl.store"] = [](Checker& k, CallArgs& c) { return k.biStore(c); };
        h["tl.where"] = [](Checker& k, CallArgs& c) { return k.biWhere(c); };
        h["tl.cast"] = [](Checker& k, CallArgs& c) { return k.biCast(c, false); };
        h["tl.multiple_of"] = [](Checker& k, CallArgs& c) { return k.biHint(c); };
        h["tl.max_contiguous"] = [](Checker& k, CallArgs& c) { return k.biHint(c); };
        h["tl.max_constancy"] = [](Checker& k, CallArgs& c) { return k.biHint(c); };
        h["tl.static_assert"] = [](Checker& k, CallArgs& c) { return k.biStaticAssert(c); };
        h["tl.device_print"] = [](Checker& k, CallArgs& c) { return k.biPrint(c, 0); };
        h["print"] = [](Checker& k, CallArgs& c) { return k.biPrint(c, 1); };
        h["tl.static_print"] = [](Checker& k, CallArgs& c) { return k.biPrint(c, 2); };
        h["tl.device_assert"] = [](Checker& k, CallArgs& c) { return k.biDeviceAssert(c); };
        h["tl.debug_barrier"] = [](Checker&, CallArgs&) { return Value::none(); };
        h["tl.constexpr"] = [](Checker& k, CallArgs& c) { return k.biConstexpr(c); };
        h["tl.cdiv"] = [](Checker& k, CallArgs& c) { return k.biCdiv(c, false); };
        h["triton.cdiv"] = [](Checker& k, CallArgs& c) { return k.biCdiv(c, true); };
        h["triton.next_power_of_2"] = [](Checker& k, CallArgs& c) { return k.biNextPow2(c); };
        h["min"] = [](Checker& k, CallArgs& c) { return k.biPyMinMax(c, false); };
        h["max"] = [](Checker& k, CallArgs& c) { return k.biPyMinMax(c, true); };
        for (const char* n : {"float", "int", "bool"}) {
            std::string s = n;
            h[s] = [s](Checker& k, CallArgs& c) { return k.biPyConv(c, s); };
        }
        h["abs"] = [](Checker& k, CallArgs& c) { return k.biPyAbs(c); };
        h["len"] = [](Checker& k, CallArgs& c) { return k.biPyLen(c); };
        for (const char* n : {"exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "abs", "floor", "ceil", "sin",
                              "cos", "erf", "sigmoid", "tanh"}) {
            std::string s = n;
            h["tl." + s] = [s](Checker& k, CallArgs& c) { return k.biMath(c, s); };
        }
        h["tl.maximum"] = [](Checker& k, CallArgs& c) { return k.biMinMaxElt(c, true); };
        h["tl.minimum"] = [](Checker& k, CallArgs& c) { return k.biMinMaxElt(c, false); };
        h["tl.fma"] = [](Checker& k, CallArgs& c) { return k.biFma(c); };
        h["tl.umulhi"] = [](Checker& k, CallArgs& c) { return k.biUmulhi(c); };
        for (const char* n : {"sum", "max", "min", "argmax", "argmin", "xor_sum"}) {
            std::string s = n;
            h["tl." + s] = [s](Checker& k, CallArgs& c) { return k.biReduce(c, s); };
        }
        h["tl.cumsum"] = [](Checker& k, CallArgs& c) { return k.biCumsum(c, "sum"); };
        h["tl.cumprod"] = [](Checker& k, CallArgs& c) { return k.biCumsum(c, "prod"); };
        h["tl.dot"] = [](Checker& k, CallArgs& c) { return k.biDot(c); };
        h["tl.trans"] = [](Checker& k, CallArgs& c) { return k.biTrans(c, false); };
        h["tl.permute"] = [](Checker& k, CallArgs& c) { return k.biTrans(c, true); };
        h["tl.reshape"] = [](Checker& k, CallArgs& c) { return k.biReshape(c); };
        h["tl.view"] = [](Checker& k, CallArgs& c) { return k.biReshape(c); };
        h["tl.ravel"] = [](Checker& k, CallArgs& c) { return k.biReshape(c); };
        h["tl.expand_dims"] = [](Checker& k, CallArgs& c) { return k.biExpandDims(c); };
        h["tl.broadcast_to"] = [](Checker& k, CallArgs& c) { return k.biBroadcastTo(c); };
        h["tl.broadcast"] = [](Checker& k, CallArgs& c) { return k.biBroadcast(c); };
        h["tl.make_block_ptr"] = [](Checker& k, CallArgs& c) { return k.biMakeBlockPtr(c); };
        h["tl.advance"] = [](Checker& k, CallArgs& c) { return k.biAdvance(c); };
        for (const char* n : {"add", "max", "min", "and", "or", "xor", "xchg", "cas"}) {
            std::string s = n;
            h["tl.atomic_" + s] = [s](Checker& k, CallArgs& c) { return k.biAtomic(c, s); };
        }
        h["tl.join"] = [](Checker& k, CallArgs& c) { return k.biJoinCat(c, true); };
        h["tl.cat"] = [](Checker& k, CallArgs& c) { return k.biJoinCat(c, false); };
        h["tl.softmax"] = [](Checker& k, CallArgs& c) { return k.biSoftmax(c); };
        h["tl.range"] = [](Checker& k, CallArgs& c) { return k.biRange(c); };
        h["tl.static_range"] = [](Checker& k, CallArgs& c) { return k.biRange(c); };
        h["range"] = [](Checker& k, CallArgs& c) { return k.biRange(c); };
        return h;
    }();
    return m;
}

} // namespace

bool Checker::isTlFunction(const std::string& name) const
{
    return handlers().count("tl." + name) > 0;
}

std::vector<std::string> Checker::tlFunctionNames() const
{
    std::vector<std::string> out;
    for (const auto& [k, v] : handlers()) {
        if (k.rfind("tl.", 0) == 0) {
            out.push_back(k.substr(3));
        }
    }
    for (const char* d : {"float16", "bfloat16", "float32", "float64", "int1", "int8", "int16", "int32", "int64",
                          "uint8", "uint16", "uint32", "uint64", "constexpr"}) {
        out.push_back(d);
    }
    return out;
}

Value Checker::callValue(const Value& callee, CallArgs& c)
{
    switch (callee.kind) {
    case VKind::Func: {
        c.fn = callee.s;
        return callBuiltin(callee.s, c);
    }
    case VKind::Method:
        return callMethod(callee, c);
    case VKind::JitFn:
        return callJit(*callee.fn, c);
    case VKind::PyFn:
        return error(DiagId::NonJitCall, c.node->range, {callee.fn->name});
    case VKind::DType: {
        // tl.float32(x) is not a conversion in Triton; say what is.
        return error(DiagId::NotCallable, c.node->range,
                     {callee.describe() + " (convert with x.to(" + callee.describe() + "))"});
    }
    default:
        return error(DiagId::NotCallable, c.node->range, {callee.describe()});
    }
}

Value Checker::callBuiltin(const std::string& name, CallArgs& c)
{
    if (name.rfind("math.", 0) == 0) {
        if (c.args.size() != 1 || !c.args[0].isNumber()) {
            return error(DiagId::ExpectedInt, c.node->range,
                         {name + "() (Python's math, folded at compile time) takes one constexpr number, got",
                          c.args.empty() ? std::string("nothing") : c.args[0].describe()});
        }
        double x = c.args[0].asDouble();
        const std::string f = name.substr(5);
        if (f == "ceil" || f == "floor") {
            return Value::ofInt(static_cast<int64_t>(f == "ceil" ? std::ceil(x) : std::floor(x)));
        }
        double y = f == "log"     ? std::log(x)
                   : f == "log2"  ? std::log2(x)
                   : f == "log10" ? std::log10(x)
                   : f == "exp"   ? std::exp(x)
                   : f == "sqrt"  ? std::sqrt(x)
                                  : std::fabs(x);
        return Value::ofFloat(y);
    }
    auto it = handlers().find(name);
    if (it == handlers().end()) {
        if (name == "triton.jit" || name == "tl.tensor" || name == "tl.pointer_type" || name == "tl.dtype") {
            return error(DiagId::Unsupported, c.node->range, {"calling `" + name + "` inside a kernel", ""});
        }
        return error(DiagId::Unsupported, c.node->range, {"`" + name + "`", ""});
    }
    if (name.rfind("tl.math.", 0) == 0) {
        c.fn = "tl." + name.substr(8);
    }
    return it->second(*this, c);
}

Value Checker::callMethod(const Value& m, CallArgs& c)
{
    const Value& self = m.elems[0];
    if (self.kind == VKind::DType) {
        if (!c.args.empty() || !c.kwargs.empty()) {
            return error(DiagId::TooManyArgs, c.node->range, {m.s + "()", "0", std::to_string(c.args.size())});
        }
        Elem e = self.type.elem;
        const std::string& n = m.s;
        bool r = false;
        if (n == "is_floating" || n == "is_standard_floating") {
            r = ir::isFloat(e);
        } else if (n == "is_int") {
            r = ir::isInt(e);
        } else if (n == "is_int_signed") {
            r = e == Elem::I1 || e == Elem::I8 || e == Elem::I16 || e == Elem::I32 || e == Elem::I64;
        } else if (n == "is_int_unsigned") {
            r = e == Elem::U8 || e == Elem::U16 || e == Elem::U32 || e == Elem::U64;
        } else if (n == "is_ptr") {
            r = e == Elem::Ptr;
        } else if (n == "is_bool" || n == "is_int1") {
            r = e == Elem::I1;
        } else {
            static const std::map<std::string, Elem> m2 = {
                {"is_fp16", Elem::F16}, {"is_bf16", Elem::BF16},  {"is_fp32", Elem::F32},   {"is_fp64", Elem::F64},
                {"is_int8", Elem::I8},  {"is_int16", Elem::I16},  {"is_int32", Elem::I32},  {"is_int64", Elem::I64},
                {"is_uint8", Elem::U8}, {"is_uint16", Elem::U16}, {"is_uint32", Elem::U32}, {"is_uint64", Elem::U64}};
            auto it = m2.find(n);
            r = it != m2.end() && it->second == e;
        }
        return Value::ofBool(r);
    }
    if (m.s == "to") {
        c.fn = "x.to";
        c.args.insert(c.args.begin(), self);
        c.argExprs.insert(c.argExprs.begin(), c.node->value ? c.node->value->value.get() : nullptr);
        return biCast(c, true);
    }
    std::string name = m.s == "logical_and" || m.s == "logical_or" ? m.s : "tl." + m.s;
    if (m.s == "logical_and" || m.s == "logical_or") {
        if (c.args.size() != 1) {
            return error(DiagId::MissingArg, c.node->range, {m.s, "other"});
        }
        return logical(m.s == "logical_and", self, c.args[0], nullptr, c.argExprs[0], c.node->range);
    }
    c.fn = name;
    c.args.insert(c.args.begin(), self);
    c.argExprs.insert(c.argExprs.begin(), c.node->value ? c.node->value->value.get() : nullptr);
    return callBuiltin(name, c);
}

bool Checker::bind(const CallArgs& c, const std::string& fnName, const std::vector<const char*>& params,
                   size_t required, Bound& out)
{
    out.v.assign(params.size(), Value::absent());
    out.e.assign(params.size(), nullptr);
    out.r.assign(params.size(), c.node->range);
    if (c.args.size() > params.size()) {
        error(DiagId::TooManyArgs, c.argExprs[params.size()] ? c.argExprs[params.size()]->range : c.node->range,
              {fnName, std::to_string(params.size()), std::to_string(c.args.size())});
        return false;
    }
    for (size_t i = 0; i < c.args.size(); ++i) {
        out.v[i] = c.args[i];
        out.e[i] = c.argExprs[i];
        if (c.argExprs[i]) {
            out.r[i] = c.argExprs[i]->range;
        }
    }
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        const std::string& name = c.kwargs[k].first;
        size_t idx = params.size();
        for (size_t p = 0; p < params.size(); ++p) {
            if (name == params[p]) {
                idx = p;
            }
        }
        if (idx == params.size()) {
            std::vector<std::string> names(params.begin(), params.end());
            std::string best = closestName(name, names);
            std::string list;
            for (size_t p = 0; p < params.size(); ++p) {
                list += (p ? ", " : "") + std::string(params[p]);
            }
            std::string tail = best.empty() ? ": its parameters are " + list
                                            : ": did you mean `" + best + "`? Its parameters are " + list;
            error(DiagId::BadKeyword, c.kwExprs[k]->range, {fnName, name, tail});
            return false;
        }
        out.v[idx] = c.kwargs[k].second;
        out.e[idx] = c.kwExprs[k]->value.get();
        out.r[idx] = c.kwExprs[k]->range;
    }
    for (size_t p = 0; p < required; ++p) {
        if (!out.has(p)) {
            error(DiagId::MissingArg, c.node->range, {fnName, params[p]});
            return false;
        }
    }
    return true;
}

Value Checker::notConstexpr(const ast::Expr* e, SourceRange r, const std::string& what, const Value& v)
{
    if (e && e->kind == ast::ExprKind::Name) {
        if (scope().runtimeParams.count(e->id)) {
            return error(DiagId::NotConstexprParam, e->range, {e->id});
        }
        if (scope().fromPlainConst.count(e->id)) {
            return error(DiagId::NotConstexprLocal, e->range, {e->id});
        }
    }
    return error(DiagId::NotConstexpr, e ? e->range : r, {what, e ? exprText(*e) : "it", v.describe()});
}

std::optional<int64_t> Checker::constInt(const Value& v, const ast::Expr* e, SourceRange r, const std::string& what)
{
    if (v.isError()) {
        return std::nullopt;
    }
    if (v.kind == VKind::Int) {
        return v.i;
    }
    if (v.kind == VKind::Bool) {
        return v.b ? 1 : 0;
    }
    if (v.isTensor()) {
        notConstexpr(e, r, what, v);
        return std::nullopt;
    }
    error(DiagId::ExpectedInt, e ? e->range : r, {what, v.describe()});
    return std::nullopt;
}

std::optional<std::vector<int64_t>> Checker::constShape(const Value& v, const ast::Expr* e, SourceRange r,
                                                        const std::string& what)
{
    std::vector<int64_t> shape;
    if (v.kind == VKind::Tuple) {
        for (size_t i = 0; i < v.elems.size(); ++i) {
            const Value& d = v.elems[i];
            const ast::Expr* de = nullptr;
            if (e && (e->kind == ast::ExprKind::Tuple || e->kind == ast::ExprKind::List) && i < e->elts.size()) {
                de = e->elts[i].get();
            }
            if (d.isTensor()) {
                if (de && de->kind == ast::ExprKind::Name &&
                    (scope().runtimeParams.count(de->id) || scope().fromPlainConst.count(de->id))) {
                    notConstexpr(de, r, what, d);
                } else {
                    error(DiagId::ShapeNotConstexpr, de ? de->range : r, {what, de ? exprText(*de) : d.describe()});
                }
                return std::nullopt;
            }
            auto k = constInt(d, de, r, what);
            if (!k) {
                return std::nullopt;
            }
            shape.push_back(*k);
        }
    } else {
        auto k = constInt(v, e, r, what);
        if (!k) {
            return std::nullopt;
        }
        shape.push_back(*k);
    }
    int64_t n = 1;
    for (int64_t d : shape) {
        if (!isPow2(d)) {
            error(DiagId::ShapeNotPow2, e ? e->range : r,
                  {shapeText(shape), std::to_string(d), std::to_string(nextPow2(std::max<int64_t>(d, 1)))});
            return std::nullopt;
        }
        n *= d;
    }
    if (n > (1 << 20)) {
        error(DiagId::TooManyElements, e ? e->range : r, {std::to_string(n)});
        return std::nullopt;
    }
    return shape;
}

std::optional<ir::Type> Checker::dtypeArg(const Value& v, SourceRange r, const std::string& what)
{
    if (v.isError()) {
        return std::nullopt;
    }
    if (v.kind != VKind::DType) {
        error(DiagId::ExpectedDType, r, {what, v.describe()});
        return std::nullopt;
    }
    return v.type;
}

Value Checker::callJit(const ast::FunctionDef& fn, CallArgs& c)
{
    for (const ast::FunctionDef* f : m_callStack) {
        if (f == &fn) {
            return error(DiagId::JitRecursion, c.node->range, {fn.name});
        }
    }
    if (c.args.size() > fn.params.size()) {
        return error(DiagId::JitArity, c.node->range,
                     {fn.name, std::to_string(fn.params.size()), std::to_string(c.args.size())});
    }
    Scope s;
    s.fn = &fn;
    std::vector<bool> set(fn.params.size(), false);
    for (size_t i = 0; i < c.args.size(); ++i) {
        s.names[fn.params[i].name] = c.args[i];
        set[i] = true;
    }
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        size_t idx = fn.params.size();
        for (size_t p = 0; p < fn.params.size(); ++p) {
            if (fn.params[p].name == c.kwargs[k].first) {
                idx = p;
            }
        }
        if (idx == fn.params.size()) {
            return error(DiagId::JitUnknownKeyword, c.kwExprs[k]->range, {fn.name, c.kwargs[k].first});
        }
        s.names[fn.params[idx].name] = c.kwargs[k].second;
        set[idx] = true;
    }
    for (size_t p = 0; p < fn.params.size(); ++p) {
        if (set[p]) {
            continue;
        }
        if (!fn.params[p].defaultValue) {
            if (c.args.size() + c.kwargs.size() < fn.params.size()) {
                return error(
                    DiagId::JitArity, c.node->range,
                    {fn.name, std::to_string(fn.params.size()), std::to_string(c.args.size() + c.kwargs.size())});
            }
            return error(DiagId::JitMissingArg, c.node->range, {fn.name, fn.params[p].name});
        }
        Value d = eval(*fn.params[p].defaultValue);
        if (d.isError()) {
            return d;
        }
        s.names[fn.params[p].name] = d;
    }
    m_scopes.push_back(std::move(s));
    m_callStack.push_back(&fn);
    execBody(fn.body);
    Value ret = scope().returnValue;
    m_callStack.pop_back();
    m_scopes.pop_back();
    return ret;
}

} // namespace tkm::triton::sema
