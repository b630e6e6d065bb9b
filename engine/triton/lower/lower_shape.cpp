// Ops that move data between layouts (the correctness floor: a chunked exchange through shared memory):
// broadcast, trans, join, cat; reductions and scans (each output element combined in index order, so argmax and
// argmin keep Triton's lowest-index ties); tl.dot as an FMA loop over K chunks staged in shared memory (fp32
// accumulation, tf32 rounding of fp32 inputs when input_precision is tf32). ExpandDims and Reshape keep the
// row-major order and so the layout: plain register copies.

#include "engine/triton/lower/lower_impl.h"

#include <algorithm>

namespace tkm::triton::lower {

using ir::Elem;
using ir::OpKind;

namespace {

std::string str(int64_t x) { return std::to_string(x); }

std::vector<int64_t> stridesOf(const std::vector<int64_t>& shape)
{
    std::vector<int64_t> s(shape.size(), 1);
    for (size_t d = shape.size(); d-- > 1;) {
        s[d - 1] = s[d] * shape[d];
    }
    return s;
}

/// The source flat index of a broadcast from `src` to the destination coordinates c0, c1, ….
std::string broadcastIndex(const std::vector<int64_t>& src)
{
    const auto st = stridesOf(src);
    std::string s = "0";
    for (size_t d = 0; d < src.size(); ++d) {
        if (src[d] != 1) {
            s += " + c" + str(static_cast<int64_t>(d)) + " * " + str(st[d]);
        }
    }
    return s;
}

bool lowPrecision(Elem e) { return e == Elem::F16 || e == Elem::BF16; }

/// The type arithmetic is done in: fp32 for fp16/bf16, the type itself otherwise.
std::string computeType(Elem e) { return lowPrecision(e) ? "float" : cElemType(e); }

/// Opens a loop over the destination's slots (one pass with e = 0 for a scalar); `at` is the slot's access.
std::string openDest(Emitter& em, ir::ValueId r)
{
    if (em.type(r).isScalar()) {
        em.line("{");
        ++em.indent;
        em.line("const int i = 0; const int e = 0; (void)i;");
        return em.name(r);
    }
    em.openLoop(em.type(r), true);
    return em.ref(r);
}

/// Stages the source's elements with flat index in [c, c + chunk) in `buf` (owners write).
void stage(Emitter& em, ir::ValueId src, const std::string& buf, int64_t chunk)
{
    em.line("__syncthreads();");
    em.openLoop(em.type(src), true);
    em.line("if (" + em.ownerExpr(em.type(src), "i") + " && e >= c && e < c + " + str(chunk) + ") " + buf +
            "[e - c] = " + em.ref(src) + ";");
    em.closeLoop();
    em.line("__syncthreads();");
}

} // namespace

void emitGenericReduce(Emitter& em, const ir::Op& o)
{
    const ir::ValueId a = o.operands[0];
    const ir::ValueId r = o.results[0];
    const ir::Type& at = em.type(a);
    const ir::Type& rt = em.type(r);
    const bool scan = o.kind == OpKind::Scan;
    const int64_t ax = o.ints.empty() ? 0 : o.ints[0];
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < static_cast<int64_t>(at.shape.size()); ++d) {
        if (d < ax) {
            outer *= at.shape[static_cast<size_t>(d)];
        } else if (d > ax) {
            inner *= at.shape[static_cast<size_t>(d)];
        }
    }
    (void)outer;
    const int64_t len = at.shape.empty() ? 1 : at.shape[static_cast<size_t>(ax)];
    const std::string& kind = o.text;
    const bool arg = kind == "argmax" || kind == "argmin";
    const bool extreme = kind == "max" || kind == "min" || arg;
    const Elem accElem = arg || extreme ? at.elem : rt.elem;
    const std::string act = computeType(accElem);
    const std::string sct = em.cType(at);
    em.cType(rt);
    const int64_t eb = ir::elemBytes(at.elem);
    const int64_t ns = at.numel();
    const int64_t chunk = std::min<int64_t>(ns, std::max<int64_t>(1, em.smemCap / eb));
    em.needSmem(chunk * eb);
    const int64_t slots = rt.isScalar() ? 1 : em.layoutOf(rt).k;
    em.declare(r);
    em.line("{");
    ++em.indent;
    std::string init = "(" + act + ")0";
    if (kind == "prod") {
        init = "(" + act + ")1";
    } else if (kind == "and") {
        init = accElem == Elem::I1 ? "true" : "(" + act + ")~(" + act + ")0";
    }
    em.line(act + " acc[" + str(slots) + "];");
    em.line("bool has[" + str(slots) + "];");
    em.line("int idx[" + str(slots) + "];");
    em.line("#pragma unroll");
    em.line("for (int i = 0; i < " + str(slots) + "; ++i) { acc[i] = " + init + "; has[i] = false; idx[i] = 0; }");
    em.line(sct + "* buf = reinterpret_cast<" + sct + "*>(tkm_smem);");
    em.line("#pragma unroll 1");
    em.line("for (int c = 0; c < " + str(ns) + "; c += " + str(chunk) + ") {");
    ++em.indent;
    stage(em, a, "buf", chunk);
    openDest(em, r);
    std::string base;
    if (scan) {
        em.line("const int kk = (e / " + str(inner) + ") % " + str(len) + ";");
        base = "(e / " + str(inner * len) + ") * " + str(inner * len) + " + e % " + str(inner);
    } else {
        base = "(e / " + str(inner) + ") * " + str(inner * len) + " + e % " + str(inner);
    }
    em.line("const int base = " + base + ";");
    const bool reverse = scan && o.ints.size() > 1 && o.ints[1] == 1;
    std::string range = "int k = 0; k < " + str(len) + "; ++k";
    if (scan) {
        range = reverse ? "int k = " + str(len - 1) + "; k >= kk; --k" : "int k = 0; k <= kk; ++k";
    }
    em.line("#pragma unroll 1");
    em.line("for (" + range + ") {");
    ++em.indent;
    em.line("const int s = base + k * " + str(inner) + ";");
    em.line("if (s < c || s >= c + " + str(chunk) + ") continue;");
    em.line("const " + act + " x = (" + act + ")tkm::up(buf[s - c]);");
    if (kind == "sum") {
        em.line("acc[i] = acc[i] + x;");
    } else if (kind == "prod") {
        em.line("acc[i] = acc[i] * x;");
    } else if (kind == "xor_sum") {
        em.line("acc[i] = acc[i] ^ x;");
    } else if (kind == "and") {
        em.line("acc[i] = acc[i] & x;");
    } else if (kind == "or") {
        em.line("acc[i] = acc[i] | x;");
    } else {
        const bool isMax = kind == "max" || kind == "argmax";
        const bool left = !arg || o.ints.size() < 3 || o.ints[2] != 0;
        std::string better = isMax ? "x > acc[i]" : "x < acc[i]";
        if (arg && !left) {
            better = isMax ? "x >= acc[i]" : "x <= acc[i]";
        }
        if (!arg) {
            better = "tkm::isnan_(acc[i]) ? false : (tkm::isnan_(x) || " + better + ")";
            better = isMax ? "(!tkm::isnan_(x) && (tkm::isnan_(acc[i]) || x > acc[i]))"
                           : "(!tkm::isnan_(x) && (tkm::isnan_(acc[i]) || x < acc[i]))";
        }
        em.line("if (!has[i] || " + better + ") { acc[i] = x; idx[i] = k; has[i] = true; }");
    }
    --em.indent;
    em.line("}");
    em.closeLoop();
    --em.indent;
    em.line("}");
    em.line("__syncthreads();");
    const std::string dst = rt.isScalar() ? em.name(r) : em.name(r) + "[i]";
    const std::string val = arg ? "idx[i]" : "acc[i]";
    em.line("#pragma unroll");
    em.line("for (int i = 0; i < " + str(slots) + "; ++i) " + dst + " = tkm::cast<" + cElemType(rt.elem) + ">(" +
            val + ");");
    --em.indent;
    em.line("}");
}

namespace {

void emitDotOp(Emitter& em, const ir::Op& o)
{
    const ir::ValueId a = o.operands[0];
    const ir::ValueId b = o.operands[1];
    const ir::ValueId c = o.operands.size() > 2 ? o.operands[2] : ir::kNoValue;
    const ir::ValueId r = o.results[0];
    const ir::Type& at = em.type(a);
    const ir::Type& bt = em.type(b);
    const ir::Type& rt = em.type(r);
    if (at.shape.size() != 2 || bt.shape.size() != 2) {
        em.internalError(o, "tl.dot of rank-" + std::to_string(at.shape.size()) + " tiles has no CUDA lowering");
        return;
    }
    const int64_t m = at.shape[0], kd = at.shape[1], n = bt.shape[1];
    const bool integer = ir::isInt(at.elem);
    const std::string ct = integer ? (rt.elem == Elem::I64 ? "long long" : "int")
                                   : (at.elem == Elem::F64 || rt.elem == Elem::F64 ? "double" : "float");
    const bool tf32 = at.elem == Elem::F32 && bt.elem == Elem::F32 && (o.text.empty() || o.text == "tf32");
    em.cType(at);
    em.cType(bt);
    const int64_t cs = ct == "double" || ct == "long long" ? 8 : 4;
    int64_t kc = 1;
    while (kc * 2 <= kd && (m + n) * kc * 2 * cs <= em.smemCap) {
        kc *= 2;
    }
    em.needSmem((m + n) * kc * cs);
    em.declare(r);
    const int64_t slots = em.layoutOf(rt).k;
    em.line("{");
    ++em.indent;
    em.line(ct + " acc[" + str(slots) + "];");
    em.openLoop(rt, false);
    em.line("acc[i] = " + (c != ir::kNoValue ? "(" + ct + ")tkm::up(" + em.ref(c) + ")" : "(" + ct + ")0") + ";");
    em.closeLoop();
    em.line(ct + "* sa = reinterpret_cast<" + ct + "*>(tkm_smem);");
    em.line(ct + "* sb = sa + " + str(m * kc) + ";");
    em.line("#pragma unroll 1");
    em.line("for (int k0 = 0; k0 < " + str(kd) + "; k0 += " + str(kc) + ") {");
    ++em.indent;
    em.line("__syncthreads();");
    const std::string conv = tf32 ? "tkm::tf32_((float)tkm::up(X))" : "(" + ct + ")tkm::up(X)";
    auto convOf = [&](const std::string& x) {
        std::string s = conv;
        s.replace(s.find('X'), 1, x);
        return s;
    };
    em.openLoop(at, true);
    em.line("const int k = e % " + str(kd) + ";");
    em.line("if (" + em.ownerExpr(at, "i") + " && k >= k0 && k < k0 + " + str(kc) + ") sa[(e / " + str(kd) + ") * " +
            str(kc) + " + k - k0] = " + convOf(em.ref(a)) + ";");
    em.closeLoop();
    em.openLoop(bt, true);
    em.line("const int k = e / " + str(n) + ";");
    em.line("if (" + em.ownerExpr(bt, "i") + " && k >= k0 && k < k0 + " + str(kc) + ") sb[(k - k0) * " + str(n) +
            " + e % " + str(n) + "] = " + convOf(em.ref(b)) + ";");
    em.closeLoop();
    em.line("__syncthreads();");
    em.openLoop(rt, true);
    em.line("const int mm = e / " + str(n) + ", nn = e % " + str(n) + ";");
    em.line(ct + " s = acc[i];");
    em.line("#pragma unroll 8");
    em.line("for (int kk = 0; kk < " + str(kc) + "; ++kk) s += sa[mm * " + str(kc) + " + kk] * sb[kk * " + str(n) +
            " + nn];");
    em.line("acc[i] = s;");
    em.closeLoop();
    --em.indent;
    em.line("}");
    em.line("__syncthreads();");
    em.openLoop(rt, false);
    em.line(em.ref(r) + " = tkm::cast<" + cElemType(rt.elem) + ">(acc[i]);");
    em.closeLoop();
    --em.indent;
    em.line("}");
}

} // namespace

bool emitShape(Emitter& em, const ir::Op& o)
{
    switch (o.kind) {
    case OpKind::ExpandDims:
    case OpKind::Reshape:
        em.declare(o.results[0]);
        em.forwardRowSlice(o.results[0], o.operands[0]);
        if (em.type(o.operands[0]).isScalar()) {
            em.openLoop(em.type(o.results[0]), false);
            em.line(em.ref(o.results[0]) + " = " + em.name(o.operands[0]) + ";");
            em.closeLoop();
        } else if (em.type(o.results[0]).isScalar()) {
            em.line(em.name(o.results[0]) + " = " + em.name(o.operands[0]) + "[0];");
        } else {
            em.copyValue(o.results[0], o.operands[0]);
        }
        return true;
    case OpKind::Broadcast: {
        const ir::Type& st = em.type(o.operands[0]);
        em.declare(o.results[0]);
        if (st.numel() == em.type(o.results[0]).numel()) {
            em.copyValue(o.results[0], o.operands[0]);
        } else if (em.broadcastRowSlice(o.results[0], o.operands[0])) {
            // the row values are already in the threads that own each row's elements: no data moves
        } else if (st.isScalar()) {
            em.openLoop(em.type(o.results[0]), false);
            em.line(em.ref(o.results[0]) + " = " + em.name(o.operands[0]) + ";");
            em.closeLoop();
        } else {
            em.gather(o.results[0], o.operands[0], broadcastIndex(st.shape));
        }
        return true;
    }
    case OpKind::Trans: {
        const ir::Type& st = em.type(o.operands[0]);
        const auto strides = stridesOf(st.shape);
        std::string idx = "0";
        for (size_t i = 0; i < o.ints.size() && i < st.shape.size(); ++i) {
            idx += " + c" + str(static_cast<int64_t>(i)) + " * " + str(strides[static_cast<size_t>(o.ints[i])]);
        }
        em.declare(o.results[0]);
        em.gather(o.results[0], o.operands[0], idx);
        return true;
    }
    case OpKind::Join: {
        const ir::Type& rt = em.type(o.results[0]);
        const size_t last = rt.shape.size() - 1;
        std::vector<int64_t> srcShape(rt.shape.begin(), rt.shape.end() - 1);
        const auto strides = stridesOf(srcShape);
        std::string idx = "0";
        for (size_t d = 0; d < srcShape.size(); ++d) {
            idx += " + c" + str(static_cast<int64_t>(d)) + " * " + str(strides[d]);
        }
        em.declare(o.results[0]);
        em.gather(o.results[0], o.operands[0], idx, "c" + str(static_cast<int64_t>(last)) + " == 0");
        em.gather(o.results[0], o.operands[1], idx, "c" + str(static_cast<int64_t>(last)) + " == 1");
        return true;
    }
    case OpKind::Cat: {
        const ir::Type& at = em.type(o.operands[0]);
        const int64_t rows = at.shape.empty() ? 1 : at.shape[0];
        const int64_t an = at.numel();
        em.declare(o.results[0]);
        em.gather(o.results[0], o.operands[0], "e", "c0 < " + str(rows));
        em.gather(o.results[0], o.operands[1], "e - " + str(an), "c0 >= " + str(rows));
        return true;
    }
    default:
        return false;
    }
}

bool emitDot(Emitter& em, const ir::Op& o)
{
    if (o.kind != OpKind::Dot) {
        return false;
    }
    emitDotOp(em, o);
    return true;
}

} // namespace tkm::triton::lower
