// Math builtins (math.py: exp/log/sqrt/… accept fp32 and fp64 only, as libdevice does), tl.maximum/minimum,
// tl.fma, the reductions of standard.py with their dtype rules (_pick_sum_dtype: ints narrower than 32 bits
// sum in (u)int32; max/min promote bf16 and < 32-bit types to fp32/int32) and tl.dot's checks (semantic.dot).
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

namespace tkm::triton::sema {

using ir::Elem;
using ir::OpKind;

namespace {

std::string axesHint(size_t rank)
{
    if (rank == 1) {
        return "axis 0";
    }
    std::string s = "axis ";
    for (size_t i = 0; i < rank; ++i) {
        s += std::to_string(i) + (i + 2 < rank ? ", " : i + 2 == rank ? " or " : "");
    }
    return s;
}

} // namespace

Value Checker::biMath(CallArgs& c, const std::string& name)
{
    Bound b;
    std::string fn = c.fn.rfind("tl.", 0) == 0 || c.fn == "abs" ? c.fn : "tl." + name;
    if (!bind(c, fn, {"x"}, 1, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Value x = toTensor(b.v[0], b.r[0]);
    if (x.isError()) {
        return x;
    }
    if (x.type.isPtr()) {
        return error(DiagId::OperandTypes, r, {fn, x.describe(), "nothing", ""});
    }
    if (name == "abs") {
        if (isUnsignedInt(x.type.elem) || x.type.elem == Elem::I1) {
            return x;
        }
        return unaryOp(OpKind::Abs, x, r);
    }
    bool fp32Only = name == "sqrt_rn";
    if (!(x.type.elem == Elem::F32 || (!fp32Only && x.type.elem == Elem::F64))) {
        std::string shown = fn == "tl.sigmoid" ? "tl.sigmoid (which calls tl.exp)" : fn;
        Diagnostic d =
            makeDiagnostic(DiagId::MathDType, r, {fn, ir::elemName(x.type.elem), b.e[0] ? exprText(*b.e[0]) : "x"});
        if (shown != fn) {
            d.message = shown + d.message.substr(fn.size());
        }
        d.underline.push_back(b.r[0]);
        if (m_suppress == 0) {
            m_diags.push_back(d);
            ++m_errors;
        }
        return Value::error();
    }
    static const std::map<std::string, OpKind> kinds = {
        {"exp", OpKind::Exp},         {"exp2", OpKind::Exp2},    {"log", OpKind::Log},     {"log2", OpKind::Log2},
        {"sqrt", OpKind::Sqrt},       {"sqrt_rn", OpKind::Sqrt}, {"rsqrt", OpKind::Rsqrt}, {"floor", OpKind::Floor},
        {"ceil", OpKind::Ceil},       {"sin", OpKind::Sin},      {"cos", OpKind::Cos},     {"erf", OpKind::Erf},
        {"sigmoid", OpKind::Sigmoid}, {"tanh", OpKind::Tanh}};
    return unaryOp(kinds.at(name), x, r);
}

Value Checker::biMinMaxElt(CallArgs& c, bool isMax)
{
    Bound b;
    std::string fn = isMax ? "tl.maximum" : "tl.minimum";
    if (!bind(c, c.fn == "max" || c.fn == "min" ? c.fn : fn, {"x", "y", "propagate_nan"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    if (!b.v[0].isTensor() && !b.v[1].isTensor()) {
        if (b.v[0].isNumber() && b.v[1].isNumber()) {
            bool first = isMax ? b.v[0].asDouble() >= b.v[1].asDouble() : b.v[0].asDouble() <= b.v[1].asDouble();
            return first ? b.v[0] : b.v[1];
        }
    }
    for (size_t k = 0; k < 2; ++k) {
        if (!b.v[k].isTensor() && !b.v[k].isNumber()) {
            return error(DiagId::ExpectedTensor, b.r[k], {"an operand of " + fn, b.v[k].describe()});
        }
    }
    Elem ce;
    if (!promote(fn.c_str(), b.v[0], b.v[1], false, r, ce)) {
        return Value::error();
    }
    Value res = elementwise(isMax ? OpKind::Max : OpKind::Min, b.v[0], b.v[1], ce, ce, b.e[0], b.e[1], r);
    if (!res.isError()) {
        int64_t nan = 0;
        if (b.has(2) && b.v[2].kind == VKind::Int) {
            nan = b.v[2].i != 0 ? 1 : 0;
        }
        region().ops.back().ints.push_back(nan);
    }
    return res;
}

Value Checker::biFma(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.fma", {"x", "y", "z"}, 3, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Elem e1, e2;
    if (!promote("tl.fma", b.v[0], b.v[1], false, r, e1)) {
        return Value::error();
    }
    Value xy = b.v[0].isTensor() ? b.v[0] : b.v[1];
    Value proto = Value::tensor(xy.isTensor() ? xy.id : ir::kNoValue, xy.type, xy.origin);
    proto.type.elem = e1;
    if (!xy.isTensor()) {
        proto = toTensor(b.v[0], r);
        proto = cast(proto, e1, r);
    }
    if (!promote("tl.fma", proto, b.v[2], false, r, e2)) {
        return Value::error();
    }
    auto s1 = broadcastShape(b.v[0], b.e[0], b.v[1], b.e[1], r);
    if (!s1) {
        return Value::error();
    }
    std::vector<int64_t> sz = b.v[2].isTensor() ? b.v[2].type.shape : std::vector<int64_t>{};
    size_t bad = 0;
    auto shape = broadcastShapes(*s1, sz, bad);
    if (!shape) {
        return error(DiagId::Broadcast, r,
                     {"x * y", shapeText(*s1), exprText(*b.e[2]), shapeText(sz), "the shapes differ"});
    }
    std::vector<ir::ValueId> ids;
    for (size_t k = 0; k < 3; ++k) {
        Value v = broadcastTo(cast(b.v[k], e2, r), *shape, r);
        ids.push_back(v.id);
    }
    ir::Type t;
    t.elem = e2;
    t.shape = *shape;
    return emitValue(OpKind::Fma, ids, t, r, r);
}

Value Checker::biUmulhi(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.umulhi", {"x", "y"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Elem ce;
    if (!promote("tl.umulhi", b.v[0], b.v[1], false, r, ce)) {
        return Value::error();
    }
    if (ce != Elem::I32 && ce != Elem::I64 && ce != Elem::U32 && ce != Elem::U64) {
        return error(DiagId::IntOnly, r, {"tl.umulhi (int32, int64, uint32, uint64)", ir::elemName(ce)});
    }
    return elementwise(OpKind::UMulHi, b.v[0], b.v[1], ce, ce, b.e[0], b.e[1], r);
}

Value Checker::reduce(const Value& x0, std::optional<int64_t> axis, bool keepDims, const std::string& kind,
                      const ast::Expr* ex, SourceRange r)
{
    Value x = x0;
    std::vector<int64_t> shape = x.type.shape;
    if (!axis) {
        // axis=None reduces every axis: flatten, reduce axis 0 (core.reduce does the same).
        if (shape.size() > 1) {
            x = reshape(x, {x.type.numel()}, r);
        }
        Value res = reduce(x, 0, false, kind, ex, r);
        if (keepDims && !res.isError()) {
            ir::Type t = res.type;
            t.shape.assign(shape.size(), 1);
            res = emitValue(OpKind::Splat, {res.id}, t, r, r);
        }
        return res;
    }
    ir::Type t = x.type;
    t.shape.erase(t.shape.begin() + *axis);
    if (keepDims) {
        t.shape.insert(t.shape.begin() + *axis, 1);
    }
    if (kind == "argmax" || kind == "argmin") {
        t.elem = Elem::I32;
    }
    Value res = emitValue(OpKind::Reduce, {x.id}, t, r, r, {*axis, keepDims ? 1 : 0});
    region().ops.back().text = kind;
    if (kind == "argmax" || kind == "argmin") {
        region().ops.back().ints.push_back(1);
    }
    return res;
}

Value Checker::biReduce(CallArgs& c, const std::string& kind)
{
    Bound b;
    std::string fn = "tl." + kind;
    bool ok;
    bool isArg = kind == "argmax" || kind == "argmin";
    bool isMinMax = kind == "max" || kind == "min";
    if (kind == "sum") {
        ok = bind(c, fn, {"input", "axis", "keep_dims", "dtype"}, 1, b);
    } else if (isMinMax) {
        ok = bind(c, fn, {"input", "axis", "return_indices", "return_indices_tie_break_left", "keep_dims"}, 1, b);
    } else if (isArg) {
        ok = bind(c, fn, {"input", "axis", "tie_break_left", "keep_dims"}, 2, b);
    } else {
        ok = bind(c, fn, {"input", "axis", "keep_dims"}, 1, b);
    }
    if (!ok) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    std::string xt = b.e[0] ? exprText(*b.e[0]) : "input";
    if (!b.v[0].isTensor() || b.v[0].type.isScalar()) {
        return error(DiagId::ScalarReduce, b.r[0], {xt, fn});
    }
    Value x = b.v[0];
    if (x.type.isPtr()) {
        return error(DiagId::OperandTypes, r, {fn, x.describe(), "nothing", ": load the values first"});
    }
    size_t rank = x.type.shape.size();
    std::optional<int64_t> axis;
    if (b.has(1) && b.v[1].kind != VKind::None) {
        auto a = constInt(b.v[1], b.e[1], b.r[1], "the axis of " + fn);
        if (!a) {
            return Value::error();
        }
        int64_t ax = *a < 0 ? *a + static_cast<int64_t>(rank) : *a;
        if (ax < 0 || ax >= static_cast<int64_t>(rank)) {
            std::vector<DiagNote> notes{shapeNote(xt, x)};
            return error(DiagId::AxisRange, b.r[1],
                         {std::to_string(*a), xt, shapeText(x.type.shape), std::to_string(rank), axesHint(rank)},
                         notes);
        }
        axis = ax;
    }
    size_t kdIndex = kind == "sum" ? 2 : isMinMax ? 4 : isArg ? 3 : 2;
    bool keepDims = b.has(kdIndex) && b.v[kdIndex].truthy();
    lintReduceInput(x, kind, r);
    Elem e = x.type.elem;
    if (kind == "sum") {
        if (b.has(3) && b.v[3].kind != VKind::None) {
            auto dt = dtypeArg(b.v[3], b.r[3], "the dtype of tl.sum");
            if (!dt) {
                return Value::error();
            }
            x = cast(x, dt->elem, r);
        } else if (ir::isInt(e) && ir::bitWidth(e) < 32) {
            x = cast(x, isUnsignedInt(e) ? Elem::U32 : Elem::I32, r);
        }
        return reduce(x, axis, keepDims, "sum", b.e[0], r);
    }
    if (kind == "xor_sum") {
        if (!ir::isInt(e)) {
            return error(DiagId::IntOnly, b.r[0], {"tl.xor_sum", x.type.str()});
        }
        return reduce(x, axis, keepDims, "xor_sum", b.e[0], r);
    }
    if (e == Elem::BF16) {
        x = cast(x, Elem::F32, r);
        e = Elem::F32;
    }
    bool withIndices = isArg || (isMinMax && b.has(2) && b.v[2].truthy());
    if (!withIndices && ir::bitWidth(e) < 32) {
        x = cast(x, ir::isFloat(e) ? Elem::F32 : Elem::I32, r);
    }
    if (isArg) {
        return reduce(x, axis, keepDims, kind, b.e[0], r);
    }
    Value vals = reduce(x, axis, keepDims, kind, b.e[0], r);
    if (!withIndices || vals.isError()) {
        return vals;
    }
    Value idx = reduce(x, axis, keepDims, kind == "max" ? "argmax" : "argmin", b.e[0], r);
    return Value::tuple({vals, idx});
}

Value Checker::biCumsum(CallArgs& c, const std::string& kind)
{
    Bound b;
    std::string fn = kind == "sum" ? "tl.cumsum" : "tl.cumprod";
    if (!bind(c, fn, {"input", "axis", "reverse", "dtype"}, 1, b)) {
        return Value::error();
    }
    if (!b.v[0].isTensor() || b.v[0].type.isScalar()) {
        return error(DiagId::ScalarReduce, b.r[0], {b.e[0] ? exprText(*b.e[0]) : "input", fn});
    }
    Value x = b.v[0];
    int64_t rank = static_cast<int64_t>(x.type.shape.size());
    int64_t axis = 0;
    if (b.has(1)) {
        auto a = constInt(b.v[1], b.e[1], b.r[1], "the axis of " + fn);
        if (!a) {
            return Value::error();
        }
        axis = *a < 0 ? *a + rank : *a;
        if (axis < 0 || axis >= rank) {
            return error(DiagId::AxisRange, b.r[1],
                         {std::to_string(*a), exprText(*b.e[0]), shapeText(x.type.shape), std::to_string(rank),
                          axesHint(static_cast<size_t>(rank))});
        }
    }
    if (b.has(3) && b.v[3].kind == VKind::DType) {
        x = cast(x, b.v[3].type.elem, c.node->range);
    } else if (kind == "sum" && ir::isInt(x.type.elem) && ir::bitWidth(x.type.elem) < 32) {
        x = cast(x, isUnsignedInt(x.type.elem) ? Elem::U32 : Elem::I32, c.node->range);
    }
    bool reverse = b.has(2) && b.v[2].truthy();
    Value res = emitValue(OpKind::Scan, {x.id}, x.type, c.node->range, x.origin, {axis, reverse ? 1 : 0});
    region().ops.back().text = kind;
    return res;
}

Value Checker::biDot(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.dot",
              {"input", "other", "acc", "input_precision", "allow_tf32", "max_num_imprecise_acc", "out_dtype"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    std::string ta = b.e[0] ? exprText(*b.e[0]) : "a";
    std::string tb = b.e[1] ? exprText(*b.e[1]) : "b";
    for (size_t k = 0; k < 2; ++k) {
        const Value& v = b.v[k];
        if (!v.isTensor() || v.type.isPtr() || (v.type.shape.size() != 2 && v.type.shape.size() != 3)) {
            return error(
                DiagId::DotRank, b.r[k], {k == 0 ? ta : tb, v.isTensor() ? shapeText(v.type.shape) : v.describe()},
                v.isTensor() ? std::vector<DiagNote>{shapeNote(k == 0 ? ta : tb, v)} : std::vector<DiagNote>{});
        }
    }
    const Value& a = b.v[0];
    const Value& bb = b.v[1];
    size_t rank = a.type.shape.size();
    if (bb.type.shape.size() != rank) {
        return error(DiagId::DotRank, b.r[1], {tb, shapeText(bb.type.shape)});
    }
    int64_t m = a.type.shape[rank - 2];
    int64_t k = a.type.shape[rank - 1];
    int64_t k2 = bb.type.shape[rank - 2];
    int64_t n = bb.type.shape[rank - 1];
    if (k != k2) {
        return error(DiagId::DotK, r,
                     {ta, shapeText(a.type.shape), tb, shapeText(bb.type.shape), std::to_string(k), std::to_string(k2)},
                     {shapeNote(ta, a), shapeNote(tb, bb)}, {b.r[0], b.r[1]});
    }
    if (rank == 3 && a.type.shape[0] != bb.type.shape[0]) {
        return error(DiagId::DotK, r,
                     {ta, shapeText(a.type.shape), tb, shapeText(bb.type.shape), std::to_string(a.type.shape[0]),
                      std::to_string(bb.type.shape[0])});
    }
    if (a.type.elem != bb.type.elem) {
        PromoteError err;
        Elem common = computationType(a.type.elem, false, bb.type.elem, false, false, err);
        ir::Type ct;
        ct.elem = common;
        return error(DiagId::DotDType, r, {a.type.str(), bb.type.str(), dtypeName(ct)}, {}, {b.r[0], b.r[1]});
    }
    Elem e = a.type.elem;
    int64_t minK = (e == Elem::I8 || e == Elem::U8) ? 32 : 16;
    const char* dimName[3] = {"M (rows of the first operand)", "N (columns of the second operand)",
                              "K (the inner dimension)"};
    int64_t dims[3] = {m, n, k};
    for (int d = 0; d < 3; ++d) {
        int64_t minimum = d == 2 ? minK : 16;
        if (dims[d] < minimum) {
            return error(DiagId::DotSmall, r, {dimName[d], std::to_string(dims[d])},
                         {shapeNote(d == 1 ? tb : ta, d == 1 ? bb : a)});
        }
    }
    std::string precision = "tf32";
    if (b.has(4) && b.v[4].kind == VKind::Bool) {
        precision = b.v[4].b ? "tf32" : "ieee";
    }
    if (b.has(3) && b.v[3].kind != VKind::None) {
        if (b.v[3].kind != VKind::Str || (b.v[3].s != "tf32" && b.v[3].s != "tf32x3" && b.v[3].s != "ieee")) {
            return error(DiagId::DotPrecision, b.r[3], {b.v[3].describe()});
        }
        precision = b.v[3].s;
    }
    // semantic.py dot: integer inputs accumulate in int32, fp64 inputs in fp64 (always IEEE), the rest in fp32.
    Elem out = ir::isInt(e) ? Elem::I32 : e == Elem::F64 ? Elem::F64 : Elem::F32;
    if (e == Elem::F64) {
        precision = "ieee";
    }
    if (b.has(6) && b.v[6].kind != VKind::None) {
        auto dt = dtypeArg(b.v[6], b.r[6], "out_dtype");
        if (!dt) {
            return Value::error();
        }
        if (!ir::isInt(e)) {
            out = dt->elem;
        }
    }
    ir::Type t;
    t.elem = out;
    t.shape = a.type.shape;
    t.shape[rank - 1] = n;
    ir::ValueId accId = ir::kNoValue;
    if (b.has(2) && b.v[2].kind != VKind::None) {
        const Value& acc = b.v[2];
        if (!acc.isTensor() || !(acc.type == t)) {
            return error(DiagId::DotAcc, b.r[2], {acc.isTensor() ? acc.type.str() : acc.describe(), t.str()},
                         acc.isTensor() ? std::vector<DiagNote>{shapeNote(b.e[2] ? exprText(*b.e[2]) : "acc", acc)}
                                        : std::vector<DiagNote>{});
        }
        accId = acc.id;
    }
    Value res = emitValue(OpKind::Dot, {a.id, bb.id, accId}, t, r, r);
    region().ops.back().text = precision;
    return res;
}

Value Checker::biSoftmax(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.softmax", {"input", "dim", "keep_dims", "ieee_rounding"}, 1, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Value x = b.v[0];
    if (!x.isTensor() || x.type.isScalar()) {
        return error(DiagId::ScalarReduce, b.r[0], {b.e[0] ? exprText(*b.e[0]) : "input", "tl.softmax"});
    }
    int64_t dim = 0;
    if (b.has(1) && b.v[1].kind != VKind::None) {
        auto d = constInt(b.v[1], b.e[1], b.r[1], "the dim of tl.softmax");
        if (!d) {
            return Value::error();
        }
        dim = *d;
    }
    if (x.type.elem != Elem::F32 && x.type.elem != Elem::F64) {
        return error(DiagId::MathDType, r,
                     {"tl.softmax (which calls tl.exp)", ir::elemName(x.type.elem), b.e[0] ? exprText(*b.e[0]) : "x"});
    }
    Value mx = reduce(x, dim, true, "max", b.e[0], r);
    Value z = binary(ast::BinOpKind::Sub, x, mx, b.e[0], nullptr, r);
    Value num = unaryOp(OpKind::Exp, z, r);
    Value den = reduce(num, dim, true, "sum", nullptr, r);
    return binary(ast::BinOpKind::Div, num, den, nullptr, nullptr, r);
}

} // namespace tkm::triton::sema
