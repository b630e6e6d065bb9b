#include "engine/triton/syntax/ast.h"

namespace tkm::triton::ast {

const char* opText(BinOpKind op)
{
    switch (op) {
    case BinOpKind::Add:
        return "+";
    case BinOpKind::Sub:
        return "-";
    case BinOpKind::Mul:
        return "*";
    case BinOpKind::Div:
        return "/";
    case BinOpKind::FloorDiv:
        return "//";
    case BinOpKind::Mod:
        return "%";
    case BinOpKind::Pow:
        return "**";
    case BinOpKind::MatMul:
        return "@";
    case BinOpKind::LShift:
        return "<<";
    case BinOpKind::RShift:
        return ">>";
    case BinOpKind::BitAnd:
        return "&";
    case BinOpKind::BitOr:
        return "|";
    case BinOpKind::BitXor:
        return "^";
    }
    return "?";
}

const char* opText(UnaryOpKind op)
{
    switch (op) {
    case UnaryOpKind::Neg:
        return "-";
    case UnaryOpKind::Pos:
        return "+";
    case UnaryOpKind::Not:
        return "not";
    case UnaryOpKind::Invert:
        return "~";
    }
    return "?";
}

const char* opText(BoolOpKind op)
{
    return op == BoolOpKind::And ? "and" : "or";
}

const char* opText(CmpOpKind op)
{
    switch (op) {
    case CmpOpKind::Eq:
        return "==";
    case CmpOpKind::NotEq:
        return "!=";
    case CmpOpKind::Lt:
        return "<";
    case CmpOpKind::LtE:
        return "<=";
    case CmpOpKind::Gt:
        return ">";
    case CmpOpKind::GtE:
        return ">=";
    case CmpOpKind::Is:
        return "is";
    case CmpOpKind::IsNot:
        return "is not";
    case CmpOpKind::In:
        return "in";
    case CmpOpKind::NotIn:
        return "not in";
    }
    return "?";
}

bool FunctionDef::isJit() const
{
    return decorator("triton.jit") != nullptr || decorator("jit") != nullptr;
}

const Decorator* FunctionDef::decorator(const std::string& dotted) const
{
    for (const Decorator& d : decorators) {
        if (d.name == dotted) {
            return &d;
        }
    }
    return nullptr;
}

const FunctionDef* Module::function(const std::string& name) const
{
    for (const StmtPtr& s : body) {
        if (s->kind == StmtKind::FunctionDef && s->function && s->function->name == name) {
            return s->function.get();
        }
    }
    return nullptr;
}

std::vector<const FunctionDef*> Module::jitFunctions() const
{
    std::vector<const FunctionDef*> out;
    for (const StmtPtr& s : body) {
        if (s->kind == StmtKind::FunctionDef && s->function && s->function->isJit()) {
            out.push_back(s->function.get());
        }
    }
    return out;
}

} // namespace tkm::triton::ast
