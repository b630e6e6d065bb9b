// Values and shape ops: constants, program ids, aranges, and the ops that move lanes without changing them
// (splat, broadcast, expand_dims, reshape, trans, join, cat). Moves are materialised: each result lane is
// copied from its source lane, found through precomputed strides (0 along a broadcast axis).
#include "engine/triton/interp/detail.h"

#include <algorithm>

namespace tkm::triton::interp::detail {

using ir::Elem;
using ir::OpKind;

namespace {

/// Row-major strides of `shape` [lanes].
std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape)
{
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) {
        s[d - 1] = s[d] * shape[d];
    }
    return s;
}

/// Fills ctx.index with, for each lane of `shape`, Σ coord[d]·stride[d].
void stridedIndex(Context& ctx, const std::vector<int64_t>& shape, const std::vector<int64_t>& stride)
{
    int64_t n = 1;
    for (int64_t e : shape) {
        n *= e;
    }
    ctx.index.resize(static_cast<size_t>(n));
    size_t rank = shape.size();
    if (rank == 0) {
        ctx.index[0] = 0;
        return;
    }
    std::vector<int64_t> coord(rank, 0);
    int64_t inner = shape[rank - 1];
    int64_t innerStride = stride[rank - 1];
    int64_t base = 0;
    for (int64_t lane = 0; lane < n; lane += inner) {
        int64_t* out = ctx.index.data() + lane;
        for (int64_t k = 0; k < inner; ++k) {
            out[k] = base + k * innerStride;
        }
        // advance the outer coordinates (odometer)
        for (size_t d = rank - 1; d-- > 0;) {
            base += stride[d];
            if (++coord[d] < shape[d]) {
                break;
            }
            base -= stride[d] * shape[d];
            coord[d] = 0;
        }
    }
}

/// out[lane] = in[ctx.index[lane]] for the vectors the type uses.
void gather(Context& ctx, const Tile& in, Tile& out, const ir::Type& t)
{
    size_t n = ctx.index.size();
    const int64_t* idx = ctx.index.data();
    if (ir::isFloat(t.elem)) {
        for (size_t k = 0; k < n; ++k) {
            out.f[k] = in.f[static_cast<size_t>(idx[k])];
        }
        return;
    }
    for (size_t k = 0; k < n; ++k) {
        out.i[k] = in.i[static_cast<size_t>(idx[k])];
    }
    if (t.isPtr()) {
        for (size_t k = 0; k < n; ++k) {
            out.buf[k] = in.buf[static_cast<size_t>(idx[k])];
        }
    }
}

void copyLanes(const Tile& in, Tile& out, const ir::Type& t)
{
    if (ir::isFloat(t.elem)) {
        std::copy(in.f.begin(), in.f.begin() + static_cast<ptrdiff_t>(out.f.size()), out.f.begin());
        return;
    }
    std::copy(in.i.begin(), in.i.begin() + static_cast<ptrdiff_t>(out.i.size()), out.i.begin());
    if (t.isPtr()) {
        std::copy(in.buf.begin(), in.buf.begin() + static_cast<ptrdiff_t>(out.buf.size()), out.buf.begin());
    }
}

void evalConstant(Context& ctx, const ir::Op& op)
{
    const ir::Type& t = ctx.type(op.results[0]);
    Tile& out = prepare(ctx, op.results[0]);
    if (ir::isFloat(t.elem)) {
        double v = !op.floats.empty() ? op.floats[0] : op.ints.empty() ? 0.0 : static_cast<double>(op.ints[0]);
        std::fill(out.f.begin(), out.f.end(), roundFloat(v, t.elem));
        return;
    }
    int64_t v = !op.ints.empty() ? op.ints[0] : op.floats.empty() ? 0 : static_cast<int64_t>(op.floats[0]);
    std::fill(out.i.begin(), out.i.end(), wrapInt(v, t.elem));
    if (t.isPtr()) {
        std::fill(out.buf.begin(), out.buf.end(), -1);
    }
}

void evalBroadcastOrTrans(Context& ctx, const ir::Op& op)
{
    const ir::Type& rt = ctx.type(op.results[0]);
    std::vector<int64_t> src = ctx.type(op.operands[0]).shape;
    size_t rank = rt.shape.size();
    std::vector<int64_t> stride(rank, 0);
    if (op.kind == OpKind::Trans) {
        std::vector<int64_t> ss = stridesOf(src);
        for (size_t d = 0; d < rank; ++d) {
            stride[d] = ss[static_cast<size_t>(op.ints[d])];
        }
    } else {
        src.insert(src.begin(), rank - std::min(rank, src.size()), 1); // a scalar or lower rank: pad with 1s
        std::vector<int64_t> ss = stridesOf(src);
        for (size_t d = 0; d < rank; ++d) {
            stride[d] = src[d] == 1 ? 0 : ss[d];
        }
    }
    stridedIndex(ctx, rt.shape, stride);
    gather(ctx, ctx.tile(op.operands[0]), prepare(ctx, op.results[0]), rt);
}

void evalJoinOrCat(Context& ctx, const ir::Op& op)
{
    const ir::Type& rt = ctx.type(op.results[0]);
    int64_t half = ctx.type(op.operands[0]).numel();
    ctx.index.resize(static_cast<size_t>(2 * half));
    // source lane k of `a` is k, of `b` is half + k in the concatenation [a, b]
    for (int64_t k = 0; k < half; ++k) {
        bool join = op.kind == OpKind::Join;
        ctx.index[static_cast<size_t>(join ? 2 * k : k)] = k;
        ctx.index[static_cast<size_t>(join ? 2 * k + 1 : half + k)] = half + k;
    }
    Tile both;
    const Tile& a = ctx.tile(op.operands[0]);
    const Tile& b = ctx.tile(op.operands[1]);
    both.i = a.i;
    both.i.insert(both.i.end(), b.i.begin(), b.i.end());
    both.f = a.f;
    both.f.insert(both.f.end(), b.f.begin(), b.f.end());
    both.buf = a.buf;
    both.buf.insert(both.buf.end(), b.buf.begin(), b.buf.end());
    gather(ctx, both, prepare(ctx, op.results[0]), rt);
}

} // namespace

void evalShape(Context& ctx, const ir::Op& op)
{
    switch (op.kind) {
    case OpKind::Constant:
        evalConstant(ctx, op);
        return;
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
        auto axis = static_cast<size_t>(std::clamp<int64_t>(op.ints.empty() ? 0 : op.ints[0], 0, 2));
        int64_t v = op.kind == OpKind::ProgramId ? ctx.pid[axis] : ctx.options.grid[axis];
        std::fill_n(prepare(ctx, op.results[0]).i.begin(), 1, wrapInt(v, ctx.type(op.results[0]).elem));
        return;
    }
    case OpKind::Arange: {
        Tile& out = prepare(ctx, op.results[0]);
        for (size_t k = 0; k < out.i.size(); ++k) {
            out.i[k] = op.ints[0] + static_cast<int64_t>(k);
        }
        return;
    }
    case OpKind::Splat: {
        const ir::Type& rt = ctx.type(op.results[0]);
        const Tile& a = ctx.tile(op.operands[0]);
        Tile& out = prepare(ctx, op.results[0]);
        if (ir::isFloat(rt.elem)) {
            std::fill(out.f.begin(), out.f.end(), a.f[0]);
        } else {
            std::fill(out.i.begin(), out.i.end(), a.i[0]);
            if (rt.isPtr()) {
                std::fill(out.buf.begin(), out.buf.end(), a.buf[0]);
            }
        }
        return;
    }
    case OpKind::Broadcast:
    case OpKind::Trans:
        evalBroadcastOrTrans(ctx, op);
        return;
    case OpKind::ExpandDims:
    case OpKind::Reshape:
        copyLanes(ctx.tile(op.operands[0]), prepare(ctx, op.results[0]), ctx.type(op.results[0]));
        return;
    case OpKind::Join:
    case OpKind::Cat:
        evalJoinOrCat(ctx, op);
        return;
    default:
        raise(ctx, FaultKind::Unsupported, op, "not a shape op");
        return;
    }
}

} // namespace tkm::triton::interp::detail
