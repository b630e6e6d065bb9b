// Python text of an expression, for messages and fix-its (the checker has the tree, not the source).
#include "engine/triton/check/checker_impl.h"

#include <sstream>

namespace tkm::triton::sema {

namespace {

std::string constantText(const ast::Constant& c)
{
    switch (c.kind) {
    case ast::Constant::Kind::None:
        return "None";
    case ast::Constant::Kind::Bool:
        return c.boolValue ? "True" : "False";
    case ast::Constant::Kind::Int:
        return std::to_string(c.intValue);
    case ast::Constant::Kind::Float:
        return Value::ofFloat(c.floatValue).describe();
    case ast::Constant::Kind::Str:
        return "'" + c.strValue + "'";
    case ast::Constant::Kind::Ellipsis:
        return "...";
    }
    return "?";
}

std::string joined(const std::vector<ast::ExprPtr>& es)
{
    std::string s;
    for (size_t i = 0; i < es.size(); ++i) {
        s += (i ? ", " : "") + exprText(*es[i]);
    }
    return s;
}

std::string sliceText(const ast::SliceItem& it)
{
    switch (it.kind) {
    case ast::SliceItem::Kind::Index:
        return it.index ? exprText(*it.index) : "";
    case ast::SliceItem::Kind::NewAxis:
        return "None";
    case ast::SliceItem::Kind::Ellipsis:
        return "...";
    case ast::SliceItem::Kind::Slice: {
        std::string s = (it.lower ? exprText(*it.lower) : "") + ":" + (it.upper ? exprText(*it.upper) : "");
        if (it.step) {
            s += ":" + exprText(*it.step);
        }
        return s;
    }
    }
    return "";
}

std::string bare(const ast::Expr& e)
{
    switch (e.kind) {
    case ast::ExprKind::Name:
        return e.id;
    case ast::ExprKind::Constant:
        return constantText(e.constant);
    case ast::ExprKind::Attribute:
        return (e.value ? exprText(*e.value) : "") + "." + e.id;
    case ast::ExprKind::Subscript: {
        std::string s = (e.value ? exprText(*e.value) : "") + "[";
        for (size_t i = 0; i < e.slices.size(); ++i) {
            s += (i ? ", " : "") + sliceText(e.slices[i]);
        }
        return s + "]";
    }
    case ast::ExprKind::Call: {
        std::string s = (e.value ? exprText(*e.value) : "") + "(" + joined(e.args);
        for (size_t i = 0; i < e.keywords.size(); ++i) {
            s += (i || !e.args.empty() ? ", " : "") + e.keywords[i].name + "=" +
                 (e.keywords[i].value ? exprText(*e.keywords[i].value) : "");
        }
        return s + ")";
    }
    case ast::ExprKind::BinOp:
        return exprText(*e.left) + " " + ast::opText(e.binOp) + " " + exprText(*e.right);
    case ast::ExprKind::UnaryOp: {
        std::string op = ast::opText(e.unaryOp);
        return op + (op == "not" ? " " : "") + exprText(*e.left);
    }
    case ast::ExprKind::BoolOp: {
        std::string s;
        for (size_t i = 0; i < e.elts.size(); ++i) {
            s += (i ? std::string(" ") + ast::opText(e.boolOp) + " " : "") + exprText(*e.elts[i]);
        }
        return s;
    }
    case ast::ExprKind::Compare: {
        std::string s = exprText(*e.left);
        for (size_t i = 0; i < e.cmpOps.size() && i < e.elts.size(); ++i) {
            s += std::string(" ") + ast::opText(e.cmpOps[i]) + " " + exprText(*e.elts[i]);
        }
        return s;
    }
    case ast::ExprKind::IfExp:
        return exprText(*e.left) + " if " + exprText(*e.test) + " else " + exprText(*e.right);
    case ast::ExprKind::Tuple:
        return e.elts.size() == 1 ? joined(e.elts) + "," : joined(e.elts);
    case ast::ExprKind::List:
        return "[" + joined(e.elts) + "]";
    case ast::ExprKind::Dict:
        return "{…}";
    case ast::ExprKind::Lambda:
        return "lambda …";
    case ast::ExprKind::Starred:
        return "*" + exprText(*e.left);
    }
    return "?";
}

} // namespace

std::string exprText(const ast::Expr& e)
{
    std::string s = bare(e);
    if (e.parenthesized || (e.kind == ast::ExprKind::Tuple && !e.parenthesized && false)) {
        return "(" + s + ")";
    }
    return s;
}

} // namespace tkm::triton::sema
