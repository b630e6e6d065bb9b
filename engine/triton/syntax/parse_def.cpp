// Decorators and function definitions: `@triton.jit`, `@triton.autotune(...)`, `@triton.heuristics(...)` kept as
// expressions; parameters with annotations and defaults; and the refusal text of StmtKind::Other.
#include "engine/triton/syntax/parser_impl.h"

namespace tkm::triton {

std::string otherStatementMessage(const ast::Stmt& stmt)
{
    static const std::pair<const char*, const char*> kPhrases[] = {
        {"def", "nested functions are not supported in a @triton.jit kernel: define the helper at top level "
                "with @triton.jit"},
        {"lambda", "lambda expressions are not supported in a @triton.jit kernel"},
        {"list comprehension", "list comprehensions are not supported in a @triton.jit kernel"},
        {"dict comprehension", "dict comprehensions are not supported in a @triton.jit kernel"},
        {"set comprehension", "set comprehensions are not supported in a @triton.jit kernel"},
        {"generator expression", "generator expressions are not supported in a @triton.jit kernel"},
        {"f-string", "f-strings are not supported in a @triton.jit kernel"},
        {"set literal", "set literals are not supported in a @triton.jit kernel"},
        {"yield", "'yield' is not supported in a @triton.jit kernel"},
        {"await", "'await' is not supported in a @triton.jit kernel"},
    };
    for (const auto& [what, phrase] : kPhrases) {
        if (stmt.keyword == what) {
            return phrase;
        }
    }
    if (syntax::isKeyword(stmt.keyword)) {
        return "'" + stmt.keyword + "' statements are not supported in a @triton.jit kernel";
    }
    return stmt.keyword + " is not supported in a @triton.jit kernel";
}

} // namespace tkm::triton

namespace tkm::triton::syntax {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

bool Parser::parseDecorators(std::vector<ast::Decorator>& out)
{
    while (isOp("@")) {
        ast::Decorator d;
        d.range.begin = cur().range.begin;
        advance();
        size_t start = m_pos;
        d.expr = parseTest();
        if (m_unsupported && !m_failed) {
            // Python outside the subset inside the decorator's arguments: keep its dotted name only.
            m_unsupported.reset();
            m_pos = start;
            ExprPtr e;
            while (cur().kind == TokKind::Name && !isKeyword(cur().text)) {
                ExprPtr n = std::make_unique<Expr>();
                n->kind = e ? ExprKind::Attribute : ExprKind::Name;
                n->id = cur().text;
                n->range = {e ? e->range.begin : cur().range.begin, cur().range.end};
                n->value = std::move(e);
                e = std::move(n);
                advance();
                if (!acceptOp(".")) {
                    break;
                }
            }
            while (cur().kind != TokKind::Newline && cur().kind != TokKind::EndMarker && cur().kind != TokKind::Error) {
                advance();
            }
            d.expr = std::move(e);
        }
        if (!d.expr || !ok()) {
            if (ok()) {
                invalidSyntax();
            }
            return false;
        }
        d.range.end = prev().range.end;
        if (cur().kind != TokKind::Newline) {
            invalidSyntax();
            return false;
        }
        advance();
        const Expr& callee = d.expr->kind == ExprKind::Call && d.expr->value ? *d.expr->value : *d.expr;
        d.name = dottedName(callee);
        out.push_back(std::move(d));
    }
    return true;
}

std::unique_ptr<ast::FunctionDef> Parser::parseFunctionDef(std::vector<ast::Decorator> decorators)
{
    auto fn = std::make_unique<ast::FunctionDef>();
    fn->decorators = std::move(decorators);
    SourcePos b = cur().range.begin;
    int line = b.line;
    advance();
    if (cur().kind != TokKind::Name || isKeyword(cur().text)) {
        invalidSyntax();
        return nullptr;
    }
    fn->name = cur().text;
    fn->nameRange = cur().range;
    advance();
    if (!isOp("(")) {
        errorAtCur("expected '('", "syntax-expected-paren");
        return nullptr;
    }
    advance();
    if (!parseParams(*fn)) {
        return nullptr;
    }
    if (acceptOp("->")) {
        fn->returns = parseTest();
        if (!fn->returns) {
            return nullptr;
        }
    }
    if (!expectColon(false, {})) {
        return nullptr;
    }
    fn->range = {b, prev().range.end};
    if (!parseBlock(fn->body, "function definition", line)) {
        return nullptr;
    }
    return fn;
}

bool Parser::parseParams(ast::FunctionDef& fn)
{
    if (acceptOp(")")) {
        return true;
    }
    bool sawDefault = false;
    for (;;) {
        if (isOp("*") || isOp("**") || isOp("/")) {
            std::string spelled = cur().text;
            if (peekAt(1).kind == TokKind::Name) {
                spelled += peekAt(1).text;
            }
            refuse("'" + spelled + "' parameter", cur().range,
                   "'" + spelled + "' parameters are not supported in a @triton.jit kernel");
            return false;
        }
        if (cur().kind != TokKind::Name || isKeyword(cur().text)) {
            invalidSyntax();
            return false;
        }
        ast::Param p;
        p.name = cur().text;
        p.range = cur().range;
        advance();
        if (acceptOp(":")) {
            p.annotation = parseTest();
            if (!p.annotation) {
                return false;
            }
        }
        if (acceptOp("=")) {
            p.defaultValue = parseTest();
            if (!p.defaultValue) {
                return false;
            }
            sawDefault = true;
        } else if (sawDefault) {
            error(p.range, "non-default argument follows default argument", "syntax-param-order");
            return false;
        }
        p.range.end = prev().range.end;
        fn.params.push_back(std::move(p));
        if (acceptOp(",")) {
            if (acceptOp(")")) {
                return true;
            }
            continue;
        }
        if (acceptOp(")")) {
            return true;
        }
        invalidSyntax();
        return false;
    }
}

} // namespace tkm::triton::syntax
