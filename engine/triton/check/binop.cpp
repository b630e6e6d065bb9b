// Binary and comparison operators: constexpr folding with Python semantics, and on tensors
// binary_op_type_checking_impl of semantic.py (the promotion ladder, Python scalars that do not widen a
// tensor, broadcasting) followed by add/sub/mul/truediv/floordiv/mod/bitwise/shift/compare, pointer + int.
#include "engine/triton/check/checker_impl.h"
#include "engine/triton/check/types.h"

#include <cmath>

namespace tkm::triton::sema {

using ast::BinOpKind;
using ast::CmpOpKind;
using ir::Elem;
using ir::OpKind;

namespace {

bool bothInt(const Value& a, const Value& b)
{
    auto isI = [](const Value& v) { return v.kind == VKind::Int || v.kind == VKind::Bool; };
    return isI(a) && isI(b);
}

int64_t asInt(const Value& v)
{
    return v.kind == VKind::Bool ? (v.b ? 1 : 0) : v.i;
}

int64_t floorDiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) {
        --q;
    }
    return q;
}

Elem scalarElem(const Checker& c, const Value& v)
{
    return v.isTensor() ? v.type.elem : c.literalElem(v);
}

} // namespace

Value Checker::foldBinary(BinOpKind op, const Value& a, const Value& b, SourceRange r)
{
    if (a.kind == VKind::Str && b.kind == VKind::Str && op == BinOpKind::Add) {
        return Value::ofStr(a.s + b.s);
    }
    if (a.kind == VKind::Tuple && b.kind == VKind::Tuple && op == BinOpKind::Add) {
        std::vector<Value> e = a.elems;
        e.insert(e.end(), b.elems.begin(), b.elems.end());
        return Value::tuple(e);
    }
    if (!a.isNumber() || !b.isNumber()) {
        return error(DiagId::ConstexprOp, r, {ast::opText(op), a.describe(), b.describe()});
    }
    if (bothInt(a, b)) {
        int64_t x = asInt(a);
        int64_t y = asInt(b);
        switch (op) {
        case BinOpKind::Add:
            return Value::ofInt(x + y);
        case BinOpKind::Sub:
            return Value::ofInt(x - y);
        case BinOpKind::Mul:
            return Value::ofInt(x * y);
        case BinOpKind::Div:
            if (y == 0) {
                return error(DiagId::ZeroDivision, r, {});
            }
            return Value::ofFloat(static_cast<double>(x) / static_cast<double>(y));
        case BinOpKind::FloorDiv:
            if (y == 0) {
                return error(DiagId::ZeroDivision, r, {});
            }
            return Value::ofInt(floorDiv(x, y));
        case BinOpKind::Mod:
            if (y == 0) {
                return error(DiagId::ZeroDivision, r, {});
            }
            return Value::ofInt(x - floorDiv(x, y) * y);
        case BinOpKind::Pow: {
            if (y < 0) {
                return Value::ofFloat(std::pow(static_cast<double>(x), static_cast<double>(y)));
            }
            int64_t p = 1;
            for (int64_t k = 0; k < y; ++k) {
                p *= x;
            }
            return Value::ofInt(p);
        }
        case BinOpKind::LShift:
            return Value::ofInt(x << y);
        case BinOpKind::RShift:
            return Value::ofInt(x >> y);
        case BinOpKind::BitAnd:
            return a.kind == VKind::Bool && b.kind == VKind::Bool ? Value::ofBool(x & y) : Value::ofInt(x & y);
        case BinOpKind::BitOr:
            return a.kind == VKind::Bool && b.kind == VKind::Bool ? Value::ofBool(x | y) : Value::ofInt(x | y);
        case BinOpKind::BitXor:
            return a.kind == VKind::Bool && b.kind == VKind::Bool ? Value::ofBool(x ^ y) : Value::ofInt(x ^ y);
        case BinOpKind::MatMul:
            break;
        }
        return error(DiagId::ConstexprOp, r, {ast::opText(op), a.describe(), b.describe()});
    }
    double x = a.asDouble();
    double y = b.asDouble();
    switch (op) {
    case BinOpKind::Add:
        return Value::ofFloat(x + y);
    case BinOpKind::Sub:
        return Value::ofFloat(x - y);
    case BinOpKind::Mul:
        return Value::ofFloat(x * y);
    case BinOpKind::Div:
        if (y == 0) {
            return error(DiagId::ZeroDivision, r, {});
        }
        return Value::ofFloat(x / y);
    case BinOpKind::FloorDiv:
        if (y == 0) {
            return error(DiagId::ZeroDivision, r, {});
        }
        return Value::ofFloat(std::floor(x / y));
    case BinOpKind::Mod:
        if (y == 0) {
            return error(DiagId::ZeroDivision, r, {});
        }
        return Value::ofFloat(x - std::floor(x / y) * y);
    case BinOpKind::Pow:
        return Value::ofFloat(std::pow(x, y));
    default:
        break;
    }
    return error(DiagId::ConstexprOp, r, {ast::opText(op), a.describe(), b.describe()});
}

Value Checker::foldCompare(CmpOpKind op, const Value& a, const Value& b, SourceRange r)
{
    if (op == CmpOpKind::Is || op == CmpOpKind::IsNot) {
        bool same = a.kind == b.kind && (a.kind == VKind::None || (a.kind == VKind::Bool && a.b == b.b) ||
                                         (a.kind == VKind::DType && a.type == b.type));
        return Value::ofBool(op == CmpOpKind::Is ? same : !same);
    }
    if (op == CmpOpKind::In || op == CmpOpKind::NotIn) {
        bool found = false;
        if (b.kind == VKind::Tuple) {
            for (const Value& e : b.elems) {
                Value eq = foldCompare(CmpOpKind::Eq, a, e, r);
                found = found || (eq.kind == VKind::Bool && eq.b);
            }
        }
        return Value::ofBool(op == CmpOpKind::In ? found : !found);
    }
    bool eqOp = op == CmpOpKind::Eq || op == CmpOpKind::NotEq;
    if (eqOp && !(a.isNumber() && b.isNumber())) {
        bool same = false;
        if (a.kind == b.kind) {
            if (a.kind == VKind::Str) {
                same = a.s == b.s;
            } else if (a.kind == VKind::DType) {
                same = a.type == b.type;
            } else if (a.kind == VKind::None) {
                same = true;
            } else if (a.kind == VKind::Tuple && a.elems.size() == b.elems.size()) {
                same = true;
                for (size_t k = 0; k < a.elems.size(); ++k) {
                    Value e = foldCompare(CmpOpKind::Eq, a.elems[k], b.elems[k], r);
                    same = same && e.kind == VKind::Bool && e.b;
                }
            }
        }
        return Value::ofBool(op == CmpOpKind::Eq ? same : !same);
    }
    if (!a.isNumber() || !b.isNumber()) {
        return error(DiagId::ConstexprOp, r, {ast::opText(op), a.describe(), b.describe()});
    }
    double x = a.asDouble();
    double y = b.asDouble();
    bool res = false;
    if (bothInt(a, b)) {
        int64_t p = asInt(a);
        int64_t q = asInt(b);
        switch (op) {
        case CmpOpKind::Eq:
            res = p == q;
            break;
        case CmpOpKind::NotEq:
            res = p != q;
            break;
        case CmpOpKind::Lt:
            res = p < q;
            break;
        case CmpOpKind::LtE:
            res = p <= q;
            break;
        case CmpOpKind::Gt:
            res = p > q;
            break;
        case CmpOpKind::GtE:
            res = p >= q;
            break;
        default:
            break;
        }
        return Value::ofBool(res);
    }
    switch (op) {
    case CmpOpKind::Eq:
        res = x == y;
        break;
    case CmpOpKind::NotEq:
        res = x != y;
        break;
    case CmpOpKind::Lt:
        res = x < y;
        break;
    case CmpOpKind::LtE:
        res = x <= y;
        break;
    case CmpOpKind::Gt:
        res = x > y;
        break;
    case CmpOpKind::GtE:
        res = x >= y;
        break;
    default:
        break;
    }
    return Value::ofBool(res);
}

bool Checker::promote(const char* opText, const Value& a, const Value& b, bool divOrMod, SourceRange r, Elem& out)
{
    Elem ea = scalarElem(*this, a);
    Elem eb = scalarElem(*this, b);
    PromoteError err = PromoteError::None;
    out = computationType(ea, !a.isTensor(), eb, !b.isTensor(), divOrMod, err);
    if (err == PromoteError::Signedness) {
        ir::Type ta;
        ta.elem = ea;
        ir::Type tb;
        tb.elem = eb;
        error(DiagId::DivSignedness, r, {opText, ta.str(), tb.str()});
        return false;
    }
    if (err == PromoteError::NotArithmetic) {
        error(DiagId::OperandTypes, r, {opText, a.describe(), b.describe(), ""});
        return false;
    }
    if (isUnsignedInt(out)) {
        for (const Value* s : {&a, &b}) {
            if (s->isNumber() && s->asDouble() < 0) {
                ir::Type t;
                t.elem = out;
                error(DiagId::UnsignedNegative, r, {t.str(), s->describe()});
                return false;
            }
        }
    }
    return true;
}

Value Checker::elementwise(OpKind k, const Value& a, const Value& b, Elem computeElem, Elem resultElem,
                           const ast::Expr* ea, const ast::Expr* eb, SourceRange r)
{
    auto shape = broadcastShape(a, ea, b, eb, r);
    if (!shape) {
        return Value::error();
    }
    Value x = cast(a, computeElem, r);
    Value y = cast(b, computeElem, r);
    x = broadcastTo(x, *shape, r);
    y = broadcastTo(y, *shape, r);
    ir::Type t;
    t.elem = resultElem;
    t.shape = *shape;
    // The result's shape comes from the operand that already had it (the other was broadcast).
    SourceRange origin = (a.isTensor() && a.type.shape == *shape) ? a.origin : b.origin;
    if (origin.begin.line == 0) {
        origin = r;
    }
    return emitValue(k, {x.id, y.id}, t, r, origin);
}

Value Checker::pointerArith(BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                            SourceRange r)
{
    bool aPtr = a.isTensor() && a.type.isPtr();
    bool bPtr = b.isTensor() && b.type.isPtr();
    if (aPtr && bPtr) {
        if (op == BinOpKind::Sub) {
            return error(DiagId::PtrMinusPtr, r, {});
        }
        return error(DiagId::OperandTypes, r, {ast::opText(op), a.describe(), b.describe(), ""});
    }
    const Value& ptr = aPtr ? a : b;
    const Value& off = aPtr ? b : a;
    const ast::Expr* eoff = aPtr ? eb : ea;
    bool okOp = op == BinOpKind::Add || (op == BinOpKind::Sub && aPtr);
    if (!okOp) {
        return error(DiagId::OperandTypes, r,
                     {ast::opText(op), a.describe(), b.describe(), ": a pointer only takes + and - of integers"});
    }
    Elem offElem = off.isTensor() ? off.type.elem : literalElem(off);
    if (!ir::isInt(offElem) || off.kind == VKind::Float) {
        std::string what = eoff ? "`" + exprText(*eoff) + "` (" + off.describe() + ")" : off.describe();
        std::vector<SourceRange> under;
        if (eoff) {
            under.push_back(eoff->range);
        }
        return error(DiagId::PtrFloat, r, {what}, {}, under);
    }
    Value o = toTensor(off, eoff ? eoff->range : r);
    if (op == BinOpKind::Sub) {
        o = unaryOp(OpKind::Neg, o, r);
    }
    auto shape = broadcastShape(ptr, aPtr ? ea : eb, o, eoff, r);
    if (!shape) {
        return Value::error();
    }
    Value p = broadcastTo(ptr, *shape, r);
    o = broadcastTo(o, *shape, r);
    ir::Type t = ptr.type;
    t.shape = *shape;
    SourceRange origin = ptr.type.shape == *shape ? ptr.origin : o.origin;
    return emitValue(OpKind::AddPtr, {p.id, o.id}, t, r, origin.begin.line ? origin : r);
}

Value Checker::arith(BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                     SourceRange r)
{
    const char* text = ast::opText(op);
    bool divOrMod = op == BinOpKind::Div || op == BinOpKind::FloorDiv || op == BinOpKind::Mod;
    bool bitwise = op == BinOpKind::BitAnd || op == BinOpKind::BitOr || op == BinOpKind::BitXor ||
                   op == BinOpKind::LShift || op == BinOpKind::RShift;
    if (op == BinOpKind::Pow) {
        return error(DiagId::PowTensor, r, {});
    }
    if (op == BinOpKind::MatMul) {
        return error(DiagId::OperandTypes, r, {"@", a.describe(), b.describe(), ": use tl.dot(a, b)"});
    }
    Elem ea0 = scalarElem(*this, a);
    Elem eb0 = scalarElem(*this, b);
    if (bitwise) {
        // bitwise_op_type_checking_impl: both integer, then integer promotion.
        if (!ir::isInt(ea0) || !ir::isInt(eb0) || a.kind == VKind::Float || b.kind == VKind::Float) {
            return error(DiagId::OperandTypes, r,
                         {text, a.describe(), b.describe(), ": bitwise operators need integer (or int1) operands"});
        }
        Elem ce;
        if (!promote(text, a, b, false, r, ce)) {
            return Value::error();
        }
        if (a.isTensor() && b.isTensor()) {
            ce = integerPromote(ea0, eb0);
        }
        OpKind k = op == BinOpKind::BitAnd   ? OpKind::And
                   : op == BinOpKind::BitOr  ? OpKind::Or
                   : op == BinOpKind::BitXor ? OpKind::Xor
                   : op == BinOpKind::LShift ? OpKind::Shl
                                             : OpKind::Shr;
        return elementwise(k, a, b, ce, ce, ea, eb, r);
    }
    Elem ce;
    if (!promote(text, a, b, divOrMod, r, ce)) {
        return Value::error();
    }
    switch (op) {
    case BinOpKind::Add:
        return elementwise(OpKind::Add, a, b, ce, ce, ea, eb, r);
    case BinOpKind::Sub:
        return elementwise(OpKind::Sub, a, b, ce, ce, ea, eb, r);
    case BinOpKind::Mul: {
        Value v = elementwise(OpKind::Mul, a, b, ce, ce, ea, eb, r);
        // program_id times a constexpr block size: the start of this program's block.
        bool pidA = a.isTensor() && m_pidDerived.count(a.id) && b.isNumber();
        bool pidB = b.isTensor() && m_pidDerived.count(b.id) && a.isNumber();
        if (v.isTensor() && (pidA || pidB)) {
            m_pidBlock.insert(v.id);
        }
        return v;
    }
    case BinOpKind::Div: {
        // truediv: int / int in fp32; float / float in the wider mantissa (already the promoted type).
        Elem re = ir::isFloat(ce) ? ce : Elem::F32;
        return elementwise(OpKind::Div, a, b, re, re, ea, eb, r);
    }
    case BinOpKind::FloorDiv:
        if (!ir::isInt(ce)) {
            ir::Type t;
            t.elem = ce;
            return error(DiagId::FloorDivFloat, r, {t.str()});
        }
        // Triton lowers `//` on integer tensors to a truncating division (sdiv/udiv), as in C.
        return elementwise(OpKind::Div, a, b, ce, ce, ea, eb, r);
    case BinOpKind::Mod:
        return elementwise(OpKind::Rem, a, b, ce, ce, ea, eb, r);
    default:
        break;
    }
    return error(DiagId::OperandTypes, r, {text, a.describe(), b.describe(), ""});
}

Value Checker::binary(BinOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                      SourceRange r)
{
    if (a.isError() || b.isError()) {
        return Value::error();
    }
    if (!a.isTensor() && !b.isTensor()) {
        return foldBinary(op, a, b, r);
    }
    for (const Value* v : {&a, &b}) {
        if (!v->isTensor() && !v->isNumber()) {
            return error(DiagId::OperandTypes, r, {ast::opText(op), a.describe(), b.describe(), ""});
        }
    }
    if ((a.isTensor() && a.type.isPtr()) || (b.isTensor() && b.type.isPtr())) {
        return pointerArith(op, a, b, ea, eb, r);
    }
    return arith(op, a, b, ea, eb, r);
}

Value Checker::compare(CmpOpKind op, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                       SourceRange r)
{
    if (a.isError() || b.isError()) {
        return Value::error();
    }
    if (!a.isTensor() && !b.isTensor()) {
        return foldCompare(op, a, b, r);
    }
    OpKind k;
    switch (op) {
    case CmpOpKind::Eq:
        k = OpKind::Eq;
        break;
    case CmpOpKind::NotEq:
        k = OpKind::Ne;
        break;
    case CmpOpKind::Lt:
        k = OpKind::Lt;
        break;
    case CmpOpKind::LtE:
        k = OpKind::Le;
        break;
    case CmpOpKind::Gt:
        k = OpKind::Gt;
        break;
    case CmpOpKind::GtE:
        k = OpKind::Ge;
        break;
    default:
        return error(DiagId::OperandTypes, r,
                     {ast::opText(op), a.describe(), b.describe(), ": `is`/`in` only apply to constexprs"});
    }
    for (const Value* v : {&a, &b}) {
        if (!v->isTensor() && !v->isNumber()) {
            return error(DiagId::OperandTypes, r, {ast::opText(op), a.describe(), b.describe(), ""});
        }
    }
    Elem ce;
    bool aPtr = a.isTensor() && a.type.isPtr();
    bool bPtr = b.isTensor() && b.type.isPtr();
    if (aPtr || bPtr) {
        if (!(aPtr && bPtr)) {
            return error(DiagId::OperandTypes, r, {ast::opText(op), a.describe(), b.describe(), ""});
        }
        ce = Elem::Ptr;
        auto shape = broadcastShape(a, ea, b, eb, r);
        if (!shape) {
            return Value::error();
        }
        Value x = broadcastTo(a, *shape, r);
        Value y = broadcastTo(b, *shape, r);
        ir::Type t;
        t.elem = Elem::I1;
        t.shape = *shape;
        return emitValue(k, {x.id, y.id}, t, r, r);
    }
    if (!promote(ast::opText(op), a, b, false, r, ce)) {
        return Value::error();
    }
    return elementwise(k, a, b, ce, Elem::I1, ea, eb, r);
}

Value Checker::unaryOp(OpKind k, const Value& a, SourceRange r)
{
    if (a.isError()) {
        return a;
    }
    Value x = toTensor(a, r);
    return emitValue(k, {x.id}, x.type, r, x.origin);
}

Value Checker::logical(bool isAnd, const Value& a, const Value& b, const ast::Expr* ea, const ast::Expr* eb,
                       SourceRange r)
{
    auto toBool = [&](const Value& v) -> Value {
        Value t = toTensor(v, r);
        if (t.isError() || t.type.elem == Elem::I1) {
            return t;
        }
        return compare(CmpOpKind::NotEq, t, Value::ofInt(0), nullptr, nullptr, r);
    };
    Value x = toBool(a);
    Value y = toBool(b);
    if (x.isError() || y.isError()) {
        return Value::error();
    }
    return elementwise(isAnd ? OpKind::And : OpKind::Or, x, y, Elem::I1, Elem::I1, ea, eb, r);
}

} // namespace tkm::triton::sema
