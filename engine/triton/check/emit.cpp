// IR emission helpers: values, constants, casts and the broadcasting of semantic.py (broadcast_impl_value:
// a scalar is splat, a lower-rank tile gets leading extent-1 axes, then extents of 1 are stretched).
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

#include <cmath>
#include <limits>

namespace tkm::triton::sema {

using ir::Elem;
using ir::OpKind;

ir::ValueId Checker::newValue(const ir::Type& t, SourceRange r, const std::string& name)
{
    return m_fn.addValue(t, name, r);
}

ir::Op& Checker::emit(OpKind k, std::vector<ir::ValueId> operands, SourceRange r)
{
    ir::Op op;
    op.kind = k;
    op.operands = std::move(operands);
    op.range = r;
    region().ops.push_back(std::move(op));
    return region().ops.back();
}

Value Checker::emitValue(OpKind k, std::vector<ir::ValueId> operands, const ir::Type& t, SourceRange r,
                         SourceRange origin, std::vector<int64_t> ints)
{
    bool pid = k == OpKind::ProgramId;
    bool wrapped = k == OpKind::Rem;
    bool block = false;
    for (ir::ValueId v : operands) {
        block = block || (v != ir::kNoValue && m_pidBlock.count(v));
        pid = pid || (v != ir::kNoValue && m_pidDerived.count(v));
        wrapped = wrapped || (v != ir::kNoValue && m_wrapped.count(v));
    }
    ir::ValueId id = newValue(t, r);
    ir::Op& op = emit(k, std::move(operands), r);
    op.results.push_back(id);
    op.ints = std::move(ints);
    if (pid) {
        m_pidDerived.insert(id);
    }
    if (wrapped) {
        m_wrapped.insert(id);
    }
    if (block) {
        m_pidBlock.insert(id);
    }
    return Value::tensor(id, t, origin);
}

Value Checker::constant(double v, const ir::Type& t, SourceRange r)
{
    ir::ValueId id = newValue(t, r);
    ir::Op& op = emit(OpKind::Constant, {}, r);
    op.results.push_back(id);
    if (ir::isFloat(t.elem)) {
        op.floats.push_back(v);
    } else {
        op.ints.push_back(static_cast<int64_t>(v));
    }
    return Value::tensor(id, t, r);
}

Elem Checker::literalElem(const Value& v) const
{
    // semantic.to_tensor: bool → int1; int → int32 if it fits, int64, else uint64; float → fp32 unless it
    // only fits fp64.
    if (v.kind == VKind::Bool) {
        return Elem::I1;
    }
    if (v.kind == VKind::Int) {
        if (v.i >= std::numeric_limits<int32_t>::min() && v.i <= std::numeric_limits<int32_t>::max()) {
            return Elem::I32;
        }
        return Elem::I64;
    }
    double a = std::fabs(v.f);
    const double minF32 = std::ldexp(1.0, -126);
    const double maxF32 = (2 - std::ldexp(1.0, -23)) * std::ldexp(1.0, 127);
    if (std::isinf(a) || a == 0 || std::isnan(a) || (a >= minF32 && a <= maxF32)) {
        return Elem::F32;
    }
    return Elem::F64;
}

Value Checker::scalarAs(const Value& number, Elem e, SourceRange r)
{
    ir::Type t;
    t.elem = e;
    double x = number.asDouble();
    if (number.kind == VKind::Int && !ir::isFloat(e)) {
        ir::ValueId id = newValue(t, r);
        ir::Op& op = emit(OpKind::Constant, {}, r);
        op.results.push_back(id);
        op.ints.push_back(e == Elem::I1 ? (number.i != 0) : number.i);
        return Value::tensor(id, t, r);
    }
    return constant(x, t, r);
}

Value Checker::toTensor(const Value& v, SourceRange r)
{
    if (v.isTensor() || v.isError()) {
        return v;
    }
    if (v.isNumber()) {
        return scalarAs(v, literalElem(v), r);
    }
    return error(DiagId::ExpectedTensor, r, {"this operand", v.describe()});
}

Value Checker::cast(const Value& v, Elem e, SourceRange r, bool bitcast)
{
    if (v.isError()) {
        return v;
    }
    if (!v.isTensor()) {
        return scalarAs(v, e, r);
    }
    if (v.type.elem == e) {
        return v;
    }
    ir::Type t = v.type;
    t.elem = e;
    ir::ValueId id = newValue(t, r);
    ir::Op& op = emit(bitcast ? OpKind::Bitcast : OpKind::Cast, {v.id}, r);
    op.results.push_back(id);
    op.toType = t;
    if (!bitcast) {
        op.ints.push_back(0);
    }
    if (m_pidDerived.count(v.id)) {
        m_pidDerived.insert(id);
    }
    if (m_wrapped.count(v.id)) {
        m_wrapped.insert(id);
    }
    if (m_pidBlock.count(v.id)) {
        m_pidBlock.insert(id);
    }
    m_castOf[id] = v.id;
    return Value::tensor(id, t, v.origin);
}

Value Checker::broadcastTo(const Value& v, const std::vector<int64_t>& shape, SourceRange r)
{
    if (v.isError() || !v.isTensor() || v.type.shape == shape) {
        return v;
    }
    ir::Type t = v.type;
    if (v.type.isScalar()) {
        t.shape = shape;
        return emitValue(OpKind::Splat, {v.id}, t, r, v.origin);
    }
    Value cur = v;
    while (cur.type.shape.size() < shape.size()) {
        cur = expandDims(cur, 0, r);
    }
    if (cur.type.shape == shape) {
        return cur;
    }
    t = cur.type;
    t.shape = shape;
    return emitValue(OpKind::Broadcast, {cur.id}, t, r, cur.origin);
}

DiagNote Checker::shapeNote(const std::string& text, const Value& v) const
{
    DiagNote n;
    n.range = v.origin;
    n.message = diagText(DiagId::ShapeNote, {text, v.isTensor() ? v.type.str() : v.describe()});
    return n;
}

std::optional<std::vector<int64_t>> Checker::broadcastShape(const Value& a, const ast::Expr* ea, const Value& b,
                                                            const ast::Expr* eb, SourceRange r)
{
    std::vector<int64_t> sa = a.isTensor() ? a.type.shape : std::vector<int64_t>{};
    std::vector<int64_t> sb = b.isTensor() ? b.type.shape : std::vector<int64_t>{};
    size_t bad = 0;
    auto shape = broadcastShapes(sa, sb, bad);
    if (shape) {
        return shape;
    }
    std::string ta = ea ? exprText(*ea) : "lhs";
    std::string tb = eb ? exprText(*eb) : "rhs";
    size_t n = std::max(sa.size(), sb.size());
    int64_t da = bad + sa.size() >= n ? sa[bad + sa.size() - n] : 1;
    int64_t db = bad + sb.size() >= n ? sb[bad + sb.size() - n] : 1;
    std::string why = "axis " + std::to_string(bad) + " has " + std::to_string(da) + " against " + std::to_string(db) +
                      " (extents must be equal, or 1 to be stretched)";
    if (sa.size() == 1 && sb.size() == 1) {
        why += "; to combine every pair, make one a column: " + ta + "[:, None]";
    }
    std::vector<DiagNote> notes;
    if (a.origin.begin.line > 0) {
        notes.push_back(shapeNote(ta, a));
    }
    if (b.origin.begin.line > 0) {
        notes.push_back(shapeNote(tb, b));
    }
    std::vector<SourceRange> under;
    if (ea) {
        under.push_back(ea->range);
    }
    if (eb) {
        under.push_back(eb->range);
    }
    error(DiagId::Broadcast, r, {ta, a.type.str(), tb, b.type.str(), why}, notes, under);
    return std::nullopt;
}

void Checker::pushRegion(ir::Region* region)
{
    m_regions.push_back(region);
}

void Checker::popRegion()
{
    m_regions.pop_back();
}

} // namespace tkm::triton::sema
