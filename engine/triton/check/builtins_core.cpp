// Builtins of triton.language that make and move data: program_id, arange, zeros/full, load/store (with
// mask/other as semantic.py's _load_legacy/_store_legacy check them), where, casts, hints, prints, asserts,
// (the Python builtins and constexpr helpers are in builtins_python.cpp).
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

#include <cmath>
#include <limits>

namespace tkm::triton::sema {

using ir::Elem;
using ir::OpKind;

namespace {

/// broadcast_impl_shape: same rank, extents equal or 1 (a scalar is splat).
bool fitsShape(const Value& v, const std::vector<int64_t>& shape)
{
    if (!v.isTensor() || v.type.isScalar()) {
        return true;
    }
    if (v.type.shape.size() != shape.size()) {
        return false;
    }
    for (size_t i = 0; i < shape.size(); ++i) {
        if (v.type.shape[i] != shape[i] && v.type.shape[i] != 1) {
            return false;
        }
    }
    return true;
}

std::string exprOr(const ast::Expr* e, const std::string& dflt)
{
    return e ? exprText(*e) : dflt;
}

} // namespace

Value Checker::biProgramId(CallArgs& c, bool num)
{
    Bound b;
    std::string name = num ? "tl.num_programs" : "tl.program_id";
    if (!bind(c, name, {"axis"}, 1, b)) {
        return Value::error();
    }
    auto axis = constInt(b.v[0], b.e[0], b.r[0], "the axis of " + name);
    if (!axis) {
        return Value::error();
    }
    if (*axis < 0 || *axis > 2) {
        return error(DiagId::ProgramIdAxis, b.r[0], {name + "(" + std::to_string(*axis) + ")", std::to_string(*axis)});
    }
    ir::Type t;
    t.elem = Elem::I32;
    return emitValue(num ? OpKind::NumPrograms : OpKind::ProgramId, {}, t, c.node->range, c.node->range, {*axis});
}

Value Checker::biArange(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.arange", {"start", "end"}, 2, b)) {
        return Value::error();
    }
    auto start = constInt(b.v[0], b.e[0], b.r[0], "the start of tl.arange");
    if (!start) {
        return Value::error();
    }
    auto end = constInt(b.v[1], b.e[1], b.r[1], "the end of tl.arange");
    if (!end) {
        return Value::error();
    }
    int64_t n = *end - *start;
    if (n <= 0) {
        return error(DiagId::ArangeRange, c.node->range, {std::to_string(*start), std::to_string(*end)});
    }
    if (!isPow2(n)) {
        std::string what = *start == 0 ? std::to_string(n)
                                       : "the range " + std::to_string(*end) + " - " + std::to_string(*start) + " = " +
                                             std::to_string(n);
        Diagnostic d = makeDiagnostic(DiagId::ArangeNotPow2, b.r[*start == 0 ? 1 : 0],
                                      {std::to_string(n), std::to_string(nextPow2(n))});
        if (*start != 0) {
            d.message = what + " is not a power of two: use " + std::to_string(nextPow2(n)) +
                        " (triton.next_power_of_2(" + std::to_string(n) + ")) and mask the extra lanes";
        }
        d.range = b.r[1];
        if (*start == 0) {
            d.fixit = std::to_string(nextPow2(n));
        }
        if (m_suppress == 0) {
            m_diags.push_back(d);
            ++m_errors;
        }
        return Value::error();
    }
    if (n > (1 << 20)) {
        return error(DiagId::TooManyElements, c.node->range, {std::to_string(n)});
    }
    ir::Type t;
    t.elem = Elem::I32;
    t.shape = {n};
    return emitValue(OpKind::Arange, {}, t, c.node->range, c.node->range, {*start, *end});
}

Value Checker::biFull(CallArgs& c, int which)
{
    Bound b;
    bool ok = false;
    switch (which) {
    case 0:
        ok = bind(c, "tl.zeros", {"shape", "dtype"}, 2, b);
        break;
    case 1:
        ok = bind(c, "tl.full", {"shape", "value", "dtype"}, 3, b);
        break;
    case 2:
        ok = bind(c, "tl.zeros_like", {"input"}, 1, b);
        break;
    default:
        ok = bind(c, "tl.full_like", {"input", "fill_value", "dtype"}, 2, b);
        break;
    }
    if (!ok) {
        return Value::error();
    }
    ir::Type t;
    Value fill = Value::ofInt(0);
    if (which <= 1) {
        auto shape = constShape(b.v[0], b.e[0], b.r[0], which == 0 ? "tl.zeros" : "tl.full");
        if (!shape) {
            return Value::error();
        }
        auto dt = dtypeArg(b.v[which == 0 ? 1 : 2], b.r[which == 0 ? 1 : 2], "the dtype");
        if (!dt) {
            return Value::error();
        }
        t = *dt;
        t.shape = *shape;
        if (which == 1) {
            fill = b.v[1];
        }
    } else {
        if (!b.v[0].isTensor()) {
            return error(DiagId::ExpectedTensor, b.r[0], {"the input of " + c.fn, b.v[0].describe()});
        }
        t = b.v[0].type;
        if (which == 3) {
            fill = b.v[1];
            if (b.has(2) && b.v[2].kind != VKind::None) {
                auto dt = dtypeArg(b.v[2], b.r[2], "the dtype");
                if (!dt) {
                    return Value::error();
                }
                t.elem = dt->elem;
            }
        }
    }
    if (fill.isTensor()) {
        // tl.full with a runtime scalar: splat it (semantic.full).
        if (!fill.type.isScalar()) {
            return error(DiagId::ExpectedTensor, b.r[1], {"the value of tl.full (a scalar)", fill.describe()});
        }
        Value s = cast(fill, t.elem, c.node->range);
        return t.isScalar() ? s : emitValue(OpKind::Splat, {s.id}, t, c.node->range, c.node->range);
    }
    if (!fill.isNumber()) {
        return error(DiagId::ExpectedTensor, b.r[1], {"the fill value", fill.describe()});
    }
    Value v = constant(fill.asDouble(), t, c.node->range);
    v.origin = c.node->range;
    return v;
}

Value Checker::biLoad(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.load",
              {"pointer", "mask", "other", "boundary_check", "padding_option", "cache_modifier", "eviction_policy",
               "volatile"},
              1, b)) {
        return Value::error();
    }
    const Value& ptr = b.v[0];
    SourceRange r = c.node->range;
    if (ptr.kind == VKind::BlockPtr) {
        if ((b.has(1) && b.v[1].kind != VKind::None) || (b.has(2) && b.v[2].kind != VKind::None)) {
            return error(DiagId::BlockPtrMask, b.r[b.has(1) ? 1 : 2], {});
        }
        return blockPtrLoad(ptr, b, 3, 4, r);
    }
    if (!ptr.isTensor() || !ptr.type.isPtr()) {
        return error(DiagId::LoadNotPtr, b.r[0],
                     {"tl.load", exprOr(b.e[0], "pointer"), ptr.describe(),
                      ": pass a pointer plus offsets, e.g. tl.load(x_ptr + offsets, mask=offsets < n)"});
    }
    bool hasMask = b.has(1) && b.v[1].kind != VKind::None;
    bool hasOther = b.has(2) && b.v[2].kind != VKind::None;
    if (hasOther && !hasMask) {
        return error(DiagId::OtherWithoutMask, b.r[2], {});
    }
    if (b.has(3) && b.v[3].kind != VKind::None && !(b.v[3].kind == VKind::Tuple && b.v[3].elems.empty())) {
        return error(
            DiagId::BoundaryCheck, b.r[3],
            {b.v[3].describe(), "boundary_check only applies to block pointers (tl.make_block_ptr); use mask= here"});
    }
    Value mask, other;
    if (hasMask) {
        mask = toTensor(b.v[1], b.r[1]);
        if (mask.isError()) {
            return mask;
        }
        if (mask.type.elem != Elem::I1) {
            return error(DiagId::MaskNotBool, b.r[1], {mask.type.str()});
        }
        if (ptr.type.isScalar() && !mask.type.isScalar()) {
            return error(
                DiagId::MaskShape, b.r[1],
                {"the mask", exprOr(b.e[1], "mask"), mask.type.str(), exprOr(b.e[0], "pointer"), ptr.type.str()});
        }
        if (!fitsShape(mask, ptr.type.shape)) {
            return error(DiagId::MaskShape, b.r[1],
                         {"the mask", exprOr(b.e[1], "mask"), shapeText(mask.type.shape), exprOr(b.e[0], "pointer"),
                          shapeText(ptr.type.shape)},
                         {shapeNote(exprOr(b.e[1], "mask"), mask), shapeNote(exprOr(b.e[0], "pointer"), ptr)});
        }
        lintMaskBroadcast(mask, ptr, b.r[1]);
        mask = broadcastTo(mask, ptr.type.shape, r);
    }
    if (hasOther) {
        if (b.v[2].isTensor() && !fitsShape(b.v[2], ptr.type.shape)) {
            return error(DiagId::MaskShape, b.r[2],
                         {"other", exprOr(b.e[2], "other"), shapeText(b.v[2].type.shape), exprOr(b.e[0], "pointer"),
                          shapeText(ptr.type.shape)});
        }
        other = cast(b.v[2], ptr.type.pointee, b.r[2]);
        other = broadcastTo(other, ptr.type.shape, r);
    }
    for (size_t k : {size_t(4), size_t(5), size_t(6)}) {
        if (b.has(k) && b.v[k].kind != VKind::Str && b.v[k].kind != VKind::None) {
            return error(DiagId::ExpectedTensor, b.r[k], {"this hint (a string)", b.v[k].describe()});
        }
    }
    lintMemAccess(ptr, hasMask, "load", r);
    ir::Type t;
    t.elem = ptr.type.pointee;
    t.shape = ptr.type.shape;
    Value res = emitValue(OpKind::Load, {ptr.id, hasMask ? mask.id : ir::kNoValue, hasOther ? other.id : ir::kNoValue},
                          t, r, ptr.origin.begin.line ? ptr.origin : r, {hasMask ? 1 : 0});
    LoadFact f;
    f.hasMask = hasMask;
    f.hasOther = hasOther;
    f.loadRange = r;
    if (hasOther && b.v[2].isNumber()) {
        f.otherConst = true;
        f.otherValue = b.v[2].asDouble();
        f.otherText = exprOr(b.e[2], b.v[2].describe());
        f.otherRange = b.r[2];
    }
    noteLoad(res.id, f);
    return res;
}

Value Checker::biStore(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.store", {"pointer", "value", "mask", "boundary_check", "cache_modifier", "eviction_policy"}, 2,
              b)) {
        return Value::error();
    }
    const Value& ptr = b.v[0];
    SourceRange r = c.node->range;
    if (ptr.kind == VKind::BlockPtr) {
        if (b.has(2) && b.v[2].kind != VKind::None) {
            return error(DiagId::BlockPtrMask, b.r[2], {});
        }
        return blockPtrStore(ptr, b.v[1], b, 3, r);
    }
    if (!ptr.isTensor() || !ptr.type.isPtr()) {
        std::string hint =
            ptr.isTensor() ? ": the pointer comes first: tl.store(out_ptr + offsets, value, mask=…)" : "";
        return error(DiagId::LoadNotPtr, b.r[0], {"tl.store", exprOr(b.e[0], "pointer"), ptr.describe(), hint});
    }
    Value val = b.v[1];
    if (!val.isTensor() && !val.isNumber()) {
        return error(DiagId::ExpectedTensor, b.r[1], {"the value of tl.store", val.describe()});
    }
    if (val.isTensor() && val.type.isPtr()) {
        return error(DiagId::ExpectedTensor, b.r[1], {"the value of tl.store (not a pointer)", val.describe()});
    }
    if (val.isTensor() && (!fitsShape(val, ptr.type.shape) || (ptr.type.isScalar() && !val.type.isScalar()))) {
        return error(DiagId::StoreShape, b.r[1],
                     {exprOr(b.e[1], "value"), val.type.str(), exprOr(b.e[0], "pointer"), ptr.type.str()},
                     {shapeNote(exprOr(b.e[1], "value"), val), shapeNote(exprOr(b.e[0], "pointer"), ptr)},
                     {b.r[1], b.r[0]});
    }
    bool hasMask = b.has(2) && b.v[2].kind != VKind::None;
    Value mask;
    if (hasMask) {
        mask = toTensor(b.v[2], b.r[2]);
        if (mask.isError()) {
            return mask;
        }
        if (mask.type.elem != Elem::I1) {
            return error(DiagId::MaskNotBool, b.r[2], {mask.type.str()});
        }
        if (!fitsShape(mask, ptr.type.shape) || (ptr.type.isScalar() && !mask.type.isScalar())) {
            return error(
                DiagId::MaskShape, b.r[2],
                {"the mask", exprOr(b.e[2], "mask"), mask.type.str(), exprOr(b.e[0], "pointer"), ptr.type.str()},
                {shapeNote(exprOr(b.e[2], "mask"), mask), shapeNote(exprOr(b.e[0], "pointer"), ptr)});
        }
        lintMaskBroadcast(mask, ptr, b.r[2]);
        mask = broadcastTo(mask, ptr.type.shape, r);
    }
    lintMemAccess(ptr, hasMask, "store", r);
    Value v = cast(val, ptr.type.pointee, b.r[1]);
    v = broadcastTo(v, ptr.type.shape, r);
    emit(OpKind::Store, {ptr.id, v.id, hasMask ? mask.id : ir::kNoValue}, r);
    return Value::none();
}

Value Checker::biWhere(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.where", {"condition", "x", "y"}, 3, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    if (b.v[0].isConstexpr() && !b.v[0].isNumber()) {
        return error(DiagId::WhereCond, b.r[0], {b.v[0].describe()});
    }
    Value cond = toTensor(b.v[0], b.r[0]);
    if (cond.isError()) {
        return cond;
    }
    if (cond.type.elem != Elem::I1) {
        // semantic.where casts the condition to int1 (non-zero is true).
        cond = compare(ast::CmpOpKind::NotEq, cond, Value::ofInt(0), b.e[0], nullptr, b.r[0]);
    }
    for (size_t k : {size_t(1), size_t(2)}) {
        if (!b.v[k].isTensor() && !b.v[k].isNumber()) {
            return error(DiagId::ExpectedTensor, b.r[k], {"this operand of tl.where", b.v[k].describe()});
        }
    }
    Elem ce = Elem::Ptr;
    bool p1 = b.v[1].isTensor() && b.v[1].type.isPtr();
    bool p2 = b.v[2].isTensor() && b.v[2].type.isPtr();
    if (p1 != p2 || (p1 && b.v[1].type.pointee != b.v[2].type.pointee)) {
        return error(DiagId::OperandTypes, r,
                     {"tl.where", b.v[1].describe(), b.v[2].describe(),
                      ": both choices must be pointers of the same type, or neither"});
    }
    if (!p1 && !promote("tl.where", b.v[1], b.v[2], false, r, ce)) {
        return Value::error();
    }
    auto s1 = broadcastShape(cond, b.e[0], b.v[1], b.e[1], r);
    if (!s1) {
        return Value::error();
    }
    Value shaped = cond;
    if (!(cond.type.shape == *s1)) {
        shaped = broadcastTo(cond, *s1, r);
    }
    auto s2 = broadcastShape(shaped, b.e[0], b.v[2], b.e[2], r);
    if (!s2) {
        return Value::error();
    }
    Value x = ce == Elem::Ptr ? b.v[1] : cast(b.v[1], ce, r);
    Value y = ce == Elem::Ptr ? b.v[2] : cast(b.v[2], ce, r);
    cond = broadcastTo(cond, *s2, r);
    x = broadcastTo(x, *s2, r);
    y = broadcastTo(y, *s2, r);
    ir::Type t = x.type;
    t.shape = *s2;
    SourceRange origin = b.v[1].isTensor() && b.v[1].type.shape == *s2 ? b.v[1].origin : cond.origin;
    return emitValue(OpKind::Select, {cond.id, x.id, y.id}, t, r, origin.begin.line ? origin : r);
}

Value Checker::biCast(CallArgs& c, bool method)
{
    Bound b;
    if (!bind(c, method ? "x.to" : "tl.cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    auto dt = dtypeArg(b.v[1], b.r[1], "the target of " + std::string(method ? ".to()" : "tl.cast"));
    if (!dt) {
        return Value::error();
    }
    Value x = toTensor(b.v[0], b.r[0]);
    if (x.isError()) {
        return x;
    }
    bool bitcast = b.has(3) && b.v[3].truthy();
    int64_t rounding = 0;
    if (b.has(2) && b.v[2].kind == VKind::Str) {
        if (b.v[2].s == "rtz") {
            rounding = 1;
        } else if (b.v[2].s != "rtne") {
            return error(DiagId::ExpectedTensor, b.r[2],
                         {"fp_downcast_rounding (\"rtne\" or \"rtz\")", b.v[2].describe()});
        }
    }
    ir::Type to = x.type;
    to.elem = dt->elem;
    to.pointee = dt->pointee;
    if (x.type.elem == to.elem && (!to.isPtr() || x.type.pointee == to.pointee)) {
        return x;
    }
    if (bitcast) {
        if (ir::bitWidth(x.type.elem) != ir::bitWidth(to.elem) || to.isPtr() || x.type.isPtr()) {
            return error(DiagId::BitcastWidth, r, {x.type.str(), to.str()});
        }
        return cast(x, to.elem, r, true);
    }
    if (x.type.isPtr() || to.isPtr()) {
        OpKind k;
        if (x.type.isPtr() && to.isPtr()) {
            k = OpKind::Bitcast;
        } else if (x.type.isPtr() && to.elem == Elem::I64) {
            k = OpKind::PtrToInt;
        } else if (to.isPtr() && x.type.elem == Elem::I64) {
            k = OpKind::IntToPtr;
        } else {
            return error(DiagId::OperandTypes, r,
                         {".to()", x.describe(), dtypeName(to), ": pointers convert only to and from tl.int64"});
        }
        ir::ValueId id = newValue(to, r);
        ir::Op& op = emit(k, {x.id}, r);
        op.results.push_back(id);
        op.toType = to;
        return Value::tensor(id, to, x.origin);
    }
    if (to.elem == Elem::I1 && x.type.elem != Elem::I1) {
        // Triton casts to int1 as `x != 0`.
        return compare(ast::CmpOpKind::NotEq, x, Value::ofInt(0), b.e[0], nullptr, r);
    }
    Value v = cast(x, to.elem, r);
    if (rounding && !region().ops.empty() && region().ops.back().kind == OpKind::Cast) {
        region().ops.back().ints[0] = rounding;
    }
    return v;
}

Value Checker::biHint(CallArgs& c)
{
    Bound b;
    if (!bind(c, c.fn, {"input", "values"}, 2, b)) {
        return Value::error();
    }
    return b.v[0];
}

Value Checker::biStaticAssert(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.static_assert", {"cond", "msg"}, 1, b)) {
        return Value::error();
    }
    if (!b.v[0].isConstexpr()) {
        return error(DiagId::StaticAssertNotConst, b.r[0], {});
    }
    if (!b.v[0].truthy()) {
        std::string msg = b.has(1) && b.v[1].kind == VKind::Str ? ": " + b.v[1].s : "";
        return error(DiagId::StaticAssert, c.node->range, {msg + (b.e[0] ? " (" + exprText(*b.e[0]) + ")" : "")});
    }
    return Value::none();
}

Value Checker::biPrint(CallArgs& c, int which)
{
    if (which == 2) {
        return Value::none(); // tl.static_print prints at compile time; nothing to run
    }
    std::string prefix;
    std::vector<ir::ValueId> ops;
    bool hex = false;
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        if (c.kwargs[k].first == "hex") {
            hex = c.kwargs[k].second.truthy();
        } else if (c.kwargs[k].first != "sep" && c.kwargs[k].first != "end") {
            return error(DiagId::BadKeyword, c.kwExprs[k]->range, {c.fn, c.kwargs[k].first, ": its keyword is hex"});
        }
    }
    for (size_t i = 0; i < c.args.size(); ++i) {
        const Value& v = c.args[i];
        if (v.kind == VKind::Str) {
            prefix += (prefix.empty() ? "" : " ") + v.s;
        } else if (v.isTensor()) {
            ops.push_back(v.id);
        } else if (v.isNumber()) {
            ops.push_back(toTensor(v, c.argExprs[i]->range).id);
        } else {
            prefix += (prefix.empty() ? "" : " ") + v.describe();
        }
    }
    ir::Op& op = emit(OpKind::Print, ops, c.node->range);
    op.text = prefix;
    op.ints.push_back(hex ? 1 : 0);
    return Value::none();
}

Value Checker::biDeviceAssert(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.device_assert", {"cond", "msg", "mask"}, 1, b)) {
        return Value::error();
    }
    if (b.v[0].isConstexpr()) {
        if (!b.v[0].truthy()) {
            return error(DiagId::DeviceAssertFail, c.node->range,
                         {b.has(1) && b.v[1].kind == VKind::Str ? ": " + b.v[1].s : ""});
        }
        return Value::none();
    }
    Value cond = toTensor(b.v[0], b.r[0]);
    if (cond.isError()) {
        return cond;
    }
    if (cond.type.elem != Elem::I1) {
        cond = compare(ast::CmpOpKind::NotEq, cond, Value::ofInt(0), b.e[0], nullptr, b.r[0]);
    }
    ir::Op& op = emit(OpKind::Assert, {cond.id}, c.node->range);
    op.text = b.has(1) && b.v[1].kind == VKind::Str ? b.v[1].s : (b.e[0] ? exprText(*b.e[0]) : "");
    return Value::none();
}

} // namespace tkm::triton::sema
