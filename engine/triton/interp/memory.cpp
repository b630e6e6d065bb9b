// Loads, stores and atomics with per-lane bounds checks. A pointer lane carries its buffer and an offset in
// pointee elements; an active lane (mask true, or every lane without a mask) must address a whole element
// inside that buffer, else the run stops with a Fault naming the line, program, first bad lane, offset and
// buffer (one check pass, then the access, so a faulting store writes nothing). Masked-off lanes of a load
// read `other`, or 0 as Triton's interpreter fills them; they never fault. Atomics run lane by lane in
// row-major order (programs run one after another), so conflicting lanes and programs serialise.
#include "engine/triton/interp/detail.h"

#include <algorithm>

#include <Eigen/Core>

#include <cmath>
#include <cstring>

namespace tkm::triton::interp::detail {

using ir::Elem;
using ir::OpKind;

namespace {

/// Calls f(T{}) with the C++ type that stores element type `e` in memory.
template <class F> void withStorage(Elem e, F&& f)
{
    switch (e) {
    case Elem::I1:
    case Elem::U8:
        f(uint8_t{});
        return;
    case Elem::I8:
        f(int8_t{});
        return;
    case Elem::I16:
        f(int16_t{});
        return;
    case Elem::U16:
        f(uint16_t{});
        return;
    case Elem::I32:
        f(int32_t{});
        return;
    case Elem::U32:
        f(uint32_t{});
        return;
    case Elem::I64:
    case Elem::Ptr:
        f(int64_t{});
        return;
    case Elem::U64:
        f(uint64_t{});
        return;
    case Elem::F16:
        f(Eigen::half{});
        return;
    case Elem::BF16:
        f(Eigen::bfloat16{});
        return;
    case Elem::F32:
        f(float{});
        return;
    case Elem::F64:
        f(double{});
        return;
    }
}

template <class T>
constexpr bool kIsFloat =
    std::is_floating_point_v<T> || std::is_same_v<T, Eigen::half> || std::is_same_v<T, Eigen::bfloat16>;

/// The element at `p` as the interpreter stores it (I1: any nonzero byte is 1).
template <class T> void readAt(const std::byte* p, Elem e, int64_t& i, double& f)
{
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (kIsFloat<T>) {
        f = static_cast<double>(static_cast<float>(v));
        if constexpr (std::is_same_v<T, double>) {
            f = v;
        }
    } else {
        i = e == Elem::I1 ? (v != 0 ? 1 : 0) : static_cast<int64_t>(v);
    }
}

template <class T> void writeAt(std::byte* p, int64_t i, double f)
{
    T v;
    if constexpr (std::is_same_v<T, double>) {
        v = f;
    } else if constexpr (kIsFloat<T>) {
        v = T(static_cast<float>(f));
    } else {
        v = static_cast<T>(i);
    }
    std::memcpy(p, &v, sizeof(T));
}

/// What the check pass found.
struct BoundsCheck
{
    int64_t bad = 0;    ///< out-of-bounds active lanes
    int64_t first = -1; ///< the first of them (row-major)
};

size_t laneOf(size_t size, size_t k)
{
    return size == 1 ? 0 : k;
}

/// Checks every active lane of pointer tile `p` (mask `m`, or none) for whole elements of `bytes` bytes.
BoundsCheck checkLanes(Context& ctx, const Tile& p, const Tile* m, size_t n, int bytes)
{
    BoundsCheck c;
    int32_t lastBuf = -2;
    int64_t limit = 0;
    for (size_t k = 0; k < n; ++k) {
        if (m && m->i[laneOf(m->i.size(), k)] == 0) {
            continue;
        }
        size_t s = laneOf(p.i.size(), k);
        int32_t b = p.buf[s];
        if (b != lastBuf) {
            lastBuf = b;
            limit = 0;
            if (b >= 0 && static_cast<size_t>(b) < ctx.buffers.size()) {
                const HostBuffer& hb = ctx.buffers[static_cast<size_t>(b)];
                limit = hb.elements * ir::elemBytes(hb.elem) / bytes;
            }
        }
        int64_t off = p.i[s];
        if (off < 0 || off >= limit) {
            if (c.bad++ == 0) {
                c.first = static_cast<int64_t>(k);
            }
        }
    }
    return c;
}

/// Raises the out-of-bounds fault of `op` for the first bad lane `c.first`.
void raiseBounds(Context& ctx, const ir::Op& op, const Tile& p, const std::vector<int64_t>& shape, BoundsCheck c,
                 bool masked)
{
    int64_t off = p.i[laneOf(p.i.size(), static_cast<size_t>(c.first))];
    int32_t b = p.buf[laneOf(p.buf.size(), static_cast<size_t>(c.first))];
    bool known = b >= 0 && static_cast<size_t>(b) < ctx.buffers.size();
    const HostBuffer* hb = known ? &ctx.buffers[static_cast<size_t>(b)] : nullptr;
    bool read = op.kind == OpKind::Load;
    Fault f;
    f.kind = read ? (off < 0 ? FaultKind::ReadBeforeStart : FaultKind::ReadPastEnd)
                  : (off < 0 ? FaultKind::WriteBeforeStart : FaultKind::WritePastEnd);
    f.range = op.range;
    f.programId = ctx.pid;
    f.lane = c.first;
    f.laneIndex = shape.empty() ? std::vector<int64_t>{} : laneCoords(c.first, shape);
    int64_t lanes = 1;
    for (int64_t e : shape) {
        lanes *= e;
    }
    f.tileLanes = lanes;
    f.buffer = hb ? hb->name : "?";
    f.offset = off;
    f.bufferElements = hb ? hb->elements : 0;
    f.masked = masked;
    f.badLanes = c.bad;
    std::string what = op.kind == OpKind::Load        ? "tl.load reads"
                       : op.kind == OpKind::Store     ? "tl.store writes"
                       : op.kind == OpKind::AtomicCAS ? "tl.atomic_cas updates"
                                                      : "tl.atomic_" + op.text + " updates";
    std::string target = hb ? f.buffer + "[" + std::to_string(off) + "] (" + f.buffer + " has " +
                                  std::to_string(f.bufferElements) + (f.bufferElements == 1 ? " element)" : " elements)")
                            : "element " + std::to_string(off) + " of a pointer that is in no buffer";
    f.message = "line " + std::to_string(op.range.begin.line) + ": " + what + " " + target + " in " + programText(ctx) +
                laneText(c.first, shape) + " — " + (masked ? "the mask let this lane through" : "no mask was given");
    ctx.result.fault = std::move(f);
}

std::byte* addressOf(Context& ctx, const Tile& p, size_t s, int bytes)
{
    return ctx.buffers[static_cast<size_t>(p.buf[s])].data + p.i[s] * bytes;
}

void evalLoad(Context& ctx, const ir::Op& op)
{
    const ir::Type& pt = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    Elem pe = pt.pointee;
    int bytes = ir::elemBytes(pe);
    const Tile& p = ctx.tile(op.operands[0]);
    ir::ValueId maskId = op.operands.size() > 1 ? op.operands[1] : ir::kNoValue;
    ir::ValueId otherId = op.operands.size() > 2 ? op.operands[2] : ir::kNoValue;
    const Tile* m = maskId != ir::kNoValue ? &ctx.tile(maskId) : nullptr;
    const Tile* other = otherId != ir::kNoValue ? &ctx.tile(otherId) : nullptr;
    auto n = static_cast<size_t>(rt.numel());
    BoundsCheck c = checkLanes(ctx, p, m, n, bytes);
    if (c.bad > 0) {
        raiseBounds(ctx, op, p, rt.shape, c, m != nullptr);
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    bool isF = ir::isFloat(rt.elem);
    withStorage(pe, [&]<class T>(T) {
        int64_t iv = 0;
        double fv = 0;
        for (size_t k = 0; k < n; ++k) {
            if (m && m->i[laneOf(m->i.size(), k)] == 0) {
                if (isF) {
                    out.f[k] = other ? other->f[laneOf(other->f.size(), k)] : 0.0;
                } else {
                    out.i[k] = other ? other->i[laneOf(other->i.size(), k)] : 0;
                }
                continue;
            }
            readAt<T>(addressOf(ctx, p, laneOf(p.i.size(), k), bytes), pe, iv, fv);
            if (isF) {
                out.f[k] = fv;
            } else {
                out.i[k] = iv;
            }
        }
    });
}

void evalStore(Context& ctx, const ir::Op& op)
{
    const ir::Type& pt = ctx.type(op.operands[0]);
    const ir::Type& vt = ctx.type(op.operands[1]);
    Elem pe = pt.pointee;
    int bytes = ir::elemBytes(pe);
    const Tile& p = ctx.tile(op.operands[0]);
    const Tile& v = ctx.tile(op.operands[1]);
    ir::ValueId maskId = op.operands.size() > 2 ? op.operands[2] : ir::kNoValue;
    const Tile* m = maskId != ir::kNoValue ? &ctx.tile(maskId) : nullptr;
    const std::vector<int64_t>& shape = pt.numel() >= vt.numel() ? pt.shape : vt.shape;
    auto n = static_cast<size_t>(std::max(pt.numel(), vt.numel()));
    BoundsCheck c = checkLanes(ctx, p, m, n, bytes);
    if (c.bad > 0) {
        raiseBounds(ctx, op, p, shape, c, m != nullptr);
        return;
    }
    bool isF = ir::isFloat(vt.elem);
    withStorage(pe, [&]<class T>(T) {
        for (size_t k = 0; k < n; ++k) {
            if (m && m->i[laneOf(m->i.size(), k)] == 0) {
                continue;
            }
            size_t s = laneOf(isF ? v.f.size() : v.i.size(), k);
            writeAt<T>(addressOf(ctx, p, laneOf(p.i.size(), k), bytes), isF ? 0 : v.i[s], isF ? v.f[s] : 0.0);
        }
    });
}

void readLane(const std::byte* at, Elem e, int64_t& i, double& f)
{
    withStorage(e, [&]<class T>(T) { readAt<T>(at, e, i, f); });
}

void writeLane(std::byte* at, Elem e, int64_t i, double f)
{
    withStorage(e, [&]<class T>(T) { writeAt<T>(at, i, f); });
}

/// The value an atomic leaves in memory: `old` combined with `v` by `kind`.
void combine(const std::string& kind, Elem e, int64_t oldI, double oldF, int64_t vI, double vF, int64_t& newI,
             double& newF)
{
    newI = vI;
    newF = vF;
    if (kind == "xchg") {
        return;
    }
    if (ir::isFloat(e)) {
        if (kind == "add") {
            newF = roundFloat(oldF + vF, e);
        } else if (kind == "max") {
            newF = vF > oldF ? vF : oldF;
        } else if (kind == "min") {
            newF = vF < oldF ? vF : oldF;
        }
        return;
    }
    bool u = ir::isUnsigned(e);
    auto uo = static_cast<uint64_t>(oldI);
    auto uv = static_cast<uint64_t>(vI);
    if (kind == "add") {
        newI = static_cast<int64_t>(uo + uv);
    } else if (kind == "max") {
        newI = (u ? uv > uo : vI > oldI) ? vI : oldI;
    } else if (kind == "min") {
        newI = (u ? uv < uo : vI < oldI) ? vI : oldI;
    } else if (kind == "and") {
        newI = oldI & vI;
    } else if (kind == "or") {
        newI = oldI | vI;
    } else if (kind == "xor") {
        newI = oldI ^ vI;
    }
    newI = wrapInt(newI, e);
}

void evalAtomic(Context& ctx, const ir::Op& op)
{
    const ir::Type& pt = ctx.type(op.operands[0]);
    const ir::Type& rt = ctx.type(op.results[0]);
    Elem pe = pt.pointee;
    int bytes = ir::elemBytes(pe);
    bool cas = op.kind == OpKind::AtomicCAS;
    const Tile& p = ctx.tile(op.operands[0]);
    const Tile& v = ctx.tile(op.operands[cas ? 2 : 1]);
    const Tile* cmp = cas ? &ctx.tile(op.operands[1]) : nullptr;
    ir::ValueId maskId = !cas && op.operands.size() > 2 ? op.operands[2] : ir::kNoValue;
    const Tile* m = maskId != ir::kNoValue ? &ctx.tile(maskId) : nullptr;
    auto n = static_cast<size_t>(rt.numel());
    BoundsCheck c = checkLanes(ctx, p, m, n, bytes);
    if (c.bad > 0) {
        raiseBounds(ctx, op, p, rt.shape, c, m != nullptr);
        return;
    }
    Tile& out = prepare(ctx, op.results[0]);
    bool isF = ir::isFloat(pe);
    for (size_t k = 0; k < n; ++k) {
        if (m && m->i[laneOf(m->i.size(), k)] == 0) {
            if (isF) {
                out.f[k] = 0.0;
            } else {
                out.i[k] = 0;
            }
            continue;
        }
        std::byte* at = addressOf(ctx, p, laneOf(p.i.size(), k), bytes);
        int64_t oldI = 0;
        double oldF = 0;
        readLane(at, pe, oldI, oldF);
        size_t s = laneOf(isF ? v.f.size() : v.i.size(), k);
        int64_t vI = isF ? 0 : v.i[s];
        double vF = isF ? v.f[s] : 0.0;
        int64_t newI = oldI;
        double newF = oldF;
        if (cas) {
            // compare-and-swap compares the bits, as the GPU's atom.cas does
            size_t sc = laneOf(isF ? cmp->f.size() : cmp->i.size(), k);
            bool equal = isF ? floatBits(cmp->f[sc], pe) == floatBits(oldF, pe) : cmp->i[sc] == oldI;
            if (equal) {
                newI = vI;
                newF = vF;
            }
        } else {
            combine(op.text, pe, oldI, oldF, vI, vF, newI, newF);
        }
        writeLane(at, pe, newI, newF);
        if (isF) {
            out.f[k] = oldF;
        } else {
            out.i[k] = oldI;
        }
    }
}

} // namespace

std::string programText(const Context& ctx)
{
    const auto& g = ctx.options.grid;
    if (g[1] == 1 && g[2] == 1) {
        return "program " + std::to_string(ctx.pid[0]);
    }
    return "program (" + std::to_string(ctx.pid[0]) + ", " + std::to_string(ctx.pid[1]) + ", " +
           std::to_string(ctx.pid[2]) + ")";
}

std::vector<int64_t> laneCoords(int64_t lane, const std::vector<int64_t>& shape)
{
    std::vector<int64_t> c(shape.size(), 0);
    for (size_t d = shape.size(); d-- > 0;) {
        c[d] = lane % shape[d];
        lane /= shape[d];
    }
    return c;
}

std::string laneText(int64_t lane, const std::vector<int64_t>& shape)
{
    if (shape.empty()) {
        return {};
    }
    std::string at;
    std::string of;
    if (shape.size() == 1) {
        at = std::to_string(lane);
    } else {
        std::vector<int64_t> c = laneCoords(lane, shape);
        for (size_t d = 0; d < c.size(); ++d) {
            at += (d ? ", " : "(") + std::to_string(c[d]);
        }
        at += ")";
    }
    for (size_t d = 0; d < shape.size(); ++d) {
        of += (d ? "×" : "") + std::to_string(shape[d]);
    }
    return ", lane " + at + " of " + of;
}

void raise(Context& ctx, FaultKind kind, const ir::Op& op, std::string message)
{
    Fault f;
    f.kind = kind;
    f.range = op.range;
    f.programId = ctx.pid;
    f.message = "line " + std::to_string(op.range.begin.line) + ": " + message;
    ctx.result.fault = std::move(f);
}

void evalMemory(Context& ctx, const ir::Op& op)
{
    switch (op.kind) {
    case OpKind::Load:
        evalLoad(ctx, op);
        return;
    case OpKind::Store:
        evalStore(ctx, op);
        return;
    default:
        evalAtomic(ctx, op);
        return;
    }
}

} // namespace tkm::triton::interp::detail
