// Control flow as code_generator.py builds it: constexpr `if` folds; a runtime `if` becomes an If whose
// results are the names assigned in its branches (types must agree); `for` over range/tl.range becomes a For
// whose carried values are the names assigned in the body that were defined before it (their dtype and shape
// must not change); tl.static_range unrolls; `while` becomes a While. An early `return` under a runtime `if` in
// the kernel itself puts the rest of the kernel into the other branch.
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
        default: break;
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

bool sameValue(const Value& a, const Value& b)
{
    if (a.kind != b.kind) {
        return false;
    }
    switch (a.kind) {
    case VKind::Tensor: return a.id == b.id;
    case VKind::Int: return a.i == b.i;
    case VKind::Float: return a.f == b.f;
    case VKind::Bool: return a.b == b.b;
    case VKind::Str: return a.s == b.s;
    case VKind::DType: return a.type == b.type;
    case VKind::None:
    case VKind::Error: return true;
    case VKind::JitFn:
    case VKind::PyFn: return a.fn == b.fn;
    case VKind::Module:
    case VKind::Func: return a.s == b.s;
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
    default: return false;
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

} // namespace

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
        if (!sc.isEntry || sc.runtimeIfDepth > 0 || !topLevel) {
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
    for (int k = 0; k < 2; ++k) {
        scope().names = pre;
        scope().fromPlainConst = preConst;
        pushRegion(ifOp.regions[static_cast<size_t>(k)].get());
        ++scope().runtimeIfDepth;
        execBody(k == 0 ? s.body : s.orelse);
        if (rest && !scope().returned) {
            // The kernel continues here when this branch does not return.
            --scope().runtimeIfDepth;
            execBodyFrom(*rest, restFirst);
            ++scope().runtimeIfDepth;
        }
        --scope().runtimeIfDepth;
        scope().returned = false;
        popRegion();
        post[k] = scope().names;
    }
    scope().names = pre;
    scope().fromPlainConst = preConst;
    std::vector<std::string> names;
    std::vector<Value> yields[2];
    if (!rest) {
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
            const ast::Expr* e = k == 0 ? (b.has(1) ? b.e[0] : nullptr) : k == 1 ? (b.has(1) ? b.e[1] : b.e[0]) : b.e[2];
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

void Checker::execRuntimeFor(const ast::Stmt& s, Value lb, Value ub, Value step, const std::vector<SourceRange>& rs)
{
    if (step.kind == VKind::Int && step.i == 0) {
        error(DiagId::RangeStepZero, rs[2], {});
        return;
    }
    Value bounds[3] = {lb, ub, step};
    ir::Elem ivElem = ir::Elem::I32;
    for (int k = 0; k < 3; ++k) {
        bounds[k] = toTensor(bounds[k], rs[static_cast<size_t>(k)]);
        if (bounds[k].isError()) {
            return;
        }
        if (!bounds[k].type.isScalar() || !ir::isInt(bounds[k].type.elem)) {
            error(DiagId::ExpectedInt, rs[static_cast<size_t>(k)], {"a bound of range()", bounds[k].describe()});
            return;
        }
        ivElem = k == 0 ? bounds[k].type.elem : integerPromote(ivElem, bounds[k].type.elem);
    }
    if (ivElem == ir::Elem::I1) {
        ivElem = ir::Elem::I32;
    }
    for (Value& bv : bounds) {
        bv = cast(bv, ivElem, s.iter->range);
    }
    // Carried: names assigned in the body that hold a tensor (or block pointer) before the loop.
    std::vector<std::string> names;
    std::vector<Value> initShapes;
    std::vector<Value> inits;
    const std::string& target = s.targets[0]->id;
    for (const std::string& n : carriedNames(s.body)) {
        auto it = scope().names.find(n);
        if (n == target || it == scope().names.end()) {
            continue;
        }
        Value v = it->second;
        if (v.isNumber()) {
            continue; // a constexpr reassigned in the body is checked after it
        }
        if (v.kind == VKind::BlockPtr) {
            for (Value& e : v.elems) {
                e = toTensor(e, s.range);
            }
        }
        std::vector<Value> parts;
        if (!flatten(v, parts)) {
            continue;
        }
        names.push_back(n);
        initShapes.push_back(v);
        inits.insert(inits.end(), parts.begin(), parts.end());
    }
    ir::Op forOp;
    forOp.kind = OpKind::For;
    forOp.range = s.range;
    forOp.ints.push_back(0);
    for (const Value& bv : bounds) {
        forOp.operands.push_back(bv.id);
    }
    for (const Value& v : inits) {
        forOp.operands.push_back(v.id);
    }
    forOp.regions.push_back(std::make_unique<ir::Region>());
    ir::Region& body = *forOp.regions[0];
    ir::Type ivType;
    ivType.elem = ivElem;
    ir::ValueId iv = newValue(ivType, s.targets[0]->range, target);
    body.args.push_back(iv);
    std::vector<Value> args;
    for (const Value& v : inits) {
        ir::ValueId a = newValue(v.type, v.origin, m_fn.values[static_cast<size_t>(v.id)].name);
        body.args.push_back(a);
        if (m_pidDerived.count(v.id)) {
            m_pidDerived.insert(a);
        }
        if (m_wrapped.count(v.id)) {
            m_wrapped.insert(a);
        }
        args.push_back(Value::tensor(a, v.type, v.origin));
    }
    const std::map<std::string, Value> pre = scope().names;
    size_t pos = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        scope().names[names[i]] = rebuild(initShapes[i], args, pos);
    }
    scope().names[target] = Value::tensor(iv, ivType, s.targets[0]->range);
    scope().fromPlainConst.erase(target);
    if (m_pidDerived.count(bounds[0].id)) {
        m_pidDerived.insert(iv);
    }
    pushRegion(&body);
    ++scope().loopDepth;
    execBody(s.body);
    --scope().loopDepth;
    std::vector<ir::ValueId> yieldIds;
    for (size_t i = 0; i < names.size(); ++i) {
        Value now = scope().names[names[i]];
        std::vector<Value> initParts;
        flatten(initShapes[i], initParts);
        std::vector<Value> parts;
        if (now.isError()) {
            for (const Value& p : initParts) {
                yieldIds.push_back(p.id);
            }
            continue;
        }
        if (now.kind == VKind::BlockPtr) {
            for (Value& e : now.elems) {
                e = toTensor(e, s.range);
            }
        }
        if (now.isNumber()) {
            now = toTensor(now, s.range);
        }
        bool ok = now.kind == initShapes[i].kind && flatten(now, parts) && parts.size() == initParts.size();
        if (!ok) {
            error(DiagId::LoopCarriedKind, s.range, {names[i], initShapes[i].describe()});
            for (const Value& p : initParts) {
                yieldIds.push_back(p.id);
            }
            continue;
        }
        for (size_t k = 0; k < parts.size(); ++k) {
            if (!(parts[k].type == initParts[k].type)) {
                const ir::Type& a = initParts[k].type;
                const ir::Type& b = parts[k].type;
                std::string fix = a.shape != b.shape
                                      ? "initialise it with the shape it has after the body, e.g. tl.zeros(" +
                                            shapeText(b.shape) + ", dtype=" + dtypeName(a) + ")"
                                      : "cast the new value back with `.to(" + dtypeName(a) + ")`, or initialise `" +
                                            names[i] + "` as " + dtypeName(b);
                SourceRange where = m_fn.values[static_cast<size_t>(parts[k].id)].range;
                DiagNote n;
                n.range = m_fn.values[static_cast<size_t>(initParts[k].id)].range;
                n.message = "`" + names[i] + "` enters the loop as " + a.str() + " here";
                error(DiagId::LoopCarriedType, where.begin.line ? where : s.range, {names[i], a.str(), b.str(), fix},
                      {n});
                parts[k] = initParts[k];
            }
            yieldIds.push_back(parts[k].id);
        }
    }
    ir::Op y;
    y.kind = OpKind::Yield;
    y.range = s.range;
    y.operands = yieldIds;
    body.ops.push_back(std::move(y));
    popRegion();
    // After the loop: the names defined before it, with carried ones replaced by the results.
    std::map<std::string, Value> after = pre;
    for (auto& [k, v] : scope().names) {
        auto p = pre.find(k);
        if (p != pre.end() && p->second.isNumber() && !sameValue(p->second, v) && k != target) {
            error(DiagId::LoopCarriedKind, s.range, {k, p->second.describe()});
        }
    }
    std::vector<Value> results;
    for (const Value& v : inits) {
        ir::ValueId r = newValue(v.type, s.range, m_fn.values[static_cast<size_t>(v.id)].name);
        forOp.results.push_back(r);
        if (m_pidDerived.count(v.id)) {
            m_pidDerived.insert(r);
        }
        if (m_wrapped.count(v.id)) {
            m_wrapped.insert(r);
        }
        results.push_back(Value::tensor(r, v.type, v.origin));
    }
    pos = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        after[names[i]] = rebuild(initShapes[i], results, pos);
    }
    auto tp = pre.find(target);
    if (tp != pre.end()) {
        after[target] = tp->second;
    } else {
        after.erase(target);
    }
    scope().names = after;
    region().ops.push_back(std::move(forOp));
}

void Checker::execWhile(const ast::Stmt& s)
{
    std::vector<std::string> names;
    std::vector<Value> initShapes, inits;
    for (const std::string& n : carriedNames(s.body)) {
        auto it = scope().names.find(n);
        if (it == scope().names.end() || it->second.isNumber()) {
            continue;
        }
        Value v = it->second;
        if (v.kind == VKind::BlockPtr) {
            for (Value& e : v.elems) {
                e = toTensor(e, s.range);
            }
        }
        std::vector<Value> parts;
        if (!flatten(v, parts)) {
            continue;
        }
        names.push_back(n);
        initShapes.push_back(v);
        inits.insert(inits.end(), parts.begin(), parts.end());
    }
    ir::Op w;
    w.kind = OpKind::While;
    w.range = s.range;
    for (const Value& v : inits) {
        w.operands.push_back(v.id);
    }
    w.regions.push_back(std::make_unique<ir::Region>());
    w.regions.push_back(std::make_unique<ir::Region>());
    const std::map<std::string, Value> pre = scope().names;
    auto bindArgs = [&](ir::Region& r) {
        std::vector<Value> args;
        for (const Value& v : inits) {
            ir::ValueId a = newValue(v.type, v.origin, m_fn.values[static_cast<size_t>(v.id)].name);
            r.args.push_back(a);
            if (m_pidDerived.count(v.id)) {
                m_pidDerived.insert(a);
            }
            if (m_wrapped.count(v.id)) {
                m_wrapped.insert(a);
            }
            args.push_back(Value::tensor(a, v.type, v.origin));
        }
        size_t pos = 0;
        for (size_t i = 0; i < names.size(); ++i) {
            scope().names[names[i]] = rebuild(initShapes[i], args, pos);
        }
        return args;
    };
    std::vector<Value> beforeArgs = bindArgs(*w.regions[0]);
    pushRegion(w.regions[0].get());
    Value c = eval(*s.test);
    Value cond = c.isError() ? c : condition(c, *s.test, "a `while`");
    ir::Op co;
    co.kind = OpKind::Condition;
    co.range = s.range;
    co.operands.push_back(cond.isError() ? ir::kNoValue : cond.id);
    for (const Value& a : beforeArgs) {
        co.operands.push_back(a.id);
    }
    region().ops.push_back(std::move(co));
    popRegion();
    bindArgs(*w.regions[1]);
    pushRegion(w.regions[1].get());
    ++scope().loopDepth;
    execBody(s.body);
    --scope().loopDepth;
    ir::Op y;
    y.kind = OpKind::Yield;
    y.range = s.range;
    for (size_t i = 0; i < names.size(); ++i) {
        Value now = scope().names[names[i]];
        std::vector<Value> initParts, parts;
        flatten(initShapes[i], initParts);
        if (now.isNumber()) {
            now = toTensor(now, s.range);
        }
        if (now.isError() || now.kind != initShapes[i].kind || !flatten(now, parts) || parts.size() != initParts.size()) {
            if (!now.isError()) {
                error(DiagId::LoopCarriedKind, s.range, {names[i], initShapes[i].describe()});
            }
            parts = initParts;
        }
        for (size_t k = 0; k < parts.size(); ++k) {
            if (!(parts[k].type == initParts[k].type)) {
                error(DiagId::LoopCarriedType, s.range,
                      {names[i], initParts[k].type.str(), parts[k].type.str(),
                       "cast the new value back with `.to(" + dtypeName(initParts[k].type) + ")`"});
                parts[k] = initParts[k];
            }
            y.operands.push_back(parts[k].id);
        }
    }
    region().ops.push_back(std::move(y));
    popRegion();
    std::map<std::string, Value> after = pre;
    std::vector<Value> results;
    for (const Value& v : inits) {
        ir::ValueId r = newValue(v.type, s.range, m_fn.values[static_cast<size_t>(v.id)].name);
        w.results.push_back(r);
        results.push_back(Value::tensor(r, v.type, v.origin));
    }
    size_t pos = 0;
    for (size_t i = 0; i < names.size(); ++i) {
        after[names[i]] = rebuild(initShapes[i], results, pos);
    }
    scope().names = after;
    region().ops.push_back(std::move(w));
}

} // namespace tkm::triton::sema
