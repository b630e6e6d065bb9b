// The lowering's driver: the emitter's bookkeeping (names, layouts, #line directives), structured control flow
// with loop-carried values in registers, the kernel's signature and the translation unit around the body.

#include "engine/triton/lower/lower_impl.h"

#include <algorithm>
#include <sstream>

namespace tkm::triton::lower {

using ir::Elem;
using ir::OpKind;

std::string cElemType(Elem e)
{
    switch (e) {
    case Elem::I1: return "bool";
    case Elem::I8: return "signed char";
    case Elem::I16: return "short";
    case Elem::I32: return "int";
    case Elem::I64: return "long long";
    case Elem::U8: return "unsigned char";
    case Elem::U16: return "unsigned short";
    case Elem::U32: return "unsigned";
    case Elem::U64: return "unsigned long long";
    case Elem::F16: return "__half";
    case Elem::BF16: return "__nv_bfloat16";
    case Elem::F32: return "float";
    case Elem::F64: return "double";
    case Elem::Ptr: return "void*";
    }
    return "int";
}

namespace {

void defineAll(const ir::Region& r, std::vector<const ir::Op*>& def)
{
    for (const ir::Op& o : r.ops) {
        for (ir::ValueId v : o.results) {
            def[static_cast<size_t>(v)] = &o;
        }
        for (const auto& sub : o.regions) {
            defineAll(*sub, def);
        }
    }
}

} // namespace

Emitter::Emitter(const ir::Function& f, const LowerOptions& options) : fn(f), opts(options)
{
    nt = 32 * std::max(1, f.numWarps);
    fast = options.fastPaths;
    axes = analyseAxes(f);
    def.assign(f.values.size(), nullptr);
    defineAll(f.body, def);
}

Layout Emitter::layoutOf(const ir::Type& t) const
{
    Layout l;
    l.n = t.numel();
    const int64_t per = l.n / nt;
    l.spt = static_cast<int>(std::clamp<int64_t>(per, 1, 4));
    l.k = std::max<int64_t>(l.spt, per);
    return l;
}

std::string Emitter::cType(const ir::Type& t)
{
    const Elem e = t.isPtr() ? t.pointee : t.elem;
    fp16 = fp16 || e == Elem::F16;
    bf16 = bf16 || e == Elem::BF16;
    return cElemType(e) + (t.isPtr() ? "*" : "");
}

std::string Emitter::name(ir::ValueId v) const { return "v" + std::to_string(v); }

std::string Emitter::ref(ir::ValueId v) const { return type(v).isScalar() ? name(v) : name(v) + "[i]"; }

std::string Emitter::fresh(const char* stem) { return std::string(stem) + std::to_string(tmp++); }

void Emitter::line(const std::string& text)
{
    if (curLine > 0) {
        // the first directive names the file; later ones keep it (shorter text)
        body += "#line " + std::to_string(curLine) + (named ? "" : " \"" + opts.fileName + "\"") + "\n";
        named = true;
        ++bodyLines;
    }
    body.append(static_cast<size_t>(indent) * 4, ' ');
    body += text;
    body += '\n';
    ++bodyLines;
    if (curLine > 0) {
        if (lines.empty() || lines.back().tritonLine != curLine || lines.back().lastCudaLine != bodyLines - 2) {
            lines.push_back({curLine, bodyLines, bodyLines});
        } else {
            lines.back().lastCudaLine = bodyLines;
        }
    }
}

void Emitter::setLine(const SourceRange& r)
{
    if (r.begin.line > 0) {
        curLine = r.begin.line;
    }
}

void Emitter::declare(ir::ValueId v)
{
    const ir::Type& t = type(v);
    const std::string ct = cType(t);
    if (t.isScalar()) {
        line(ct + " " + name(v) + "{};");
        return;
    }
    const Layout l = layoutOf(t);
    line(ct + " " + name(v) + "[" + std::to_string(l.k) + "];");
    const std::string& nm = fn.values[static_cast<size_t>(v)].name;
    std::ostringstream s;
    s << "//   " << (nm.empty() ? name(v) : nm + " (" + name(v) + ")") << ": " << t.str() << ", " << l.n << " "
      << ir::elemName(t.isPtr() ? Elem::Ptr : t.elem) << (l.n == 1 ? "" : "s") << ", " << l.spt << " per thread, "
      << nt << " threads, " << l.k / l.spt << " repetition" << (l.k / l.spt == 1 ? "" : "s");
    if (l.n < static_cast<int64_t>(l.spt) * nt) {
        s << " (replicated: " << l.n << " < " << l.spt * nt << ")";
    }
    if (curLine > 0) {
        s << "  [line " << curLine << "]";
    }
    notes += s.str() + "\n";
}

std::string Emitter::flatExpr(const ir::Type& t, const std::string& slot) const
{
    const Layout l = layoutOf(t);
    if (fast && exactFlat && l.k * nt == l.n) {
        // not replicated: every slot owns a distinct element, no wrap-around, so the index math stays
        // plain affine and the compiler sees each chunk's contiguity
        return "tkm::flat_exact<" + std::to_string(l.spt) + ", " + std::to_string(nt) + ">(" + slot + ")";
    }
    return "tkm::flat<" + std::to_string(l.n) + ", " + std::to_string(l.spt) + ", " + std::to_string(nt) + ">(" +
           slot + ")";
}

std::string Emitter::ownerExpr(const ir::Type& t, const std::string& slot) const
{
    const Layout l = layoutOf(t);
    if (fast && l.k * nt == l.n) {
        return "true"; // not replicated: every slot owns its element
    }
    return "tkm::owner<" + std::to_string(l.n) + ", " + std::to_string(l.spt) + ", " + std::to_string(nt) + ">(" +
           slot + ")";
}

void Emitter::openLoop(const ir::Type& t, bool withFlat)
{
    const Layout l = layoutOf(t);
    // full unrolling keeps the slots in registers; past 64 slots a thread (a huge tile on few warps) ptxas
    // may run out of memory on the unrolled exchanges, so the array lives in local memory instead
    line(l.k <= 64 ? "#pragma unroll" : "#pragma unroll 4");
    line("for (int i = 0; i < " + std::to_string(l.k) + "; ++i) {");
    ++indent;
    if (withFlat) {
        line("const int e = " + flatExpr(t, "i") + ";");
    }
}

void Emitter::closeLoop()
{
    --indent;
    line("}");
}

void Emitter::coords(const std::vector<int64_t>& shape, const std::string& e, const std::string& prefix)
{
    int64_t stride = 1;
    for (size_t d = shape.size(); d-- > 0;) {
        line("const int " + prefix + std::to_string(d) + " = (" + e + " / " + std::to_string(stride) + ") % " +
             std::to_string(shape[d]) + ";");
        stride *= shape[d];
    }
    if (shape.empty()) {
        line("const int " + prefix + "0 = 0;");
    }
}

void Emitter::internalError(const ir::Op& op, const std::string& what)
{
    Diagnostic d;
    d.severity = Severity::Error;
    d.range = op.range;
    d.message = "internal error of the Triton compiler (CUDA lowering), line " + std::to_string(op.range.begin.line) +
                ": " + what;
    diagnostics.push_back(d);
    std::string msg = d.message;
    std::replace(msg.begin(), msg.end(), '"', '\'');
    line("static_assert(sizeof(int) == 0, \"" + msg + "\");");
}

void Emitter::copyValue(ir::ValueId dst, ir::ValueId src)
{
    if (type(dst).isScalar()) {
        line(name(dst) + " = " + name(src) + ";");
        return;
    }
    openLoop(type(dst), false);
    line(ref(dst) + " = " + ref(src) + ";");
    closeLoop();
}

void Emitter::gather(ir::ValueId dst, ir::ValueId src, const std::string& srcIndex, const std::string& when)
{
    const ir::Type& st = type(src);
    const ir::Type& dt = type(dst);
    const std::string ct = cType(st);
    const int64_t eb = st.isPtr() ? 8 : ir::elemBytes(st.elem);
    const int64_t ns = st.numel();
    const int64_t chunk = std::min<int64_t>(ns, std::max<int64_t>(1, smemCap / eb));
    needSmem(chunk * eb);
    const std::string buf = fresh("sg");
    line("{");
    ++indent;
    line(ct + "* " + buf + " = reinterpret_cast<" + ct + "*>(tkm_smem);");
    line("#pragma unroll 1");
    line("for (int c = 0; c < " + std::to_string(ns) + "; c += " + std::to_string(chunk) + ") {");
    ++indent;
    line("__syncthreads();");
    if (st.isScalar()) {
        line("if (threadIdx.x == 0) " + buf + "[0] = " + name(src) + ";");
    } else {
        openLoop(st, true);
        line("if (" + ownerExpr(st, "i") + " && e >= c && e < c + " + std::to_string(chunk) + ") " + buf +
             "[e - c] = " + ref(src) + ";");
        closeLoop();
    }
    line("__syncthreads();");
    openLoop(dt, true);
    coords(dt.shape, "e");
    line("const int s = " + srcIndex + ";");
    line("if (" + (when.empty() ? std::string() : "(" + when + ") && ") + "s >= c && s < c + " +
         std::to_string(chunk) + ") " + ref(dst) + " = " + buf + "[s - c];");
    closeLoop();
    --indent;
    line("}");
    line("__syncthreads();");
    --indent;
    line("}");
}

void Emitter::region(const ir::Region& r)
{
    for (const ir::Op& o : r.ops) {
        if (o.kind == OpKind::Yield || o.kind == OpKind::Condition) {
            continue; // the parent op emits its terminator
        }
        op(o);
    }
}

void Emitter::op(const ir::Op& o)
{
    setLine(o.range);
    if (emitElementwise(*this, o) || emitMemory(*this, o) || emitShape(*this, o) || emitReduce(*this, o) ||
        emitDot(*this, o) || emitControl(*this, o)) {
        return;
    }
    internalError(o, std::string("the op '") + ir::opName(o.kind) + "' has no CUDA lowering");
}

namespace {

/// The terminator of region r (Yield/Condition) or nullptr.
const ir::Op* terminator(const ir::Region& r)
{
    if (!r.ops.empty() && (r.ops.back().kind == OpKind::Yield || r.ops.back().kind == OpKind::Condition)) {
        return &r.ops.back();
    }
    return nullptr;
}

/// dsts[j] = srcs[from + j] through temporaries (a yield may permute the carried values).
void assignAll(Emitter& em, const std::vector<ir::ValueId>& dsts, const std::vector<ir::ValueId>& srcs, size_t from)
{
    std::vector<std::string> temps;
    for (size_t j = 0; j < dsts.size() && from + j < srcs.size(); ++j) {
        const ir::ValueId s = srcs[from + j];
        const ir::Type& t = em.type(s);
        const std::string tn = em.fresh("y");
        temps.push_back(tn);
        if (t.isScalar()) {
            em.line(em.cType(t) + " " + tn + " = " + em.name(s) + ";");
        } else {
            em.line(em.cType(t) + " " + tn + "[" + std::to_string(em.layoutOf(t).k) + "];");
            em.openLoop(t, false);
            em.line(tn + "[i] = " + em.ref(s) + ";");
            em.closeLoop();
        }
    }
    for (size_t j = 0; j < temps.size(); ++j) {
        const ir::Type& t = em.type(dsts[j]);
        if (t.isScalar()) {
            em.line(em.name(dsts[j]) + " = " + temps[j] + ";");
        } else {
            em.openLoop(t, false);
            em.line(em.ref(dsts[j]) + " = " + temps[j] + "[i];");
            em.closeLoop();
        }
    }
}

/// Whether region r holds a loop or a tl.dot (at any depth).
bool holdsLoopOrDot(const ir::Region& r)
{
    for (const ir::Op& o : r.ops) {
        if (o.kind == OpKind::For || o.kind == OpKind::While || o.kind == OpKind::Dot) {
            return true;
        }
        for (const auto& sub : o.regions) {
            if (holdsLoopOrDot(*sub)) {
                return true;
            }
        }
    }
    return false;
}

void emitFor(Emitter& em, const ir::Op& o)
{
    for (ir::ValueId r : o.results) {
        em.declare(r);
    }
    const ir::Region& body = *o.regions[0];
    em.line("{");
    ++em.indent;
    for (size_t j = 1; j < body.args.size(); ++j) {
        em.declare(body.args[j]);
        em.copyValue(body.args[j], o.operands[2 + j]);
    }
    const ir::ValueId iv = body.args[0];
    const std::string it = em.cType(em.type(iv));
    const std::string lo = "(" + it + ")" + em.name(o.operands[0]);
    const std::string hi = "(" + it + ")" + em.name(o.operands[1]);
    const std::string st = "(" + it + ")" + em.name(o.operands[2]);
    // An innermost loop without tl.dot is left to the compiler to unroll, as Triton leaves it to ptxas: its
    // loads then overlap across iterations (layer norm's column walk: 0.94 → 1.01 of Triton's time with
    // predicated whole-chunk loads). A dot loop or an outer loop stays rolled (registers, compile time).
    if (!em.fast || holdsLoopOrDot(body)) {
        em.line("#pragma unroll 1");
    }
    em.line("for (" + it + " " + em.name(iv) + " = " + lo + "; " + st + " > 0 ? " + em.name(iv) + " < " + hi + " : " +
            em.name(iv) + " > " + hi + "; " + em.name(iv) + " += " + st + ") {");
    ++em.indent;
    em.region(body);
    if (const ir::Op* y = terminator(body)) {
        std::vector<ir::ValueId> carried(body.args.begin() + 1, body.args.end());
        assignAll(em, carried, y->operands, 0);
    }
    --em.indent;
    em.line("}");
    for (size_t j = 0; j < o.results.size() && j + 1 < body.args.size(); ++j) {
        em.copyValue(o.results[j], body.args[j + 1]);
    }
    --em.indent;
    em.line("}");
}

void emitIf(Emitter& em, const ir::Op& o)
{
    for (ir::ValueId r : o.results) {
        em.declare(r);
    }
    em.line("if (" + em.name(o.operands[0]) + ") {");
    for (size_t k = 0; k < o.regions.size(); ++k) {
        if (k == 1) {
            em.line("} else {");
        }
        ++em.indent;
        em.region(*o.regions[k]);
        if (const ir::Op* y = terminator(*o.regions[k])) {
            assignAll(em, o.results, y->operands, 0);
        }
        --em.indent;
    }
    em.line("}");
}

void emitWhile(Emitter& em, const ir::Op& o)
{
    for (ir::ValueId r : o.results) {
        em.declare(r);
    }
    const ir::Region& before = *o.regions[0];
    const ir::Region& after = *o.regions[1];
    em.line("{");
    ++em.indent;
    for (size_t j = 0; j < before.args.size() && j < o.operands.size(); ++j) {
        em.declare(before.args[j]);
        em.copyValue(before.args[j], o.operands[j]);
    }
    for (ir::ValueId a : after.args) {
        em.declare(a);
    }
    em.line("#pragma unroll 1");
    em.line("while (true) {");
    ++em.indent;
    em.region(before);
    if (const ir::Op* c = terminator(before)) {
        em.setLine(c->range);
        em.line("if (!" + em.name(c->operands[0]) + ") {");
        ++em.indent;
        assignAll(em, o.results, c->operands, 1);
        em.line("break;");
        --em.indent;
        em.line("}");
        assignAll(em, after.args, c->operands, 1);
    }
    em.region(after);
    if (const ir::Op* y = terminator(after)) {
        assignAll(em, before.args, y->operands, 0);
    }
    --em.indent;
    em.line("}");
    --em.indent;
    em.line("}");
}

} // namespace

bool emitControl(Emitter& em, const ir::Op& o)
{
    switch (o.kind) {
    case OpKind::For: emitFor(em, o); return true;
    case OpKind::If: emitIf(em, o); return true;
    case OpKind::While: emitWhile(em, o); return true;
    case OpKind::Break: em.line("break;"); return true;
    default: return false;
    }
}

namespace {

std::string defaultCType(Emitter& em, const ir::KernelParam& p)
{
    return em.cType(p.type);
}

} // namespace

Lowered lower(const ir::Function& f, const LowerOptions& options)
{
    Emitter em(f, options);
    // parameters: each Function param reads its abi slot
    std::vector<AbiParam> abi = options.abi;
    if (abi.empty()) {
        for (const ir::KernelParam& p : f.params) {
            abi.push_back({defaultCType(em, p), p.name});
        }
    }
    for (size_t i = 0; i < f.params.size(); ++i) {
        const ir::KernelParam& p = f.params[i];
        const int a = i < options.paramToAbi.size() ? options.paramToAbi[i] : static_cast<int>(i);
        if (a < 0 || static_cast<size_t>(a) >= abi.size()) {
            continue;
        }
        const std::string ct = em.cType(p.type);
        em.line(ct + " " + em.name(p.value) + " = (" + ct + ")(" + abi[static_cast<size_t>(a)].name + ");");
    }
    em.region(f.body);

    Lowered out;
    std::string head;
    if (em.fp16) {
        head += "#include <cuda_fp16.h>\n#define TKM_FP16 1\n";
    }
    if (em.bf16) {
        head += "#include <cuda_bf16.h>\n#define TKM_BF16 1\n";
    }
    out.needsFp16 = em.fp16;
    out.needsBf16 = em.bf16;
    head += "#line 1 \"tkm_tile_runtime.cuh\"\n";
    head += runtimeSource();
    std::ostringstream k;
    k << "#line 1 \"" << options.fileName << ".cu\"\n";
    k << "// Generated from " << options.fileName << " (" << f.name << ") by Triton Kernel Mastery's lowering.\n";
    k << "// One program = one block of " << em.nt << " threads (num_warps = " << f.numWarps << ").\n";
    k << "// Layouts (flat row-major index; each thread owns spt contiguous elements, threads then warps, "
         "repeated):\n";
    k << em.notes;
    std::string params;
    for (size_t i = 0; i < abi.size(); ++i) {
        params += (i ? ", " : "") + abi[i].cType + " " + abi[i].name;
    }
    const std::string kname = options.kernelName.empty() ? f.name : options.kernelName;
    k << "extern \"C\" __global__ void __launch_bounds__(" << em.nt << ") " << kname << "(" << params << ")\n{\n";
    if (em.smemBytes > 0) {
        k << "    __shared__ __align__(16) unsigned char tkm_smem[" << ((em.smemBytes + 15) / 16) * 16 << "];\n";
    }
    const std::string prefix = head + k.str();
    const int offset = static_cast<int>(std::count(prefix.begin(), prefix.end(), '\n'));
    out.source = prefix + em.body + "}\n";
    for (LineMap m : em.lines) {
        m.firstCudaLine += offset;
        m.lastCudaLine += offset;
        out.lines.push_back(m);
    }
    out.layoutNotes = em.notes;
    out.diagnostics = std::move(em.diagnostics);
    return out;
}

} // namespace tkm::triton::lower
