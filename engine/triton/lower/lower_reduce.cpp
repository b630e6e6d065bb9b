// Reductions: the fast paths over the correctness floor (lower_shape.cpp's generic reducer). A full reduction
// to a scalar and a reduction along the last axis both combine in thread first, then with a __shfl_xor_sync
// butterfly among the lanes that share a row, then through shared memory across the warps of a row (as
// ReduceOpToLLVM.cpp does). A row reduction leaves every thread holding the values of the rows it owns
// elements of — the slice layout of the operand — so `r[:, None]` broadcast back over the rows moves no data;
// the result tile in its own layout is gathered from shared memory once. argmax/argmin, scans, reductions
// along other axes and replicated tiles take the floor.

#include "engine/triton/lower/lower_impl.h"

#include <algorithm>

namespace tkm::triton::lower {

using ir::Elem;
using ir::OpKind;

namespace {

std::string str(int64_t x) { return std::to_string(x); }

bool lowPrecision(Elem e) { return e == Elem::F16 || e == Elem::BF16; }

/// The type arithmetic is done in: fp32 for fp16/bf16, the type itself otherwise.
std::string computeType(Elem e) { return lowPrecision(e) ? "float" : cElemType(e); }

/// A reduction's accumulator type, combining expression of x and y, and identity; false when no fast path.
struct Combiner
{
    std::string act, comb, id;
};

bool combinerFor(const std::string& kind, Elem accElem, Combiner& c)
{
    if (kind != "sum" && kind != "max" && kind != "min") {
        return false;
    }
    c.act = computeType(accElem);
    const std::string& act = c.act;
    if (act != "float" && act != "double" && act != "int" && act != "long long" && act != "unsigned" &&
        act != "unsigned long long") {
        return false;
    }
    c.comb = "(x + y)";
    c.id = "(" + act + ")0";
    if (kind == "max") {
        c.comb = "tkm::max_<false>(x, y)";
        c.id = "tkm::lowest<" + act + ">()";
    } else if (kind == "min") {
        c.comb = "tkm::min_<false>(x, y)";
        c.id = "tkm::highest<" + act + ">()";
    }
    return true;
}

/// Full reduction of a tile to a scalar (sum/max/min): in thread over owned slots, __shfl_xor_sync butterfly
/// within each warp, then the warps' partials through shared memory; every thread ends with the result.
bool emitScalarReduce(Emitter& em, const ir::Op& o)
{
    const ir::ValueId a = o.operands[0];
    const ir::ValueId r = o.results[0];
    const ir::Type& at = em.type(a);
    const ir::Type& rt = em.type(r);
    const std::string& kind = o.text;
    Combiner cb;
    if (!rt.isScalar() || !combinerFor(kind, kind == "sum" ? rt.elem : at.elem, cb)) {
        return false;
    }
    const std::string& act = cb.act;
    const std::string& comb = cb.comb;
    const std::string& id = cb.id;
    em.cType(at);
    const int warps = em.nt / 32;
    em.needSmem(static_cast<int64_t>(warps) * 8);
    em.declare(r);
    em.line("{");
    ++em.indent;
    em.line("auto comb = [](" + act + " x, " + act + " y) { return " + comb + "; };");
    em.line(act + " acc = " + id + ";");
    em.openLoop(at, false);
    em.line("if (" + em.ownerExpr(at, "i") + ") acc = comb(acc, (" + act + ")tkm::up(" + em.ref(a) + "));");
    em.closeLoop();
    em.line("#pragma unroll");
    em.line("for (int off = 16; off > 0; off >>= 1) acc = comb(acc, __shfl_xor_sync(0xffffffffu, acc, off));");
    if (warps > 1) {
        em.line(act + "* red = reinterpret_cast<" + act + "*>(tkm_smem);");
        em.line("__syncthreads();");
        em.line("if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = acc;");
        em.line("__syncthreads();");
        em.line("acc = red[0];");
        em.line("#pragma unroll");
        em.line("for (int w = 1; w < " + str(warps) + "; ++w) acc = comb(acc, red[w]);");
        em.line("__syncthreads();");
    }
    em.line(em.name(r) + " = tkm::cast<" + cElemType(rt.elem) + ">(acc);");
    --em.indent;
    em.line("}");
    return true;
}


/// Reduction along the last axis of a tile that is not replicated and whose rows hold whole chunks: each
/// thread keeps one partial per row it touches (`parts`), the lanes of a row combine by butterfly, the warps
/// of a row through shared memory; the partials stay named for broadcastRowSlice.
bool emitRowReduce(Emitter& em, const ir::Op& o)
{
    const ir::ValueId a = o.operands[0];
    const ir::ValueId r = o.results[0];
    const ir::Type& at = em.type(a);
    const ir::Type& rt = em.type(r);
    const int64_t ax = o.ints.empty() ? 0 : o.ints[0];
    Combiner cb;
    if (!em.fast || o.kind != OpKind::Reduce || at.shape.size() < 2 || ax != static_cast<int64_t>(at.shape.size()) - 1 ||
        rt.isScalar() || !combinerFor(o.text, o.text == "sum" ? rt.elem : at.elem, cb)) {
        return false;
    }
    const Layout l = em.layoutOf(at);
    const int64_t len = at.shape.back();
    const int64_t nt = em.nt;
    const int64_t rows = l.n / len;
    const int64_t eb = cb.act == "double" || cb.act == "long long" || cb.act == "unsigned long long" ? 8 : 4;
    if (l.k * nt != l.n || len % l.spt != 0 || rows * eb > em.smemCap) {
        return false;
    }
    const int64_t g = len / l.spt;                          // chunks per row
    const int64_t rr = std::max<int64_t>(1, g / nt);        // a thread's chunks (repetitions) per row
    const int64_t parts = (l.k / l.spt) / rr;               // rows a thread touches
    const int64_t lanes = std::min<int64_t>(g, nt);         // threads sharing a row
    const int64_t warps = nt / 32;
    em.cType(at);
    em.declare(r);
    const std::string part = em.fresh("rowpart");
    em.needSmem(std::max(rows, parts * warps) * eb);
    em.line(cb.act + " " + part + "[" + str(parts) + "];");
    em.line("{");
    ++em.indent;
    em.line("auto comb = [](" + cb.act + " x, " + cb.act + " y) { return " + cb.comb + "; };");
    em.line("#pragma unroll");
    em.line("for (int p = 0; p < " + str(parts) + "; ++p) " + part + "[p] = " + cb.id + ";");
    em.openLoop(at, false);
    em.line(part + "[(i / " + str(l.spt * rr) + ")] = comb(" + part + "[(i / " + str(l.spt * rr) + ")], (" + cb.act +
            ")tkm::up(" + em.ref(a) + "));");
    em.closeLoop();
    if (lanes > 1) {
        em.line("#pragma unroll");
        em.line("for (int off = " + str(std::min<int64_t>(lanes, 32) / 2) + "; off > 0; off >>= 1) {");
        em.line("    #pragma unroll");
        em.line("    for (int p = 0; p < " + str(parts) + "; ++p) " + part + "[p] = comb(" + part +
                "[p], __shfl_xor_sync(0xffffffffu, " + part + "[p], off));");
        em.line("}");
    }
    em.line(cb.act + "* red = reinterpret_cast<" + cb.act + "*>(tkm_smem);");
    if (lanes > 32) {
        const int64_t w = lanes / 32; // warps per row
        em.line("__syncthreads();");
        em.line("if ((threadIdx.x & 31) == 0) {");
        em.line("    #pragma unroll");
        em.line("    for (int p = 0; p < " + str(parts) + "; ++p) red[p * " + str(warps) + " + (threadIdx.x >> 5)] = " +
                part + "[p];");
        em.line("}");
        em.line("__syncthreads();");
        em.line("{");
        em.line("    const int w0 = ((int)(threadIdx.x >> 5) / " + str(w) + ") * " + str(w) + ";");
        em.line("    #pragma unroll");
        em.line("    for (int p = 0; p < " + str(parts) + "; ++p) {");
        em.line("        " + cb.act + " x = red[p * " + str(warps) + " + w0];");
        em.line("        #pragma unroll");
        em.line("        for (int q = 1; q < " + str(w) + "; ++q) x = comb(x, red[p * " + str(warps) + " + w0 + q]);");
        em.line("        " + part + "[p] = x;");
        em.line("    }");
        em.line("}");
    }
    // the result tile in its own layout: the first lane of each row publishes the row's value
    em.line("__syncthreads();");
    em.line("if (threadIdx.x % " + str(lanes) + " == 0) {");
    em.line("    #pragma unroll");
    em.line("    for (int p = 0; p < " + str(parts) + "; ++p) red[(p * " + str(rr * nt * l.spt) + " + (int)threadIdx.x * " +
            str(l.spt) + ") / " + str(len) + "] = " + part + "[p];");
    em.line("}");
    em.line("__syncthreads();");
    em.openLoop(rt, true);
    em.line(em.ref(r) + " = tkm::cast<" + cElemType(rt.elem) + ">(red[e]);");
    em.closeLoop();
    em.line("__syncthreads();");
    --em.indent;
    em.line("}");
    RowSlice s;
    s.parts = part;
    s.slotsPerPart = l.spt * rr;
    s.shape = at.shape;
    s.elem = rt.elem;
    em.rowSlices[r] = s;
    return true;
}

} // namespace

void Emitter::forwardRowSlice(ir::ValueId dst, ir::ValueId src)
{
    auto it = rowSlices.find(src);
    if (it == rowSlices.end()) {
        return;
    }
    std::vector<int64_t> keep(it->second.shape.begin(), it->second.shape.end() - 1);
    keep.push_back(1);
    if (type(dst).shape == keep) {
        RowSlice s = it->second;
        rowSlices[dst] = s;
    }
}

bool Emitter::broadcastRowSlice(ir::ValueId dst, ir::ValueId src)
{
    auto it = rowSlices.find(src);
    if (it == rowSlices.end() || type(dst).shape != it->second.shape) {
        return false;
    }
    std::vector<int64_t> keep(it->second.shape.begin(), it->second.shape.end() - 1);
    keep.push_back(1);
    if (type(src).shape != keep) {
        return false;
    }
    openLoop(type(dst), false);
    line(ref(dst) + " = tkm::cast<" + cElemType(it->second.elem) + ">(" + it->second.parts + "[i / " +
         std::to_string(it->second.slotsPerPart) + "]);");
    closeLoop();
    return true;
}

bool emitReduce(Emitter& em, const ir::Op& o)
{
    if (o.kind != OpKind::Reduce && o.kind != OpKind::Scan) {
        return false;
    }
    if (em.type(o.operands[0]).isScalar()) {
        em.declare(o.results[0]);
        em.line(em.name(o.results[0]) + " = tkm::cast<" + cElemType(em.type(o.results[0]).elem) + ">(" +
                (o.text == "argmax" || o.text == "argmin" ? std::string("0") : em.name(o.operands[0])) + ");");
        return true;
    }
    if (o.kind == OpKind::Reduce && (emitScalarReduce(em, o) || emitRowReduce(em, o))) {
        return true;
    }
    emitGenericReduce(em, o);
    return true;
}

} // namespace tkm::triton::lower
