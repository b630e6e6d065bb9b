// Runtime loops: `for` over range/tl.range becomes a For whose carried values are the names assigned in the
// body that hold a tensor (or block pointer) before it; their dtype and shape must not change across an
// iteration (code_generator.py's loop-carried check, with a better message). `while` becomes a While with a
// before-region ending in Condition and an after-region ending in Yield.
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

namespace tkm::triton::sema {

using ir::OpKind;

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
    std::set<std::string> bad; // carried names that already got an error: no follow-on errors after the loop
    for (size_t i = 0; i < names.size(); ++i) {
        int errorsBefore = m_errors;
        struct Mark
        {
            Checker& k;
            int before;
            std::set<std::string>& bad;
            const std::string& name;
            ~Mark()
            {
                if (k.m_errors > before) {
                    bad.insert(name);
                }
            }
        } mark{*this, errorsBefore, bad, names[i]};
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
                std::string fix = b.shape.empty() && !a.shape.empty()
                                      ? "to carry a scalar, initialise it as one before the loop (e.g. `" + names[i] +
                                            " = 0.0`), or keep the tile in the loop and reduce it after the loop"
                                  : a.shape != b.shape
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
        if (bad.count(names[i])) {
            after[names[i]] = Value::error();
        }
    }
    for (const auto& [k, v] : scope().names) {
        if (!pre.count(k) && k != target) {
            scope().hidden[k] = "it is first assigned inside the loop body on line " + std::to_string(s.range.begin.line) +
                                ", and values made in a Triton loop are not visible after it unless they exist "
                                "before the loop; initialise it before the `for`";
        }
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
    for (const auto& [k, v] : scope().names) {
        if (!pre.count(k)) {
            scope().hidden[k] = "it is first assigned inside the `while` body on line " +
                                std::to_string(s.range.begin.line) + "; initialise it before the loop";
        }
    }
    scope().names = after;
    region().ops.push_back(std::move(w));
}

} // namespace tkm::triton::sema
