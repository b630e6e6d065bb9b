// Elementwise ops: constants, indices, arithmetic with Triton's numerics (fp16/bf16 computed in fp32 and
// rounded once), comparisons, select, pointer arithmetic, math functions, casts and bitcasts.

#include "engine/triton/lower/lower_impl.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace tkm::triton::lower {

using ir::Elem;
using ir::OpKind;

std::string literalInt(Elem e, int64_t x)
{
    if (e == Elem::I1) {
        return x != 0 ? "true" : "false";
    }
    if (ir::isFloat(e)) {
        return literal(e, static_cast<double>(x));
    }
    const std::string ct = cElemType(e);
    if (e == Elem::U64) {
        return "(" + ct + ")" + std::to_string(static_cast<uint64_t>(x)) + "ULL";
    }
    if (x == INT64_MIN) {
        return "(" + ct + ")(-9223372036854775807LL - 1)";
    }
    return "(" + ct + ")" + std::to_string(x) + "LL";
}

std::string literal(Elem e, double x)
{
    if (!ir::isFloat(e)) {
        return literalInt(e, static_cast<int64_t>(x));
    }
    std::string d;
    if (std::isnan(x)) {
        d = "__longlong_as_double(0x7ff8000000000000LL)";
    } else if (std::isinf(x)) {
        d = x > 0 ? "__longlong_as_double(0x7ff0000000000000LL)" : "__longlong_as_double((long long)0xfff0000000000000ULL)";
    } else {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%a", x);
        d = buf;
    }
    if (e == Elem::F64) {
        return d;
    }
    if (e == Elem::F32) {
        if (std::isfinite(x)) {
            return d + "f";
        }
        return "(float)" + d;
    }
    return "tkm::cast<" + cElemType(e) + ">((double)" + d + ")";
}

namespace {

bool lowPrecision(Elem e) { return e == Elem::F16 || e == Elem::BF16; }

/// Math library name for the compute type: base + "f" unless fp64.
std::string mathFn(const char* base, Elem e) { return std::string(base) + (e == Elem::F64 ? "" : "f"); }

/// The C expression of op's result from its (upcast) operands A, B, C; empty when op is not elementwise.
std::string expression(Emitter& em, const ir::Op& o, const std::vector<std::string>& x, Elem opElem)
{
    const bool fl = ir::isFloat(opElem);
    const std::string& A = x.size() > 0 ? x[0] : std::string();
    const std::string& B = x.size() > 1 ? x[1] : std::string();
    const std::string& C = x.size() > 2 ? x[2] : std::string();
    const std::string all = !o.ints.empty() && o.ints[0] == 1 ? "true" : "false";
    switch (o.kind) {
    case OpKind::Add: return "(" + A + " + " + B + ")";
    case OpKind::Sub: return "(" + A + " - " + B + ")";
    case OpKind::Mul: return "(" + A + " * " + B + ")";
    case OpKind::Div:
        return fl ? std::string(em.fast ? "tkm::div_full(" : "tkm::div_(") + A + ", " + B + ")" : "(" + A + " / " + B + ")";
    case OpKind::Rem: return fl ? mathFn("fmod", opElem) + "(" + A + ", " + B + ")" : "(" + A + " % " + B + ")";
    case OpKind::FloorDiv: return fl ? mathFn("floor", opElem) + "(" + A + " / " + B + ")" : "tkm::floordiv_(" + A + ", " + B + ")";
    case OpKind::Neg: return "(-" + A + ")";
    case OpKind::And: return "(" + A + " & " + B + ")";
    case OpKind::Or: return "(" + A + " | " + B + ")";
    case OpKind::Xor: return "(" + A + " ^ " + B + ")";
    case OpKind::Not: return opElem == Elem::I1 ? "(!" + A + ")" : "(~" + A + ")";
    case OpKind::Shl: return "(" + A + " << " + B + ")";
    case OpKind::Shr: return "(" + A + " >> " + B + ")";
    case OpKind::Min: return "tkm::min_<" + all + ">(" + A + ", " + B + ")";
    case OpKind::Max: return "tkm::max_<" + all + ">(" + A + ", " + B + ")";
    case OpKind::Eq: return "(" + A + " == " + B + ")";
    case OpKind::Ne: return "(" + A + " != " + B + ")";
    case OpKind::Lt: return "(" + A + " < " + B + ")";
    case OpKind::Le: return "(" + A + " <= " + B + ")";
    case OpKind::Gt: return "(" + A + " > " + B + ")";
    case OpKind::Ge: return "(" + A + " >= " + B + ")";
    case OpKind::Exp: return "tkm::exp_(" + A + ")";
    case OpKind::Exp2: return "tkm::exp2_(" + A + ")";
    case OpKind::Log: return mathFn("log", opElem) + "(" + A + ")";
    case OpKind::Log2: return mathFn("log2", opElem) + "(" + A + ")";
    case OpKind::Sqrt: return "tkm::sqrt_(" + A + ")";
    case OpKind::Rsqrt: return "tkm::rsqrt_(" + A + ")";
    case OpKind::Abs: return "tkm::abs_(" + A + ")";
    case OpKind::Floor: return mathFn("floor", opElem) + "(" + A + ")";
    case OpKind::Ceil: return mathFn("ceil", opElem) + "(" + A + ")";
    case OpKind::Sin: return mathFn("sin", opElem) + "(" + A + ")";
    case OpKind::Cos: return mathFn("cos", opElem) + "(" + A + ")";
    case OpKind::Erf: return mathFn("erf", opElem) + "(" + A + ")";
    case OpKind::Tanh: return mathFn("tanh", opElem) + "(" + A + ")";
    case OpKind::Sigmoid: return "tkm::sigmoid_(" + A + ")";
    case OpKind::Fma: return fl ? mathFn("fma", opElem) + "(" + A + ", " + B + ", " + C + ")" : "(" + A + " * " + B + " + " + C + ")";
    case OpKind::UMulHi: return "tkm::umulhi_(" + A + ", " + B + ")";
    default: (void)em; return {};
    }
}

bool isElementwise(OpKind k)
{
    switch (k) {
    case OpKind::Add: case OpKind::Sub: case OpKind::Mul: case OpKind::Div: case OpKind::Rem:
    case OpKind::FloorDiv: case OpKind::Neg: case OpKind::And: case OpKind::Or: case OpKind::Xor:
    case OpKind::Not: case OpKind::Shl: case OpKind::Shr: case OpKind::Min: case OpKind::Max:
    case OpKind::Eq: case OpKind::Ne: case OpKind::Lt: case OpKind::Le: case OpKind::Gt: case OpKind::Ge:
    case OpKind::Exp: case OpKind::Exp2: case OpKind::Log: case OpKind::Log2: case OpKind::Sqrt:
    case OpKind::Rsqrt: case OpKind::Abs: case OpKind::Floor: case OpKind::Ceil: case OpKind::Sin:
    case OpKind::Cos: case OpKind::Erf: case OpKind::Tanh: case OpKind::Sigmoid: case OpKind::Fma:
    case OpKind::UMulHi:
        return true;
    default:
        return false;
    }
}

/// Emits `result = rhs` over the result's slots (rhs may use i and e).
void assign(Emitter& em, ir::ValueId r, const std::string& rhs, bool withFlat = false)
{
    em.declare(r);
    if (em.type(r).isScalar()) {
        if (withFlat) {
            em.line("{ const int e = 0; " + em.name(r) + " = " + rhs + "; }");
        } else {
            em.line(em.name(r) + " = " + rhs + ";");
        }
        return;
    }
    em.openLoop(em.type(r), withFlat);
    em.line(em.ref(r) + " = " + rhs + ";");
    em.closeLoop();
}

void emitArith(Emitter& em, const ir::Op& o)
{
    const ir::ValueId r = o.results[0];
    const Elem opElem = em.type(o.operands[0]).elem;
    const Elem resElem = em.type(r).elem;
    std::vector<std::string> x;
    for (ir::ValueId v : o.operands) {
        const Elem e = em.type(v).elem;
        x.push_back(lowPrecision(e) ? "tkm::up(" + em.ref(v) + ")" : em.ref(v));
    }
    const Elem computeElem = lowPrecision(opElem) ? Elem::F32 : opElem;
    const std::string expr = expression(em, o, x, computeElem);
    em.cType(em.type(r));
    assign(em, r, "tkm::cast<" + cElemType(resElem) + ">(" + expr + ")");
}

void emitCast(Emitter& em, const ir::Op& o)
{
    const ir::ValueId r = o.results[0];
    const ir::Type& from = em.type(o.operands[0]);
    const ir::Type& to = em.type(r);
    const std::string a = em.ref(o.operands[0]);
    const std::string ct = em.cType(to);
    std::string rhs;
    if (o.kind == OpKind::PtrToInt) {
        rhs = "(" + ct + ")(size_t)(" + a + ")";
    } else if (o.kind == OpKind::IntToPtr || to.isPtr() || from.isPtr()) {
        rhs = "(" + ct + ")(" + a + ")";
    } else if (o.kind == OpKind::Bitcast) {
        rhs = "tkm::bitcast<" + ct + ">(" + a + ")";
    } else {
        const bool rtz = !o.ints.empty() && o.ints[0] == 1;
        rhs = "tkm::cast<" + ct + (rtz ? ", true" : "") + ">(" + a + ")";
    }
    assign(em, r, rhs);
}

} // namespace

bool emitElementwise(Emitter& em, const ir::Op& o)
{
    if (isElementwise(o.kind)) {
        emitArith(em, o);
        return true;
    }
    switch (o.kind) {
    case OpKind::Constant: {
        const ir::ValueId r = o.results[0];
        const Elem e = em.type(r).elem;
        em.cType(em.type(r));
        const std::string lit = ir::isFloat(e) ? literal(e, o.floats.empty() ? 0.0 : o.floats[0])
                                               : literalInt(e, o.ints.empty() ? 0 : o.ints[0]);
        assign(em, r, lit);
        return true;
    }
    case OpKind::ProgramId:
    case OpKind::NumPrograms: {
        static const char* axes[] = {"x", "y", "z"};
        const int64_t ax = o.ints.empty() ? 0 : std::clamp<int64_t>(o.ints[0], 0, 2);
        assign(em, o.results[0],
               std::string("(int)") + (o.kind == OpKind::ProgramId ? "blockIdx." : "gridDim.") + axes[ax]);
        return true;
    }
    case OpKind::Arange:
        em.exactFlat = true;
        assign(em, o.results[0], "(int)(" + std::to_string(o.ints.empty() ? 0 : o.ints[0]) + " + e)", true);
        em.exactFlat = false;
        return true;
    case OpKind::Splat:
        assign(em, o.results[0], em.name(o.operands[0]));
        return true;
    case OpKind::Select:
        assign(em, o.results[0],
               "(" + em.ref(o.operands[0]) + " ? " + em.ref(o.operands[1]) + " : " + em.ref(o.operands[2]) + ")");
        return true;
    case OpKind::AddPtr:
        assign(em, o.results[0], "(" + em.ref(o.operands[0]) + " + " + em.ref(o.operands[1]) + ")");
        return true;
    case OpKind::Cast:
    case OpKind::Bitcast:
    case OpKind::PtrToInt:
    case OpKind::IntToPtr:
        emitCast(em, o);
        return true;
    default:
        return false;
    }
}

} // namespace tkm::triton::lower
