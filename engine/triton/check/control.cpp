// Control flow as code_generator.py builds it: constexpr `if` folds; a runtime `if` becomes an If whose
// results are the names assigned in its branches (types must agree); `for` over range/tl.range becomes a For
// whose carried values are the names assigned in the body that were defined before it (their dtype and shape
// must not change, loops.cpp); tl.static_range unrolls; `while` becomes a While. An early `return` under a runtime `if`
// in the kernel itself puts the rest of the kernel into the other branch.
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

namespace tkm::triton::sema {

using ast::StmtKind;
using ir::OpKind;

namespace {

void collectTargets(const ast::Expr& t, std::vector<std::string>& out)
{
    if (t.kind == ast::ExprKind::Name) {
        if (std::find(out.begin(), out.end(), t.id) == out.end()) {
            out.push_back(t.id);
        }
    } else if (t.kind == ast::ExprKind::Tuple || t.kind == ast::ExprKind::List) {
        for (const auto& e : t.elts) {
            collectTargets(*e, out);
        }
    }
}

void collectAssigned(const ast::Body& body, std::vector<std::string>& out)
{
    for (const auto& s : body) {
        switch (s->kind) {
        case StmtKind::Assign:
        case StmtKind::AugAssign:
        case StmtKind::AnnAssign:
        case StmtKind::For:
            for (const auto& t : s->targets) {
                collectTargets(*t, out);
            }
            break;
        default:
            break;
        }
        collectAssigned(s->body, out);
        collectAssigned(s->orelse, out);
    }
}

const ast::Stmt* findReturn(const ast::Body& body)
{
    for (const auto& s : body) {
        if (s->kind == StmtKind::Return) {
            return s.get();
        }
        if (s->kind == StmtKind::If) {
            if (const ast::Stmt* r = findReturn(s->body)) {
                return r;
            }
            if (const ast::Stmt* r = findReturn(s->orelse)) {
                return r;
            }
        }
    }
    return nullptr;
}

} // namespace

bool sameValue(const Value& a, const Value& b)
{
    if (a.kind != b.kind) {
        return false;
    }
    switch (a.kind) {
    case VKind::Tensor:
        return a.id == b.id;
    case VKind::Int:
        return a.i == b.i;
    case VKind::Float:
        return a.f == b.f;
    case VKind::Bool:
        return a.b == b.b;
    case VKind::Str:
        return a.s == b.s;
    case VKind::DType:
        return a.type == b.type;
    case VKind::None:
    case VKind::Error:
        return true;
    case VKind::JitFn:
    case VKind::PyFn:
        return a.fn == b.fn;
    case VKind::Module:
    case VKind::Func:
        return a.s == b.s;
    case VKind::Tuple:
    case VKind::BlockPtr:
        if (a.elems.size() != b.elems.size() || a.blockShape != b.blockShape || a.order != b.order) {
            return false;
        }
        for (size_t i = 0; i < a.elems.size(); ++i) {
            if (!sameValue(a.elems[i], b.elems[i])) {
                return false;
            }
        }
        return true;
    default:
        return false;
    }
}

/// The tensor parts of a value carried through a region (a tensor, or the parts of a block pointer).
bool flatten(const Value& v, std::vector<Value>& out)
{
    if (v.isTensor()) {
        out.push_back(v);
        return true;
    }
    if (v.kind == VKind::BlockPtr || v.kind == VKind::Tuple) {
        for (const Value& e : v.elems) {
            if (!flatten(e, out)) {
                return false;
            }
        }
        return true;
    }
    return false;
}

/// Rebuilds `shape` (a value like the one flattened) from tensor parts starting at `pos`.
Value rebuild(const Value& shape, const std::vector<Value>& parts, size_t& pos)
{
    if (shape.isTensor()) {
        return parts[pos++];
    }
    Value v = shape;
    for (Value& e : v.elems) {
        e = rebuild(e, parts, pos);
    }
    return v;
}

std::vector<std::string> Checker::carriedNames(const ast::Body& body)
{
    std::vector<std::string> out;
    collectAssigned(body, out);
    return out;
}

void Checker::execIf(const ast::Stmt& s, const ast::Body& body, size_t index)
{
    Value c = eval(*s.test);
    if (c.isError()) {
        return;
    }
    if (c.isConstexpr()) {
        execBody(c.truthy() ? s.body : s.orelse);
        return;
    }
    if (c.kind != VKind::Tensor && !c.isNumber()) {
        error(DiagId::OperandTypes, s.test->range, {"if", c.describe(), "a condition", ""});
        return;
    }
    Value cond = condition(c, *s.test, "an `if`");
    if (cond.isError()) {
        return;
    }
    const ast::Stmt* ret = findReturn(s.body);
    if (!ret) {
        ret = findReturn(s.orelse);
    }
    if (ret) {
        const Scope& sc = scope();
        bool topLevel = sc.fn && &body == &sc.fn->body;
        if (sc.loopDepth > 0) {
            error(DiagId::ReturnInLoop, ret->range, {});
            return;
        }
        if (sc.runtimeIfDepth > 0 || !topLevel) {
            error(DiagId::ReturnInIf, ret->range, {});
            return;
        }
        execRuntimeIf(s, cond, &body, index + 1);
        scope().returned = true;
        return;
    }
    execRuntimeIf(s, cond, nullptr, 0);
}

void Checker::execRuntimeIf(const ast::Stmt& s, const Value& cond, const ast::Body* rest, size_t restFirst)
{
    ir::Op ifOp;
    ifOp.kind = OpKind::If;
    ifOp.operands.push_back(cond.id);
    ifOp.range = s.range;
    ifOp.regions.push_back(std::make_unique<ir::Region>());
    ifOp.regions.push_back(std::make_unique<ir::Region>());
    const std::map<std::string, Value> pre = scope().names;
    const std::set<std::string> preConst = scope().fromPlainConst;
    std::map<std::string, Value> post[2];
    Value returned[2];
    for (int k = 0; k < 2; ++k) {
        scope().names = pre;
        scope().fromPlainConst = preConst;
        scope().returnValue = Value::none();
        pushRegion(ifOp.regions[static_cast<size_t>(k)].get());
        ++scope().runtimeIfDepth;
        execBody(k == 0 ? s.body : s.orelse);
        if (rest && !scope().returned) {
            // The function continues here when this branch does not return.
            --scope().runtimeIfDepth;
            execBodyFrom(*rest, restFirst);
            ++scope().runtimeIfDepth;
        }
        --scope().runtimeIfDepth;
        scope().returned = false;
        returned[k] = scope().returnValue;
        popRegion();
        post[k] = scope().names;
    }
    scope().names = pre;
    scope().fromPlainConst = preConst;
    if (rest) {
        // Early return: the If's results are what the function returns on either path.
        scope().returnValue = Value::none();
        if (returned[0].kind != VKind::None || returned[1].kind != VKind::None) {
            std::vector<Value> parts[2];
            bool ok = true;
            for (int k = 0; k < 2; ++k) {
                pushRegion(ifOp.regions[static_cast<size_t>(k)].get());
                Value v = returned[k];
                if (v.isNumber()) {
                    v = toTensor(v, s.range);
                } else if (v.kind == VKind::Tuple) {
                    for (Value& e : v.elems) {
                        e = e.isNumber() ? toTensor(e, s.range) : e;
                    }
                }
                returned[k] = v;
                ok = ok && !v.isError() && flatten(v, parts[k]);
                popRegion();
            }
            ok = ok && parts[0].size() == parts[1].size() && returned[0].kind == returned[1].kind;
            for (size_t i = 0; ok && i < parts[0].size(); ++i) {
                ok = parts[0][i].type == parts[1][i].type;
            }
            if (!ok) {
                if (!returned[0].isError() && !returned[1].isError()) {
                    error(DiagId::ReturnMismatch, s.range, {returned[0].describe(), returned[1].describe()});
                }
                scope().returnValue = Value::error();
            } else {
                for (int k = 0; k < 2; ++k) {
                    ir::Op y;
                    y.kind = OpKind::Yield;
                    y.range = s.range;
                    for (const Value& v : parts[k]) {
                        y.operands.push_back(v.id);
                    }
                    ifOp.regions[static_cast<size_t>(k)]->ops.push_back(std::move(y));
                }
                std::vector<Value> results;
                for (const Value& v : parts[0]) {
                    ir::ValueId id = newValue(v.type, s.range);
                    ifOp.results.push_back(id);
                    results.push_back(Value::tensor(id, v.type, v.origin));
                }
                size_t pos = 0;
                scope().returnValue = rebuild(returned[0], results, pos);
                region().ops.push_back(std::move(ifOp));
                return;
            }
        }
    }
    std::vector<std::string> names;
    std::vector<Value> yields[2];
    if (!rest) {
        for (int k = 0; k < 2; ++k) {
            for (const auto& [name, v] : post[k]) {
                if (!pre.count(name) && !post[1 - k].count(name)) {
                    scope().hidden[name] = std::string("it is only assigned in the ") + (k == 0 ? "`then`" : "`else`") +
                                           " branch of the runtime `if` on line " + std::to_string(s.range.begin.line) +
                                           "; assign it before the `if` or in both branches";
                }
            }
        }
        for (const auto& [name, v0] : post[0]) {
            auto it1 = post[1].find(name);
            if (it1 == post[1].end()) {
                continue; // defined in the then branch only, and not before: not visible after the if
            }
            const Value& v1 = it1->second;
            if (sameValue(v0, v1)) {
                scope().names[name] = v0;
                continue;
            }
            if (v0.isError() || v1.isError()) {
                scope().names[name] = Value::error();
                continue;
            }
            bool tensorish0 = v0.isTensor() || v0.isNumber();
            bool tensorish1 = v1.isTensor() || v1.isNumber();
            if (!tensorish0 || !tensorish1) {
                error(DiagId::IfKindMismatch, s.range, {name, v0.describe(), v1.describe()});
                scope().names[name] = Value::error();
                continue;
            }
            Value t[2];
            for (int k = 0; k < 2; ++k) {
                pushRegion(ifOp.regions[static_cast<size_t>(k)].get());
                const Value& v = k == 0 ? v0 : v1;
                t[k] = toTensor(v, s.range);
                popRegion();
            }
            if (!(t[0].type == t[1].type)) {
                error(DiagId::IfTypeMismatch, s.range, {name, t[0].type.str(), t[1].type.str()},
                      {shapeNote(name + "` in the then branch", t[0]), shapeNote(name + "` in the else branch", t[1])});
                scope().names[name] = Value::error();
                continue;
            }
            names.push_back(name);
            yields[0].push_back(t[0]);
            yields[1].push_back(t[1]);
        }
    }
    for (int k = 0; k < 2; ++k) {
        ir::Op y;
        y.kind = OpKind::Yield;
        y.range = s.range;
        for (const Value& v : yields[k]) {
            y.operands.push_back(v.id);
        }
        ifOp.regions[static_cast<size_t>(k)]->ops.push_back(std::move(y));
    }
    for (size_t i = 0; i < names.size(); ++i) {
        ir::ValueId id = newValue(yields[0][i].type, s.range, names[i]);
        ifOp.results.push_back(id);
        scope().names[names[i]] = Value::tensor(id, yields[0][i].type, yields[0][i].origin);
    }
    region().ops.push_back(std::move(ifOp));
}

void Checker::execFor(const ast::Stmt& s)
{
    const ast::Expr& it = *s.iter;
    if (it.kind != ast::ExprKind::Call) {
        Value v = eval(it);
        if (!v.isError()) {
            error(DiagId::ForIter, it.range, {"`" + exprText(it) + "` (" + v.describe() + ")"});
        }
        return;
    }
    Value callee = eval(*it.value);
    if (callee.isError()) {
        return;
    }
    if (callee.kind != VKind::Func ||
        (callee.s != "range" && callee.s != "tl.range" && callee.s != "tl.static_range")) {
        error(DiagId::ForIter, it.range, {"`" + exprText(it) + "`"});
        return;
    }
    CallArgs c;
    c.node = &it;
    c.fn = callee.s;
    for (const auto& a : it.args) {
        c.args.push_back(eval(*a));
        c.argExprs.push_back(a.get());
        if (c.args.back().isError()) {
            return;
        }
    }
    for (const auto& k : it.keywords) {
        c.kwargs.emplace_back(k.name, k.value ? eval(*k.value) : Value::none());
        c.kwExprs.push_back(&k);
        if (c.kwargs.back().second.isError()) {
            return;
        }
    }
    Bound b;
    if (callee.s == "range") {
        if (!bind(c, "range", {"start", "stop", "step"}, 1, b)) {
            return;
        }
    } else if (callee.s == "tl.static_range") {
        if (!bind(c, "tl.static_range", {"arg1", "arg2", "step"}, 1, b)) {
            return;
        }
    } else if (!bind(c, "tl.range",
                     {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor", "disallow_acc_multi_buffer",
                      "flatten", "warp_specialize", "disable_licm"},
                     1, b)) {
        return;
    }
    Value lb = Value::ofInt(0), ub = b.v[0], step = Value::ofInt(1);
    std::vector<SourceRange> rs{b.r[0], b.r[0], b.r[0]};
    if (b.has(1) && b.v[1].kind != VKind::None) {
        lb = b.v[0];
        ub = b.v[1];
        rs = {b.r[0], b.r[1], b.r[1]};
    }
    if (b.has(2) && b.v[2].kind != VKind::None) {
        step = b.v[2];
        rs[2] = b.r[2];
    }
    if (s.targets.empty() || s.targets[0]->kind != ast::ExprKind::Name) {
        error(DiagId::Unsupported, s.range, {"a `for` target that is not a single name", ""});
        return;
    }
    if (callee.s == "tl.static_range") {
        std::vector<Value> iters;
        for (int k = 0; k < 3; ++k) {
            const Value& v = k == 0 ? lb : k == 1 ? ub : step;
            const ast::Expr* e = k == 0   ? (b.has(1) ? b.e[0] : nullptr)
                                 : k == 1 ? (b.has(1) ? b.e[1] : b.e[0])
                                          : b.e[2];
            if (v.isTensor()) {
                if (e && e->kind == ast::ExprKind::Name && scope().runtimeParams.count(e->id)) {
                    error(DiagId::NotConstexprParam, e->range, {e->id});
                } else {
                    error(DiagId::StaticRangeNotConst, e ? e->range : s.iter->range, {e ? exprText(*e) : "?"});
                }
                return;
            }
            if (v.kind != VKind::Int && v.kind != VKind::Bool) {
                error(DiagId::ExpectedInt, e ? e->range : s.iter->range, {"a bound of tl.static_range", v.describe()});
                return;
            }
        }
        if (step.i == 0) {
            error(DiagId::RangeStepZero, rs[2], {});
            return;
        }
        for (int64_t i = lb.i; step.i > 0 ? i < ub.i : i > ub.i; i += step.i) {
            iters.push_back(Value::ofInt(i));
        }
        execStaticFor(s, iters);
        return;
    }
    execRuntimeFor(s, lb, ub, step, rs);
}

void Checker::execStaticFor(const ast::Stmt& s, const std::vector<Value>& iters)
{
    for (const Value& v : iters) {
        assign(s.targets[0]->id, v);
        execBody(s.body);
        if (scope().returned) {
            return;
        }
    }
}

} // namespace tkm::triton::sema
