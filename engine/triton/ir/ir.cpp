#include "engine/triton/ir/ir.h"

#include <sstream>

namespace tkm::triton::ir {

const char* elemName(Elem e)
{
    switch (e) {
    case Elem::I1: return "int1";
    case Elem::I8: return "int8";
    case Elem::I16: return "int16";
    case Elem::I32: return "int32";
    case Elem::I64: return "int64";
    case Elem::U8: return "uint8";
    case Elem::U16: return "uint16";
    case Elem::U32: return "uint32";
    case Elem::U64: return "uint64";
    case Elem::F16: return "fp16";
    case Elem::BF16: return "bf16";
    case Elem::F32: return "fp32";
    case Elem::F64: return "fp64";
    case Elem::Ptr: return "pointer";
    }
    return "?";
}

int bitWidth(Elem e)
{
    switch (e) {
    case Elem::I1: return 1;
    case Elem::I8:
    case Elem::U8: return 8;
    case Elem::I16:
    case Elem::U16:
    case Elem::F16:
    case Elem::BF16: return 16;
    case Elem::I32:
    case Elem::U32:
    case Elem::F32: return 32;
    case Elem::I64:
    case Elem::U64:
    case Elem::F64:
    case Elem::Ptr: return 64;
    }
    return 0;
}

int elemBytes(Elem e)
{
    return e == Elem::I1 ? 1 : bitWidth(e) / 8;
}

bool isFloat(Elem e)
{
    return e == Elem::F16 || e == Elem::BF16 || e == Elem::F32 || e == Elem::F64;
}

bool isInt(Elem e)
{
    return !isFloat(e) && e != Elem::Ptr;
}

bool isUnsigned(Elem e)
{
    return e == Elem::I1 || e == Elem::U8 || e == Elem::U16 || e == Elem::U32 || e == Elem::U64;
}

int64_t Type::numel() const
{
    int64_t n = 1;
    for (int64_t s : shape) {
        n *= s;
    }
    return n;
}

bool Type::operator==(const Type& o) const
{
    return elem == o.elem && shape == o.shape && (elem != Elem::Ptr || pointee == o.pointee);
}

std::string Type::str() const
{
    std::string e = elem == Elem::Ptr ? std::string("pointer<") + elemName(pointee) + ">" : elemName(elem);
    if (shape.empty()) {
        return e;
    }
    std::string s = "<";
    for (int64_t d : shape) {
        s += std::to_string(d) + "x";
    }
    return s + e + ">";
}

const char* opName(OpKind k)
{
    switch (k) {
    case OpKind::Constant: return "constant";
    case OpKind::ProgramId: return "program_id";
    case OpKind::NumPrograms: return "num_programs";
    case OpKind::Arange: return "arange";
    case OpKind::Splat: return "splat";
    case OpKind::Broadcast: return "broadcast";
    case OpKind::ExpandDims: return "expand_dims";
    case OpKind::Reshape: return "reshape";
    case OpKind::Trans: return "trans";
    case OpKind::Join: return "join";
    case OpKind::Cat: return "cat";
    case OpKind::Add: return "add";
    case OpKind::Sub: return "sub";
    case OpKind::Mul: return "mul";
    case OpKind::Div: return "div";
    case OpKind::Rem: return "rem";
    case OpKind::FloorDiv: return "floordiv";
    case OpKind::Neg: return "neg";
    case OpKind::And: return "and";
    case OpKind::Or: return "or";
    case OpKind::Xor: return "xor";
    case OpKind::Not: return "not";
    case OpKind::Shl: return "shl";
    case OpKind::Shr: return "shr";
    case OpKind::Min: return "minimum";
    case OpKind::Max: return "maximum";
    case OpKind::Eq: return "eq";
    case OpKind::Ne: return "ne";
    case OpKind::Lt: return "lt";
    case OpKind::Le: return "le";
    case OpKind::Gt: return "gt";
    case OpKind::Ge: return "ge";
    case OpKind::Select: return "select";
    case OpKind::AddPtr: return "addptr";
    case OpKind::Exp: return "exp";
    case OpKind::Exp2: return "exp2";
    case OpKind::Log: return "log";
    case OpKind::Log2: return "log2";
    case OpKind::Sqrt: return "sqrt";
    case OpKind::Rsqrt: return "rsqrt";
    case OpKind::Abs: return "abs";
    case OpKind::Floor: return "floor";
    case OpKind::Ceil: return "ceil";
    case OpKind::Sin: return "sin";
    case OpKind::Cos: return "cos";
    case OpKind::Erf: return "erf";
    case OpKind::Tanh: return "tanh";
    case OpKind::Sigmoid: return "sigmoid";
    case OpKind::Fma: return "fma";
    case OpKind::UMulHi: return "umulhi";
    case OpKind::Cast: return "cast";
    case OpKind::Bitcast: return "bitcast";
    case OpKind::PtrToInt: return "ptr_to_int";
    case OpKind::IntToPtr: return "int_to_ptr";
    case OpKind::Load: return "load";
    case OpKind::Store: return "store";
    case OpKind::AtomicRMW: return "atomic_rmw";
    case OpKind::AtomicCAS: return "atomic_cas";
    case OpKind::Reduce: return "reduce";
    case OpKind::Scan: return "scan";
    case OpKind::Dot: return "dot";
    case OpKind::Print: return "print";
    case OpKind::Assert: return "assert";
    case OpKind::For: return "for";
    case OpKind::While: return "while";
    case OpKind::If: return "if";
    case OpKind::Yield: return "yield";
    case OpKind::Condition: return "condition";
    case OpKind::Break: return "break";
    }
    return "?";
}

ValueId Function::addValue(Type t, std::string name, SourceRange range)
{
    values.push_back(ValueInfo{std::move(t), std::move(name), range});
    return static_cast<ValueId>(values.size() - 1);
}

namespace {

void dumpRegion(const Function& f, const Region& r, int indent, std::ostringstream& out);

std::string valueList(const std::vector<ValueId>& vs)
{
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) {
        s += (i ? ", %" : "%") + (vs[i] == kNoValue ? std::string("none") : std::to_string(vs[i]));
    }
    return s;
}

void dumpOp(const Function& f, const Op& op, int indent, std::ostringstream& out)
{
    out << std::string(static_cast<size_t>(indent), ' ');
    if (!op.results.empty()) {
        out << valueList(op.results) << " = ";
    }
    out << opName(op.kind);
    if (!op.operands.empty()) {
        out << " " << valueList(op.operands);
    }
    for (int64_t i : op.ints) {
        out << " " << i;
    }
    for (double d : op.floats) {
        out << " " << d;
    }
    if (!op.text.empty()) {
        out << " \"" << op.text << "\"";
    }
    if (op.kind == OpKind::Cast || op.kind == OpKind::Bitcast || op.kind == OpKind::IntToPtr) {
        out << " to " << op.toType.str();
    }
    if (!op.results.empty()) {
        out << " :";
        for (ValueId v : op.results) {
            out << " " << f.typeOf(v).str();
        }
    }
    if (op.range.begin.line > 0) {
        out << "  # line " << op.range.begin.line;
    }
    out << "\n";
    for (const auto& r : op.regions) {
        out << std::string(static_cast<size_t>(indent + 2), ' ') << "^(" << valueList(r->args) << "):\n";
        dumpRegion(f, *r, indent + 4, out);
    }
}

void dumpRegion(const Function& f, const Region& r, int indent, std::ostringstream& out)
{
    for (const Op& op : r.ops) {
        dumpOp(f, op, indent, out);
    }
}

} // namespace

std::string dump(const Function& f)
{
    std::ostringstream out;
    out << "func " << f.name << "(";
    for (size_t i = 0; i < f.params.size(); ++i) {
        const KernelParam& p = f.params[i];
        out << (i ? ", " : "") << "%" << p.value << " " << p.name << ": " << p.type.str();
    }
    out << ") num_warps=" << f.numWarps << " num_stages=" << f.numStages << "\n";
    dumpRegion(f, f.body, 2, out);
    return out.str();
}

} // namespace tkm::triton::ir
