// Block pointers and atomics. tl.make_block_ptr is kept flattened (base, shape, strides, offsets, block_shape,
// order); a load or store through it is desugared as Triton's interpreter does it: the pointer tile
// base + Σ (offset_i + arange(0, block_i)) · stride_i, boundary_check → mask 0 ≤ idx_i < shape_i, and
// padding_option "zero"/"nan" → other. tl.advance adds to the offsets.
#include "engine/triton/check/checker_impl.h"

#include <limits>

namespace tkm::triton::sema {

using ir::Elem;
using ir::OpKind;

namespace {

std::optional<std::vector<Value>> tupleOf(const Value& v, size_t n)
{
    if (v.kind == VKind::Tuple && v.elems.size() == n) {
        return v.elems;
    }
    if (n == 1 && (v.isTensor() || v.isNumber())) {
        return std::vector<Value>{v};
    }
    return std::nullopt;
}

} // namespace

Value Checker::biMakeBlockPtr(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.make_block_ptr", {"base", "shape", "strides", "offsets", "block_shape", "order"}, 6, b)) {
        return Value::error();
    }
    const Value& base = b.v[0];
    if (!base.isTensor() || !base.type.isPtr() || !base.type.isScalar()) {
        return error(DiagId::BlockPtrArgs, b.r[0], {"base must be a scalar pointer, got " + base.describe()});
    }
    auto bs = constShape(b.v[4], b.e[4], b.r[4], "block_shape");
    if (!bs) {
        return Value::error();
    }
    size_t n = bs->size();
    Value bp;
    bp.kind = VKind::BlockPtr;
    bp.elems.push_back(base);
    const char* names[3] = {"shape", "strides", "offsets"};
    for (size_t k = 1; k <= 3; ++k) {
        auto t = tupleOf(b.v[k], n);
        if (!t) {
            return error(DiagId::BlockPtrArgs, b.r[k],
                         {std::string(names[k - 1]) + " must be a tuple of " + std::to_string(n) +
                          " values (one per axis of block_shape " + shapeText(*bs) + "), got " + b.v[k].describe()});
        }
        for (const Value& e : *t) {
            bool ok = e.isNumber() || (e.isTensor() && e.type.isScalar() && ir::isInt(e.type.elem));
            if (!ok || e.kind == VKind::Float) {
                return error(DiagId::BlockPtrArgs, b.r[k],
                             {std::string(names[k - 1]) + " must hold integer scalars, got " + e.describe()});
            }
            bp.elems.push_back(e);
        }
    }
    auto order = tupleOf(b.v[5], n);
    if (!order) {
        return error(DiagId::BlockPtrArgs, b.r[5], {"order must be a tuple of " + std::to_string(n) + " ints"});
    }
    for (const Value& o : *order) {
        auto k = constInt(o, b.e[5], b.r[5], "order");
        if (!k) {
            return Value::error();
        }
        bp.order.push_back(*k);
    }
    bp.blockShape = *bs;
    bp.origin = c.node->range;
    return bp;
}

Value Checker::biAdvance(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.advance", {"base", "offsets"}, 2, b)) {
        return Value::error();
    }
    if (b.v[0].kind != VKind::BlockPtr) {
        return error(DiagId::ExpectedTensor, b.r[0],
                     {"the first argument of tl.advance (a block pointer)", b.v[0].describe()});
    }
    Value bp = b.v[0];
    size_t n = bp.blockShape.size();
    auto d = tupleOf(b.v[1], n);
    if (!d) {
        return error(DiagId::BlockPtrArgs, b.r[1],
                     {"tl.advance needs " + std::to_string(n) + " offsets, got " + b.v[1].describe()});
    }
    for (size_t i = 0; i < n; ++i) {
        Value& off = bp.elems[1 + 2 * n + i];
        off = binary(ast::BinOpKind::Add, off, (*d)[i], nullptr, nullptr, c.node->range);
        if (off.isError()) {
            return off;
        }
    }
    return bp;
}

namespace {

struct Desugared
{
    Value ptr;
    Value mask; // None when no boundary check
};

} // namespace

static std::optional<Desugared> desugar(Checker& k, const Value& bp, const Bound& b, size_t bcIndex, SourceRange r)
{
    size_t n = bp.blockShape.size();
    std::vector<int64_t> checks;
    if (b.has(bcIndex) && b.v[bcIndex].kind != VKind::None) {
        std::vector<Value> bc =
            b.v[bcIndex].kind == VKind::Tuple ? b.v[bcIndex].elems : std::vector<Value>{b.v[bcIndex]};
        for (const Value& v : bc) {
            if (v.kind != VKind::Int || v.i < 0 || v.i >= static_cast<int64_t>(n)) {
                k.error(DiagId::BoundaryCheck, b.r[bcIndex],
                        {b.v[bcIndex].describe(), "each entry must be an axis between 0 and " + std::to_string(n - 1) +
                                                      " of the block " + shapeText(bp.blockShape)});
                return std::nullopt;
            }
            checks.push_back(v.i);
        }
    }
    Value ptr = bp.elems[0];
    Value mask = Value::none();
    for (size_t i = 0; i < n; ++i) {
        ir::Type at;
        at.elem = Elem::I32;
        at.shape = {bp.blockShape[i]};
        Value ar = k.emitValue(OpKind::Arange, {}, at, r, r, {0, bp.blockShape[i]});
        Value idx = k.binary(ast::BinOpKind::Add, bp.elems[1 + 2 * n + i], ar, nullptr, nullptr, r);
        if (idx.isError()) {
            return std::nullopt;
        }
        for (size_t a = 0; a < i; ++a) {
            idx = k.expandDims(idx, 0, r);
        }
        while (idx.type.shape.size() < n) {
            idx = k.expandDims(idx, static_cast<int64_t>(idx.type.shape.size()), r);
        }
        Value term = k.binary(ast::BinOpKind::Mul, idx, bp.elems[1 + n + i], nullptr, nullptr, r);
        ptr = k.binary(ast::BinOpKind::Add, ptr, term, nullptr, nullptr, r);
        if (std::find(checks.begin(), checks.end(), static_cast<int64_t>(i)) != checks.end()) {
            Value lo = k.compare(ast::CmpOpKind::GtE, idx, Value::ofInt(0), nullptr, nullptr, r);
            Value hi = k.compare(ast::CmpOpKind::Lt, idx, bp.elems[1 + i], nullptr, nullptr, r);
            Value in = k.binary(ast::BinOpKind::BitAnd, lo, hi, nullptr, nullptr, r);
            mask = mask.kind == VKind::None ? in : k.binary(ast::BinOpKind::BitAnd, mask, in, nullptr, nullptr, r);
        }
        if (ptr.isError() || mask.isError()) {
            return std::nullopt;
        }
    }
    ptr = k.broadcastTo(ptr, bp.blockShape, r);
    if (mask.isTensor()) {
        mask = k.broadcastTo(mask, bp.blockShape, r);
    }
    return Desugared{ptr, mask};
}

Value Checker::blockPtrLoad(const Value& bp, const Bound& b, size_t bcIndex, size_t padIndex, SourceRange r)
{
    std::string padding;
    if (b.has(padIndex) && b.v[padIndex].kind != VKind::None) {
        if (b.v[padIndex].kind != VKind::Str ||
            (b.v[padIndex].s != "zero" && b.v[padIndex].s != "nan" && !b.v[padIndex].s.empty())) {
            return error(DiagId::PaddingOption, b.r[padIndex], {b.v[padIndex].describe()});
        }
        padding = b.v[padIndex].s;
    }
    auto d = desugar(*this, bp, b, bcIndex, r);
    if (!d) {
        return Value::error();
    }
    Elem pointee = bp.elems[0].type.pointee;
    ir::ValueId other = ir::kNoValue;
    if (d->mask.isTensor() && padding == "nan") {
        if (!ir::isFloat(pointee)) {
            return error(DiagId::PaddingOption, b.r[padIndex], {"\"nan\" for an integer tensor"});
        }
        ir::Type t;
        t.elem = pointee;
        t.shape = bp.blockShape;
        other = constant(std::numeric_limits<double>::quiet_NaN(), t, r).id;
    } else if (d->mask.isTensor() && padding == "zero") {
        ir::Type t;
        t.elem = pointee;
        t.shape = bp.blockShape;
        other = constant(0, t, r).id;
    }
    ir::Type t;
    t.elem = pointee;
    t.shape = bp.blockShape;
    bool hasMask = d->mask.isTensor();
    return emitValue(OpKind::Load, {d->ptr.id, hasMask ? d->mask.id : ir::kNoValue, other}, t, r, bp.origin,
                     {hasMask ? 1 : 0});
}

Value Checker::blockPtrStore(const Value& bp, const Value& value, const Bound& b, size_t bcIndex, SourceRange r)
{
    Value v = toTensor(value, b.r[1]);
    if (v.isError()) {
        return v;
    }
    bool fits = v.type.isScalar() || v.type.shape.size() == bp.blockShape.size();
    for (size_t i = 0; fits && !v.type.isScalar() && i < bp.blockShape.size(); ++i) {
        fits = v.type.shape[i] == bp.blockShape[i] || v.type.shape[i] == 1;
    }
    if (!fits) {
        ir::Type pt;
        pt.elem = bp.elems[0].type.pointee;
        pt.shape = bp.blockShape;
        return error(DiagId::StoreShape, b.r[1],
                     {b.e[1] ? exprText(*b.e[1]) : "value", v.type.str(), b.e[0] ? exprText(*b.e[0]) : "block pointer",
                      "(a block of " + pt.str() + ")"},
                     {shapeNote(b.e[1] ? exprText(*b.e[1]) : "value", v)});
    }
    auto d = desugar(*this, bp, b, bcIndex, r);
    if (!d) {
        return Value::error();
    }
    v = cast(v, bp.elems[0].type.pointee, r);
    v = broadcastTo(v, bp.blockShape, r);
    emit(OpKind::Store, {d->ptr.id, v.id, d->mask.isTensor() ? d->mask.id : ir::kNoValue}, r);
    return Value::none();
}

Value Checker::biAtomic(CallArgs& c, const std::string& kind)
{
    Bound b;
    std::string fn = "tl.atomic_" + kind;
    bool cas = kind == "cas";
    if (!bind(c, fn,
              cas ? std::vector<const char*>{"pointer", "cmp", "val", "sem", "scope"}
                  : std::vector<const char*>{"pointer", "val", "mask", "sem", "scope"},
              cas ? 3 : 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    const Value& ptr = b.v[0];
    if (!ptr.isTensor() || !ptr.type.isPtr()) {
        return error(DiagId::LoadNotPtr, b.r[0], {fn, b.e[0] ? exprText(*b.e[0]) : "pointer", ptr.describe(), ""});
    }
    Elem e = ptr.type.pointee;
    bool bitwise = kind == "and" || kind == "or" || kind == "xor";
    if ((bitwise && !ir::isInt(e)) || e == Elem::I1 || e == Elem::I8 || e == Elem::I16 || e == Elem::U8 ||
        e == Elem::U16 || (kind != "add" && (e == Elem::F16 || e == Elem::BF16))) {
        return error(DiagId::AtomicDType, r, {fn, std::string("pointers to ") + ir::elemName(e)});
    }
    for (size_t k : {size_t(3), size_t(4)}) {
        if (b.has(k) && b.v[k].kind != VKind::Str && b.v[k].kind != VKind::None) {
            return error(DiagId::ExpectedTensor, b.r[k], {"sem/scope (a string)", b.v[k].describe()});
        }
    }
    auto shaped = [&](size_t k) -> Value {
        Value v = b.v[k];
        if (!v.isTensor() && !v.isNumber()) {
            return error(DiagId::ExpectedTensor, b.r[k], {"the value of " + fn, v.describe()});
        }
        if (v.isTensor() && !v.type.isScalar() && !(ptr.type.shape.size() == v.type.shape.size())) {
            return error(DiagId::StoreShape, b.r[k],
                         {b.e[k] ? exprText(*b.e[k]) : "value", v.type.str(), b.e[0] ? exprText(*b.e[0]) : "pointer",
                          ptr.type.str()});
        }
        v = cast(v, e, b.r[k]);
        return broadcastTo(v, ptr.type.shape, r);
    };
    ir::Type t;
    t.elem = e;
    t.shape = ptr.type.shape;
    if (cas) {
        Value cmp = shaped(1);
        Value val = shaped(2);
        if (cmp.isError() || val.isError()) {
            return Value::error();
        }
        return emitValue(OpKind::AtomicCAS, {ptr.id, cmp.id, val.id}, t, r, r);
    }
    Value val = shaped(1);
    if (val.isError()) {
        return val;
    }
    ir::ValueId mask = ir::kNoValue;
    if (b.has(2) && b.v[2].kind != VKind::None) {
        Value m = toTensor(b.v[2], b.r[2]);
        if (m.isError()) {
            return m;
        }
        if (m.type.elem != Elem::I1) {
            return error(DiagId::MaskNotBool, b.r[2], {m.type.str()});
        }
        mask = broadcastTo(m, ptr.type.shape, r).id;
    }
    Value res = emitValue(OpKind::AtomicRMW, {ptr.id, val.id, mask}, t, r, r);
    region().ops.back().text = kind;
    return res;
}

} // namespace tkm::triton::sema
