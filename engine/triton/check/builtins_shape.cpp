// Shape builtins: tl.trans/permute/.T, reshape/view/ravel, expand_dims (and `[None, :]`), broadcast_to,
// broadcast, join and cat. Shapes are constexpr tuples; every result extent stays a power of two.
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

#include <algorithm>

namespace tkm::triton::sema {

using ir::Elem;
using ir::OpKind;

namespace {

/// The values after the first positional argument: `f(x, (a, b))`, `f(x, a, b)` or `f(x, shape=(a, b))`.
Value varargTuple(const CallArgs& c, const char* kw, const ast::Expr*& e)
{
    e = nullptr;
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        if (c.kwargs[k].first == kw) {
            e = c.kwExprs[k]->value.get();
            return c.kwargs[k].second;
        }
    }
    if (c.args.size() == 2) {
        e = c.argExprs[1];
        return c.args[1];
    }
    std::vector<Value> rest(c.args.begin() + 1, c.args.end());
    return Value::tuple(rest);
}

} // namespace

Value Checker::trans(const Value& x, std::vector<int64_t> perm, SourceRange r)
{
    ir::Type t = x.type;
    for (size_t i = 0; i < perm.size(); ++i) {
        t.shape[i] = x.type.shape[static_cast<size_t>(perm[i])];
    }
    return emitValue(OpKind::Trans, {x.id}, t, r, r, perm);
}

Value Checker::biTrans(CallArgs& c, bool permute)
{
    std::string fn = permute ? "tl.permute" : "tl.trans";
    if (c.args.empty()) {
        return error(DiagId::MissingArg, c.node->range, {fn, "input"});
    }
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        if (c.kwargs[k].first != "dims") {
            return error(DiagId::BadKeyword, c.kwExprs[k]->range,
                         {fn, c.kwargs[k].first, ": its parameters are input, dims"});
        }
    }
    const Value& x = c.args[0];
    std::string xt = c.argExprs[0] ? exprText(*c.argExprs[0]) : "input";
    if (!x.isTensor() || x.type.isScalar()) {
        return error(DiagId::ExpectedTensor, c.node->range, {"the input of " + fn + " (a tile)", x.describe()});
    }
    size_t rank = x.type.shape.size();
    std::vector<int64_t> perm;
    const ast::Expr* e = nullptr;
    Value dims = varargTuple(c, "dims", e);
    if (dims.kind == VKind::Tuple && dims.elems.empty()) {
        if (rank != 2) {
            if (permute) {
                return error(DiagId::MissingArg, c.node->range, {fn, "dims"});
            }
            for (size_t i = 0; i < rank; ++i) {
                perm.push_back(static_cast<int64_t>(rank - 1 - i));
            }
        } else {
            perm = {1, 0};
        }
    } else {
        auto p = dims.kind == VKind::Tuple ? std::optional<std::vector<int64_t>>() : std::nullopt;
        std::vector<Value> elems = dims.kind == VKind::Tuple ? dims.elems : std::vector<Value>{dims};
        for (const Value& d : elems) {
            auto k = constInt(d, e, c.node->range, "a dimension of " + fn);
            if (!k) {
                return Value::error();
            }
            perm.push_back(*k);
        }
    }
    std::vector<int64_t> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    bool ok = sorted.size() == rank;
    for (size_t i = 0; ok && i < rank; ++i) {
        ok = sorted[i] == static_cast<int64_t>(i);
    }
    if (!ok) {
        return error(DiagId::TransPerm, c.node->range, {shapeText(perm), std::to_string(rank), xt});
    }
    return trans(x, perm, c.node->range);
}

Value Checker::reshape(const Value& x, const std::vector<int64_t>& shape, SourceRange r)
{
    ir::Type t = x.type;
    t.shape = shape;
    return emitValue(OpKind::Reshape, {x.id}, t, r, r, {0});
}

Value Checker::biReshape(CallArgs& c)
{
    if (c.args.empty()) {
        return error(DiagId::MissingArg, c.node->range, {c.fn, "input"});
    }
    const Value& x = c.args[0];
    std::string xt = c.argExprs[0] ? exprText(*c.argExprs[0]) : "input";
    if (!x.isTensor()) {
        return error(DiagId::ExpectedTensor, c.node->range, {"the input of " + c.fn, x.describe()});
    }
    bool canReorder = false;
    for (size_t k = 0; k < c.kwargs.size(); ++k) {
        if (c.kwargs[k].first == "can_reorder") {
            canReorder = c.kwargs[k].second.truthy();
        } else if (c.kwargs[k].first != "shape") {
            return error(DiagId::BadKeyword, c.kwExprs[k]->range,
                         {c.fn, c.kwargs[k].first, ": its parameters are input, shape, can_reorder"});
        }
    }
    std::vector<int64_t> shape;
    if (c.fn == "tl.ravel") {
        shape = {x.type.numel()};
    } else {
        const ast::Expr* e = nullptr;
        Value s = varargTuple(c, "shape", e);
        auto sh = constShape(s, e, c.node->range, c.fn);
        if (!sh) {
            return Value::error();
        }
        shape = *sh;
    }
    int64_t n = 1;
    for (int64_t d : shape) {
        n *= d;
    }
    if (n != x.type.numel()) {
        return error(DiagId::ReshapeNumel, c.node->range, {xt, x.type.str(), shapeText(shape)}, {shapeNote(xt, x)});
    }
    if (shape == x.type.shape) {
        return x;
    }
    Value v = reshape(x, shape, c.node->range);
    region().ops.back().ints[0] = canReorder ? 1 : 0;
    return v;
}

Value Checker::expandDims(const Value& x, int64_t axis, SourceRange r)
{
    ir::Type t = x.type;
    t.shape.insert(t.shape.begin() + axis, 1);
    return emitValue(OpKind::ExpandDims, {x.id}, t, r, x.origin.begin.line ? x.origin : r, {axis});
}

Value Checker::biExpandDims(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.expand_dims", {"input", "axis"}, 2, b)) {
        return Value::error();
    }
    Value x = b.v[0];
    if (!x.isTensor()) {
        x = toTensor(x, b.r[0]);
        if (x.isError()) {
            return x;
        }
    }
    std::vector<Value> axes = b.v[1].kind == VKind::Tuple ? b.v[1].elems : std::vector<Value>{b.v[1]};
    int64_t newRank = static_cast<int64_t>(x.type.shape.size() + axes.size());
    std::vector<int64_t> norm;
    for (const Value& a : axes) {
        auto k = constInt(a, b.e[1], b.r[1], "the axis of tl.expand_dims");
        if (!k) {
            return Value::error();
        }
        int64_t ax = *k < 0 ? *k + newRank : *k;
        if (ax < 0 || ax >= newRank) {
            return error(DiagId::AxisRange, b.r[1],
                         {std::to_string(*k), b.e[0] ? exprText(*b.e[0]) : "input", shapeText(x.type.shape),
                          std::to_string(x.type.shape.size()), "an axis between 0 and " + std::to_string(newRank - 1)});
        }
        norm.push_back(ax);
    }
    std::sort(norm.begin(), norm.end());
    for (int64_t ax : norm) {
        x = expandDims(x, ax, c.node->range);
    }
    return x;
}

Value Checker::biBroadcastTo(CallArgs& c)
{
    if (c.args.empty()) {
        return error(DiagId::MissingArg, c.node->range, {"tl.broadcast_to", "input"});
    }
    const ast::Expr* e = nullptr;
    Value s = varargTuple(c, "shape", e);
    auto shape = constShape(s, e, c.node->range, "tl.broadcast_to");
    if (!shape) {
        return Value::error();
    }
    Value x = toTensor(c.args[0], c.node->range);
    if (x.isError()) {
        return x;
    }
    std::string xt = c.argExprs[0] ? exprText(*c.argExprs[0]) : "input";
    bool ok = x.type.shape.size() <= shape->size();
    for (size_t i = 0; ok && i < x.type.shape.size(); ++i) {
        int64_t src = x.type.shape[x.type.shape.size() - 1 - i];
        int64_t dst = (*shape)[shape->size() - 1 - i];
        ok = src == dst || src == 1;
    }
    if (!ok) {
        return error(DiagId::BroadcastTo, c.node->range, {xt, x.type.str(), shapeText(*shape)}, {shapeNote(xt, x)});
    }
    return broadcastTo(x, *shape, c.node->range);
}

Value Checker::biBroadcast(CallArgs& c)
{
    Bound b;
    if (!bind(c, "tl.broadcast", {"input", "other"}, 2, b)) {
        return Value::error();
    }
    auto shape = broadcastShape(b.v[0], b.e[0], b.v[1], b.e[1], c.node->range);
    if (!shape) {
        return Value::error();
    }
    Value x = broadcastTo(toTensor(b.v[0], b.r[0]), *shape, c.node->range);
    Value y = broadcastTo(toTensor(b.v[1], b.r[1]), *shape, c.node->range);
    return Value::tuple({x, y});
}

Value Checker::biJoinCat(CallArgs& c, bool join)
{
    Bound b;
    if (!bind(c, join ? "tl.join" : "tl.cat", {"input", "other", "can_reorder"}, 2, b)) {
        return Value::error();
    }
    SourceRange r = c.node->range;
    Value x = toTensor(b.v[0], b.r[0]);
    Value y = toTensor(b.v[1], b.r[1]);
    if (x.isError() || y.isError()) {
        return Value::error();
    }
    Elem ce;
    if (!promote(join ? "tl.join" : "tl.cat", x, y, false, r, ce)) {
        return Value::error();
    }
    if (join) {
        auto shape = broadcastShape(x, b.e[0], y, b.e[1], r);
        if (!shape) {
            return Value::error();
        }
        x = broadcastTo(cast(x, ce, r), *shape, r);
        y = broadcastTo(cast(y, ce, r), *shape, r);
        ir::Type t = x.type;
        t.shape.push_back(2);
        return emitValue(OpKind::Join, {x.id, y.id}, t, r, r);
    }
    if (x.type.isScalar() || !(x.type.shape == y.type.shape)) {
        return error(DiagId::Broadcast, r,
                     {b.e[0] ? exprText(*b.e[0]) : "input", x.type.str(), b.e[1] ? exprText(*b.e[1]) : "other",
                      y.type.str(), "tl.cat needs two tiles of the same shape"});
    }
    x = cast(x, ce, r);
    y = cast(y, ce, r);
    ir::Type t = x.type;
    t.shape[0] *= 2;
    return emitValue(OpKind::Cat, {x.id, y.id}, t, r, r);
}

} // namespace tkm::triton::sema
