// Runtime loops: `for` over range/tl.range becomes a For whose carried values are the names assigned in the
// body that hold a tensor (or block pointer) before it; their dtype and shape must not change across an
// iteration (code_generator.py's loop-carried check, with a better message). `while` becomes a While with a
// before-region ending in Condition and an after-region ending in Yield. Names first assigned inside a loop
// are not visible after it, as in Triton.
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

namespace tkm::triton::sema {

using ir::OpKind;

Carried Checker::collectCarried(const ast::Body& body, const std::string& exclude, SourceRange r)
{
    Carried c;
    for (const std::string& n : carriedNames(body)) {
        auto it = scope().names.find(n);
        if (n == exclude || it == scope().names.end() || it->second.isNumber()) {
            continue; // a constexpr reassigned in the body is checked after it
        }
        Value v = it->second;
        if (v.kind == VKind::BlockPtr) {
            for (Value& e : v.elems) {
                e = toTensor(e, r);
            }
        }
        std::vector<Value> parts;
        if (!flatten(v, parts)) {
            continue;
        }
        c.names.push_back(n);
        c.shapes.push_back(v);
        c.inits.insert(c.inits.end(), parts.begin(), parts.end());
    }
    return c;
}

std::vector<Value> Checker::bindCarriedArgs(ir::Region& region, const Carried& c)
{
    std::vector<Value> args;
    for (const Value& v : c.inits) {
        ir::ValueId a = newValue(v.type, v.origin, m_fn.values[static_cast<size_t>(v.id)].name);
        region.args.push_back(a);
        for (std::set<ir::ValueId>* taint : {&m_pidDerived, &m_wrapped, &m_pidBlock}) {
            if (taint->count(v.id)) {
                taint->insert(a);
            }
        }
        args.push_back(Value::tensor(a, v.type, v.origin));
    }
    size_t pos = 0;
    for (size_t i = 0; i < c.names.size(); ++i) {
        scope().names[c.names[i]] = rebuild(c.shapes[i], args, pos);
    }
    return args;
}

std::vector<ir::ValueId> Checker::carriedYields(const Carried& c, SourceRange r, std::set<std::string>& bad)
{
    std::vector<ir::ValueId> ids;
    for (size_t i = 0; i < c.names.size(); ++i) {
        const std::string& name = c.names[i];
        int errorsBefore = m_errors;
        Value now = scope().names[name];
        std::vector<Value> initParts;
        flatten(c.shapes[i], initParts);
        if (now.kind == VKind::BlockPtr) {
            for (Value& e : now.elems) {
                e = toTensor(e, r);
            }
        }
        if (now.isNumber()) {
            now = toTensor(now, r);
        }
        std::vector<Value> parts;
        bool ok =
            !now.isError() && now.kind == c.shapes[i].kind && flatten(now, parts) && parts.size() == initParts.size();
        if (!ok) {
            if (!now.isError()) {
                error(DiagId::LoopCarriedKind, r, {name, c.shapes[i].describe()});
            }
            bad.insert(name);
            for (const Value& p : initParts) {
                ids.push_back(p.id);
            }
            continue;
        }
        for (size_t k = 0; k < parts.size(); ++k) {
            const ir::Type& a = initParts[k].type;
            const ir::Type& b = parts[k].type;
            if (!(a == b)) {
                std::string fix = b.shape.empty() && !a.shape.empty()
                                      ? "to carry a scalar, initialise it as one before the loop (e.g. `" + name +
                                            " = 0.0`), or keep the tile in the loop and reduce it after the loop"
                                  : a.shape != b.shape
                                      ? "initialise it with the shape it has after the body, e.g. tl.zeros(" +
                                            shapeText(b.shape) + ", dtype=" + dtypeName(a) + ")"
                                      : "cast the new value back with `.to(" + dtypeName(a) + ")`, or initialise `" +
                                            name + "` as " + dtypeName(b);
                SourceRange where = m_fn.values[static_cast<size_t>(parts[k].id)].range;
                DiagNote n;
                n.range = m_fn.values[static_cast<size_t>(initParts[k].id)].range;
                n.message = "`" + name + "` enters the loop as " + a.str() + " here";
                error(DiagId::LoopCarriedType, where.begin.line ? where : r, {name, a.str(), b.str(), fix}, {n});
                parts[k] = initParts[k];
            }
            ids.push_back(parts[k].id);
        }
        if (m_errors > errorsBefore) {
            bad.insert(name);
        }
    }
    return ids;
}

void Checker::bindCarriedResults(ir::Op& loop, const Carried& c, const std::set<std::string>& bad, SourceRange r,
                                 std::map<std::string, Value>& after)
{
    std::vector<Value> results;
    for (const Value& v : c.inits) {
        ir::ValueId res = newValue(v.type, r, m_fn.values[static_cast<size_t>(v.id)].name);
        loop.results.push_back(res);
        for (std::set<ir::ValueId>* taint : {&m_pidDerived, &m_wrapped, &m_pidBlock}) {
            if (taint->count(v.id)) {
                taint->insert(res);
            }
        }
        results.push_back(Value::tensor(res, v.type, v.origin));
    }
    size_t pos = 0;
    for (size_t i = 0; i < c.names.size(); ++i) {
        after[c.names[i]] = rebuild(c.shapes[i], results, pos);
        if (bad.count(c.names[i])) {
            after[c.names[i]] = Value::error();
        }
    }
}

void Checker::hideLoopLocals(const std::map<std::string, Value>& pre, const std::string& target, SourceRange r,
                             const char* loop)
{
    for (const auto& [k, v] : scope().names) {
        auto p = pre.find(k);
        if (p == pre.end() && k != target) {
            scope().hidden[k] = std::string("it is first assigned inside the ") + loop + " body on line " +
                                std::to_string(r.begin.line) +
                                ", and values made in a Triton loop are not visible after it unless they exist "
                                "before the loop; initialise it before the loop";
        } else if (p != pre.end() && p->second.isNumber() && !sameValue(p->second, v) && k != target) {
            error(DiagId::LoopCarriedKind, r, {k, p->second.describe()});
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
    const std::string& target = s.targets[0]->id;
    Carried c = collectCarried(s.body, target, s.range);
    ir::Op forOp;
    forOp.kind = OpKind::For;
    forOp.range = s.range;
    forOp.ints.push_back(0);
    for (const Value& bv : bounds) {
        forOp.operands.push_back(bv.id);
    }
    for (const Value& v : c.inits) {
        forOp.operands.push_back(v.id);
    }
    forOp.regions.push_back(std::make_unique<ir::Region>());
    ir::Region& body = *forOp.regions[0];
    ir::Type ivType;
    ivType.elem = ivElem;
    ir::ValueId iv = newValue(ivType, s.targets[0]->range, target);
    body.args.push_back(iv);
    if (m_pidDerived.count(bounds[0].id)) {
        m_pidDerived.insert(iv);
    }
    const std::map<std::string, Value> pre = scope().names;
    bindCarriedArgs(body, c);
    scope().names[target] = Value::tensor(iv, ivType, s.targets[0]->range);
    scope().fromPlainConst.erase(target);
    pushRegion(&body);
    ++scope().loopDepth;
    execBody(s.body);
    --scope().loopDepth;
    std::set<std::string> bad;
    ir::Op y;
    y.kind = OpKind::Yield;
    y.range = s.range;
    y.operands = carriedYields(c, s.range, bad);
    body.ops.push_back(std::move(y));
    popRegion();
    hideLoopLocals(pre, target, s.range, "loop");
    std::map<std::string, Value> after = pre;
    bindCarriedResults(forOp, c, bad, s.range, after);
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
    Carried c = collectCarried(s.body, "", s.range);
    ir::Op w;
    w.kind = OpKind::While;
    w.range = s.range;
    for (const Value& v : c.inits) {
        w.operands.push_back(v.id);
    }
    w.regions.push_back(std::make_unique<ir::Region>());
    w.regions.push_back(std::make_unique<ir::Region>());
    const std::map<std::string, Value> pre = scope().names;
    std::vector<Value> beforeArgs = bindCarriedArgs(*w.regions[0], c);
    pushRegion(w.regions[0].get());
    Value t = eval(*s.test);
    Value cond = t.isError() ? t : condition(t, *s.test, "a `while`");
    ir::Op co;
    co.kind = OpKind::Condition;
    co.range = s.range;
    co.operands.push_back(cond.isError() ? ir::kNoValue : cond.id);
    for (const Value& a : beforeArgs) {
        co.operands.push_back(a.id);
    }
    region().ops.push_back(std::move(co));
    popRegion();
    bindCarriedArgs(*w.regions[1], c);
    pushRegion(w.regions[1].get());
    ++scope().loopDepth;
    execBody(s.body);
    --scope().loopDepth;
    std::set<std::string> bad;
    ir::Op y;
    y.kind = OpKind::Yield;
    y.range = s.range;
    y.operands = carriedYields(c, s.range, bad);
    region().ops.push_back(std::move(y));
    popRegion();
    hideLoopLocals(pre, "", s.range, "`while`");
    std::map<std::string, Value> after = pre;
    bindCarriedResults(w, c, bad, s.range, after);
    scope().names = after;
    region().ops.push_back(std::move(w));
}

} // namespace tkm::triton::sema
