// Memory ops: loads and stores (predicated per element, with a vector access per thread chunk when it is
// contiguous, unmasked and aligned — decided at run time, or at compile time where the axis analysis proves
// it: then a chunk is one vector access under one predicate, no branch to a scalar path, as Triton emits
// it), atomics (owners only; results broadcast to replicas), and the debugging ops device_print /
// device_assert.

#include "engine/triton/lower/lower_impl.h"

#include <algorithm>

namespace tkm::triton::lower {

using ir::Elem;
using ir::OpKind;

namespace {

std::string str(int64_t x) { return std::to_string(x); }

/// Bytes of one chunk access, or 0 when the layout's chunk cannot be one vector access.
int vectorBytes(const Layout& l, Elem pointee)
{
    const int bytes = l.spt * ir::elemBytes(pointee);
    return l.spt >= 2 && (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16) ? bytes : 0;
}

/// The mask slots (offsets from j) whose truth implies the whole chunk's, from the axis analysis: one slot
/// for a mask constant over the chunk, the last slot for `contiguous < uniform` (its largest offset decides),
/// the union for `a & b`; every slot otherwise.
std::vector<int> maskSlots(Emitter& em, ir::ValueId mask, int spt, int depth = 0)
{
    std::vector<int> all;
    for (int q = 0; q < spt; ++q) {
        all.push_back(q);
    }
    if (!em.fast || depth > 4) {
        return all;
    }
    const AxisInfo& m = em.axes[static_cast<size_t>(mask)];
    if (m.constancy >= spt) {
        return {0};
    }
    const ir::Op* d = em.def[static_cast<size_t>(mask)];
    if (d == nullptr || d->operands.size() != 2) {
        return all;
    }
    const AxisInfo& a = em.axes[static_cast<size_t>(d->operands[0])];
    const AxisInfo& b = em.axes[static_cast<size_t>(d->operands[1])];
    const bool rising = (d->kind == OpKind::Lt || d->kind == OpKind::Le) && a.contig >= spt && b.constancy >= spt;
    const bool falling = (d->kind == OpKind::Gt || d->kind == OpKind::Ge) && b.contig >= spt && a.constancy >= spt;
    if ((rising || falling) && ir::isInt(em.type(d->operands[0]).elem)) {
        return {spt - 1};
    }
    if (d->kind == OpKind::And && em.type(mask).elem == Elem::I1) {
        std::vector<int> x = maskSlots(em, d->operands[0], spt, depth + 1);
        for (int q : maskSlots(em, d->operands[1], spt, depth + 1)) {
            if (std::find(x.begin(), x.end(), q) == x.end()) {
                x.push_back(q);
            }
        }
        return x;
    }
    return all;
}

/// Whether the axis analysis proves every chunk of pointer tile `ptr` contiguous and aligned to `bytes`.
bool provenAligned(const Emitter& em, ir::ValueId ptr, const Layout& l, int bytes)
{
    const AxisInfo& a = em.axes[static_cast<size_t>(ptr)];
    return em.fast && a.contig >= l.spt && a.divis >= bytes;
}

/// Whether one vector access under one predicate serves each chunk: proven contiguous and aligned, and the
/// mask (if any) constant over the chunk.
bool wholeChunks(Emitter& em, ir::ValueId ptr, ir::ValueId mask, const Layout& l, int bytes)
{
    return provenAligned(em, ptr, l, bytes) && (mask == ir::kNoValue || maskSlots(em, mask, l.spt) == std::vector<int>{0});
}

/// Emits `fast = chunk j.. of pointer tile p is contiguous, aligned and (mask) all true`; tests the axis
/// analysis proves are dropped.
void chunkTest(Emitter& em, ir::ValueId ptr, ir::ValueId mask, const Layout& l, int bytes)
{
    const std::string p = em.name(ptr);
    em.line(provenAligned(em, ptr, l, bytes) ? "bool fast = true;"
                                             : "bool fast = ((size_t)" + p + "[j] % " + str(bytes) + ") == 0;");
    if (!em.fast || em.axes[static_cast<size_t>(ptr)].contig < l.spt) {
        em.line("#pragma unroll");
        em.line("for (int q = 1; q < " + str(l.spt) + "; ++q) fast = fast && " + p + "[j + q] == " + p + "[j] + q;");
    }
    if (mask != ir::kNoValue) {
        for (int q : maskSlots(em, mask, l.spt)) {
            em.line("fast = fast && " + em.name(mask) + "[j + " + str(q) + "];");
        }
    }
}

/// One chunk of a load that wholeChunks() serves (inside the `for j` loop): the vector access under the
/// chunk's one mask slot, else the fill. No branch to a scalar path, so the compiler predicates the access
/// and an unrolled loop's loads are all in flight together.
void wholeChunkLoad(Emitter& em, ir::ValueId r, ir::ValueId ptr, ir::ValueId mask, ir::ValueId other, const Layout& l)
{
    const std::string v = "tkm::vload<" + str(l.spt) + ">(&" + em.name(r) + "[j], " + em.name(ptr) + "[j]);";
    if (mask == ir::kNoValue) {
        em.line(v);
        return;
    }
    const std::string fill = other == ir::kNoValue        ? "tkm::cast<" + em.cType(em.type(r)) + ">(0)"
                             : em.type(other).isScalar() ? em.name(other)
                                                         : em.name(other) + "[j + q]";
    em.line("if (" + em.name(mask) + "[j]) {");
    em.line("    " + v);
    em.line("} else {");
    em.line("    #pragma unroll");
    em.line("    for (int q = 0; q < " + str(l.spt) + "; ++q) " + em.name(r) + "[j + q] = " + fill + ";");
    em.line("}");
}

void emitLoad(Emitter& em, const ir::Op& o)
{
    const ir::ValueId r = o.results[0];
    const ir::ValueId ptr = o.operands[0];
    const ir::ValueId mask = o.operands.size() > 1 ? o.operands[1] : ir::kNoValue;
    const ir::ValueId other = o.operands.size() > 2 ? o.operands[2] : ir::kNoValue;
    const ir::Type& rt = em.type(r);
    const std::string ct = em.cType(rt);
    em.declare(r);
    auto one = [&](const std::string& slot) {
        auto at = [&](ir::ValueId v) {
            return em.type(v).isScalar() ? em.name(v) : em.name(v) + "[" + slot + "]";
        };
        const std::string fill = other != ir::kNoValue ? at(other) : "tkm::cast<" + ct + ">(0)";
        const std::string dst = rt.isScalar() ? em.name(r) : em.name(r) + "[" + slot + "]";
        if (mask == ir::kNoValue) {
            em.line(dst + " = *" + at(ptr) + ";");
        } else {
            em.line(dst + " = " + at(mask) + " ? *" + at(ptr) + " : " + fill + ";");
        }
    };
    if (rt.isScalar()) {
        one("0");
        return;
    }
    const Layout l = em.layoutOf(rt);
    const int bytes = vectorBytes(l, rt.elem);
    if (bytes == 0) {
        em.openLoop(rt, false);
        one("i");
        em.closeLoop();
        return;
    }
    em.line("#pragma unroll");
    em.line("for (int j = 0; j < " + str(l.k) + "; j += " + str(l.spt) + ") {");
    ++em.indent;
    if (wholeChunks(em, ptr, mask, l, bytes)) {
        wholeChunkLoad(em, r, ptr, mask, other, l);
        --em.indent;
        em.line("}");
        return;
    }
    chunkTest(em, ptr, mask, l, bytes);
    em.line("if (fast) {");
    ++em.indent;
    em.line("tkm::vload<" + str(l.spt) + ">(&" + em.name(r) + "[j], " + em.name(ptr) + "[j]);");
    --em.indent;
    em.line("} else {");
    ++em.indent;
    em.line("#pragma unroll");
    em.line("for (int q = 0; q < " + str(l.spt) + "; ++q) {");
    ++em.indent;
    one("j + q");
    --em.indent;
    em.line("}");
    --em.indent;
    em.line("}");
    --em.indent;
    em.line("}");
}

void emitStore(Emitter& em, const ir::Op& o)
{
    const ir::ValueId ptr = o.operands[0];
    const ir::ValueId val = o.operands[1];
    const ir::ValueId mask = o.operands.size() > 2 ? o.operands[2] : ir::kNoValue;
    const ir::Type& pt = em.type(ptr);
    auto one = [&](const std::string& slot) {
        auto at = [&](ir::ValueId v) {
            return em.type(v).isScalar() ? em.name(v) : em.name(v) + "[" + slot + "]";
        };
        const std::string st = "*" + at(ptr) + " = " + at(val) + ";";
        em.line(mask == ir::kNoValue ? st : "if (" + at(mask) + ") " + st);
    };
    if (pt.isScalar()) {
        em.line("if (threadIdx.x == 0) {");
        ++em.indent;
        one("0");
        --em.indent;
        em.line("}");
        return;
    }
    const Layout l = em.layoutOf(pt);
    const int bytes = vectorBytes(l, pt.pointee);
    if (bytes == 0 || em.type(val).isScalar()) {
        em.openLoop(pt, false);
        one("i");
        em.closeLoop();
        return;
    }
    em.line("#pragma unroll");
    em.line("for (int j = 0; j < " + str(l.k) + "; j += " + str(l.spt) + ") {");
    ++em.indent;
    if (wholeChunks(em, ptr, mask, l, bytes)) {
        const std::string v = "tkm::vstore<" + str(l.spt) + ">(" + em.name(ptr) + "[j], &" + em.name(val) + "[j]);";
        em.line(mask == ir::kNoValue ? v : "if (" + em.name(mask) + "[j]) " + v);
        --em.indent;
        em.line("}");
        return;
    }
    chunkTest(em, ptr, mask, l, bytes);
    em.line("if (fast) {");
    ++em.indent;
    em.line("tkm::vstore<" + str(l.spt) + ">(" + em.name(ptr) + "[j], &" + em.name(val) + "[j]);");
    --em.indent;
    em.line("} else {");
    ++em.indent;
    em.line("#pragma unroll");
    em.line("for (int q = 0; q < " + str(l.spt) + "; ++q) {");
    ++em.indent;
    one("j + q");
    --em.indent;
    em.line("}");
    --em.indent;
    em.line("}");
    --em.indent;
    em.line("}");
}

int atomicKind(const std::string& t)
{
    static const char* kinds[] = {"add", "max", "min", "and", "or", "xor", "xchg"};
    for (int k = 0; k < 7; ++k) {
        if (t == kinds[k]) {
            return k;
        }
    }
    return -1;
}

/// Atomics: `call` is the per-element expression (using slot i); owners only, replicas get the owner's old.
void emitAtomic(Emitter& em, const ir::Op& o, const std::string& call, ir::ValueId mask)
{
    const ir::ValueId r = o.results.empty() ? ir::kNoValue : o.results[0];
    const ir::Type& pt = em.type(o.operands[0]);
    const std::string ct = cElemType(pt.pointee);
    if (pt.isScalar()) {
        em.needSmem(8);
        if (r != ir::kNoValue) {
            em.declare(r);
        }
        const std::string rv = r != ir::kNoValue ? em.name(r) : em.fresh("old");
        if (r == ir::kNoValue) {
            em.line(ct + " " + rv + "{};");
        }
        em.line("__syncthreads();");
        em.line("if (threadIdx.x == 0) { " + ct + " old{}; " +
                (mask != ir::kNoValue ? "if (" + em.name(mask) + ") " : std::string()) + "old = " + call +
                "; *reinterpret_cast<" + ct + "*>(tkm_smem) = old; }");
        em.line("__syncthreads();");
        em.line(rv + " = *reinterpret_cast<" + ct + "*>(tkm_smem);");
        em.line("__syncthreads();");
        return;
    }
    const ir::ValueId tmpTile = r;
    em.declare(r);
    em.openLoop(pt, false);
    em.line(em.ref(r) + " = tkm::cast<" + ct + ">(0);");
    em.line("if (" + em.ownerExpr(pt, "i") + (mask != ir::kNoValue ? " && " + em.ref(mask) : std::string()) + ") " +
            em.ref(r) + " = " + call + ";");
    em.closeLoop();
    const Layout l = em.layoutOf(pt);
    if (l.n < static_cast<int64_t>(l.spt) * em.nt) {
        em.gather(r, tmpTile, "e");
    }
}

void emitPrint(Emitter& em, const ir::Op& o)
{
    std::string prefix = o.text;
    const bool hasArgs = !o.operands.empty();
    if (hasArgs && (prefix.empty() || prefix.back() != ' ')) {
        prefix += ' ';
    }
    if (hasArgs && !prefix.ends_with(": ")) {
        prefix = prefix.substr(0, prefix.size() - 1) + ": ";
    }
    if (prefix.size() > 2 && prefix[0] != ' ') {
        prefix = " " + prefix;
    }
    std::string esc;
    for (char c : prefix) {
        if (c == '%') {
            esc += "%%";
        } else if (c == '"' || c == '\\') {
            esc += std::string("\\") + c;
        } else if (c == '\n') {
            esc += "\\n";
        } else {
            esc += c;
        }
    }
    const std::string pid = "\"pid (%d, %d, %d)";
    const std::string pidArgs = "(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z";
    if (!hasArgs) {
        em.line("if (threadIdx.x == 0) printf(" + pid + esc + "\\n\", " + pidArgs + ");");
        return;
    }
    const bool hex = !o.ints.empty() && o.ints[0] == 1;
    for (size_t k = 0; k < o.operands.size(); ++k) {
        const ir::ValueId v = o.operands[k];
        const ir::Type& t = em.type(v);
        const std::string operand = o.operands.size() > 1 ? "(operand " + std::to_string(k) + ") " : "";
        std::string fmt;
        std::string val;
        if (t.isPtr()) {
            fmt = "%p";
            val = "(const void*)" + em.ref(v);
        } else if (hex) {
            fmt = "0x%llx";
            val = "(unsigned long long)tkm::bitcast<" +
                  std::string(ir::elemBytes(t.elem) == 8 ? "unsigned long long" : ir::elemBytes(t.elem) == 4 ? "unsigned" : ir::elemBytes(t.elem) == 2 ? "unsigned short" : "unsigned char") +
                  ">(" + em.ref(v) + ")";
        } else if (ir::isFloat(t.elem)) {
            fmt = "%f";
            val = "tkm::print_(" + em.ref(v) + ")";
        } else if (ir::isUnsigned(t.elem)) {
            fmt = "%llu";
            val = "(unsigned long long)" + em.ref(v);
        } else {
            fmt = "%lld";
            val = "(long long)" + em.ref(v);
        }
        if (t.isScalar()) {
            em.line("if (threadIdx.x == 0) printf(" + pid + " idx ()" + esc + operand + fmt + "\\n\", " + pidArgs +
                    ", " + val + ");");
            continue;
        }
        em.openLoop(t, true);
        em.line("if (" + em.ownerExpr(t, "i") + ") {");
        ++em.indent;
        em.coords(t.shape, "e");
        std::string idxFmt = " idx (";
        std::string idxArgs;
        for (size_t d = 0; d < t.shape.size(); ++d) {
            idxFmt += d ? ", %d" : "%d";
            idxArgs += ", c" + std::to_string(d);
        }
        idxFmt += ")";
        em.line("printf(" + pid + idxFmt + esc + operand + fmt + "\\n\", " + pidArgs + idxArgs + ", " + val + ");");
        --em.indent;
        em.line("}");
        em.closeLoop();
    }
}

void emitAssert(Emitter& em, const ir::Op& o)
{
    const ir::ValueId c = o.operands[0];
    const ir::Type& t = em.type(c);
    std::string msg;
    for (char ch : o.text) {
        if (ch == '"' || ch == '\\') {
            msg += '\\';
            msg += ch;
        } else if (static_cast<unsigned char>(ch) < 0x20) {
            const unsigned u = static_cast<unsigned char>(ch); // a C octal escape, \ooo
            msg += {'\\', static_cast<char>('0' + (u >> 6)), static_cast<char>('0' + ((u >> 3) & 7)),
                    static_cast<char>('0' + (u & 7))};
        } else {
            msg += ch;
        }
    }
    // As Triton lowers it: the device's __assertfail, which prints "kernel.py:LINE: function: block: [..],
    // thread: [..] Assertion `msg` failed." (the #line map makes __FILE__/__LINE__ the Triton line) and ends the
    // launch with CUDA_ERROR_ASSERT; the runner reads that line back (runner/device_assert.h).
    const std::string fail =
        "__assertfail(\"" + msg + "\", __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char));";
    if (t.isScalar()) {
        em.line("if (!" + em.name(c) + ") " + fail);
        return;
    }
    em.openLoop(t, false);
    em.line("if (" + em.ownerExpr(t, "i") + " && !" + em.ref(c) + ") " + fail);
    em.closeLoop();
}

} // namespace

bool emitMemory(Emitter& em, const ir::Op& o)
{
    switch (o.kind) {
    case OpKind::Load: emitLoad(em, o); return true;
    case OpKind::Store: emitStore(em, o); return true;
    case OpKind::AtomicRMW: {
        const int kind = atomicKind(o.text);
        const Elem pe = em.type(o.operands[0]).pointee;
        if (kind < 0 || ir::elemBytes(pe) < 2 || (ir::isFloat(pe) && kind >= 3 && kind <= 5)) {
            em.internalError(o, "atomic '" + o.text + "' on " + ir::elemName(pe) + " elements has no CUDA lowering");
            return true;
        }
        const std::string fn = ir::isFloat(pe) ? "tkm::atomic_rmw_f" : "tkm::atomic_rmw";
        const std::string call = fn + "(" + std::to_string(kind) + ", " + em.ref(o.operands[0]) + ", " +
                                 em.ref(o.operands[1]) + ")";
        emitAtomic(em, o, call, o.operands.size() > 2 ? o.operands[2] : ir::kNoValue);
        return true;
    }
    case OpKind::AtomicCAS: {
        const Elem pe = em.type(o.operands[0]).pointee;
        if (ir::elemBytes(pe) < 2) {
            em.internalError(o, std::string("atomic_cas on ") + ir::elemName(pe) + " elements has no CUDA lowering");
            return true;
        }
        const std::string call = "tkm::atomic_cas(" + em.ref(o.operands[0]) + ", " + em.ref(o.operands[1]) + ", " +
                                 em.ref(o.operands[2]) + ")";
        emitAtomic(em, o, call, ir::kNoValue);
        return true;
    }
    case OpKind::Print: emitPrint(em, o); return true;
    case OpKind::Assert: emitAssert(em, o); return true;
    default: return false;
    }
}

} // namespace tkm::triton::lower
