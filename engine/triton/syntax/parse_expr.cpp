// Expressions, Python's precedence from loosest to tightest: lambda < if-else < or < and < not < comparisons
// (chained) < | < ^ < & < shifts < + - < * / // % @ < unary - + ~ < ** < primaries (call, attribute, subscript).
#include "engine/triton/syntax/parser_impl.h"

namespace tkm::triton::syntax {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

ExprPtr makeExpr(ExprKind kind, SourcePos b, SourcePos e)
{
    auto x = std::make_unique<Expr>();
    x->kind = kind;
    x->range = {b, e};
    return x;
}

ExprPtr Parser::parseTestList(bool allowStar)
{
    SourcePos b = cur().range.begin;
    ExprPtr first = parseStarOrTest(allowStar);
    if (!first || !isOp(",")) {
        return first;
    }
    ExprPtr tuple = makeExpr(ExprKind::Tuple, b, b);
    tuple->elts.push_back(std::move(first));
    while (acceptOp(",")) {
        if (!startsExpression() && !(allowStar && isOp("*"))) {
            break;
        }
        ExprPtr e = parseStarOrTest(allowStar);
        if (!e) {
            return nullptr;
        }
        tuple->elts.push_back(std::move(e));
    }
    tuple->range.end = prev().range.end;
    return tuple;
}

ExprPtr Parser::parseStarOrTest(bool allowStar)
{
    if (allowStar && isOp("*")) {
        SourcePos b = cur().range.begin;
        advance();
        ExprPtr operand = parseBitOr();
        if (!operand) {
            return nullptr;
        }
        ExprPtr star = makeExpr(ExprKind::Starred, b, prev().range.end);
        star->left = std::move(operand);
        return star;
    }
    return parseTest();
}

ExprPtr Parser::parseTargetList()
{
    SourcePos b = cur().range.begin;
    ExprPtr first = isOp("*") ? parseStarOrTest(true) : parseBitOr();
    if (!first || !isOp(",")) {
        return first;
    }
    ExprPtr tuple = makeExpr(ExprKind::Tuple, b, b);
    tuple->elts.push_back(std::move(first));
    while (acceptOp(",")) {
        if (!startsExpression() && !isOp("*")) {
            break;
        }
        ExprPtr e = isOp("*") ? parseStarOrTest(true) : parseBitOr();
        if (!e) {
            return nullptr;
        }
        tuple->elts.push_back(std::move(e));
    }
    tuple->range.end = prev().range.end;
    return tuple;
}

ExprPtr Parser::parseTest()
{
    DepthGuard guard(*this);
    if (!guard.ok || !ok()) {
        return nullptr;
    }
    if (isKw("lambda")) {
        return parseLambda();
    }
    SourcePos b = cur().range.begin;
    ExprPtr body = parseOr();
    if (!body || !isKw("if")) {
        return body;
    }
    advance();
    ExprPtr test = parseOr();
    if (!test) {
        return nullptr;
    }
    if (!acceptKw("else")) {
        errorAtCur("expected 'else' after 'if' expression", "syntax-expected-else");
        return nullptr;
    }
    ExprPtr orelse = parseTest();
    if (!orelse) {
        return nullptr;
    }
    ExprPtr e = makeExpr(ExprKind::IfExp, b, prev().range.end);
    e->left = std::move(body);
    e->test = std::move(test);
    e->right = std::move(orelse);
    return e;
}

ExprPtr Parser::parseLambda()
{
    SourceRange kw = cur().range;
    if (m_inJit) {
        unsupported("lambda", kw);
        return nullptr;
    }
    advance();
    ExprPtr lam = makeExpr(ExprKind::Lambda, kw.begin, kw.end);
    while (cur().kind == TokKind::Name && !isKeyword(cur().text)) {
        lam->params.push_back(cur().text);
        advance();
        if (!acceptOp(",")) {
            break;
        }
    }
    if (isOp("*") || isOp("**") || isOp("=") || isOp("/")) {
        unsupported("lambda with default or variadic parameters", kw);
        return nullptr;
    }
    if (!acceptOp(":")) {
        errorAtCur("expected ':'", "syntax-expected-colon");
        return nullptr;
    }
    ExprPtr body = parseTest();
    if (!body) {
        return nullptr;
    }
    lam->left = std::move(body);
    lam->range.end = prev().range.end;
    return lam;
}

ExprPtr Parser::parseOr()
{
    SourcePos b = cur().range.begin;
    ExprPtr first = parseAnd();
    if (!first || !isKw("or")) {
        return first;
    }
    ExprPtr e = makeExpr(ExprKind::BoolOp, b, b);
    e->boolOp = ast::BoolOpKind::Or;
    e->opRange = cur().range;
    e->elts.push_back(std::move(first));
    while (acceptKw("or")) {
        ExprPtr next = parseAnd();
        if (!next) {
            return nullptr;
        }
        e->elts.push_back(std::move(next));
    }
    e->range.end = prev().range.end;
    return e;
}

ExprPtr Parser::parseAnd()
{
    SourcePos b = cur().range.begin;
    ExprPtr first = parseNot();
    if (!first || !isKw("and")) {
        return first;
    }
    ExprPtr e = makeExpr(ExprKind::BoolOp, b, b);
    e->boolOp = ast::BoolOpKind::And;
    e->opRange = cur().range;
    e->elts.push_back(std::move(first));
    while (acceptKw("and")) {
        ExprPtr next = parseNot();
        if (!next) {
            return nullptr;
        }
        e->elts.push_back(std::move(next));
    }
    e->range.end = prev().range.end;
    return e;
}

ExprPtr Parser::parseNot()
{
    if (!isKw("not")) {
        return parseComparison();
    }
    DepthGuard guard(*this);
    if (!guard.ok) {
        return nullptr;
    }
    SourceRange op = cur().range;
    advance();
    ExprPtr operand = parseNot();
    if (!operand) {
        return nullptr;
    }
    ExprPtr e = makeExpr(ExprKind::UnaryOp, op.begin, prev().range.end);
    e->unaryOp = ast::UnaryOpKind::Not;
    e->opRange = op;
    e->left = std::move(operand);
    return e;
}

ExprPtr Parser::parseComparison()
{
    SourcePos b = cur().range.begin;
    ExprPtr left = parseBitOr();
    if (!left) {
        return nullptr;
    }
    ExprPtr cmp;
    for (;;) {
        using ast::CmpOpKind;
        const Token& t = cur();
        SourceRange opRange = t.range;
        std::optional<CmpOpKind> op;
        size_t width = 1;
        if (t.kind == TokKind::Op) {
            static const std::pair<const char*, CmpOpKind> kOps[] = {{"<", CmpOpKind::Lt},   {">", CmpOpKind::Gt},
                                                                     {"==", CmpOpKind::Eq},  {">=", CmpOpKind::GtE},
                                                                     {"<=", CmpOpKind::LtE}, {"!=", CmpOpKind::NotEq}};
            for (const auto& [text, kind] : kOps) {
                if (t.text == text) {
                    op = kind;
                }
            }
        } else if (isKw("in")) {
            op = CmpOpKind::In;
        } else if (isKw("not") && peekAt(1).kind == TokKind::Name && peekAt(1).text == "in") {
            op = CmpOpKind::NotIn;
            width = 2;
        } else if (isKw("is")) {
            bool isNot = peekAt(1).kind == TokKind::Name && peekAt(1).text == "not";
            op = isNot ? CmpOpKind::IsNot : CmpOpKind::Is;
            width = isNot ? 2 : 1;
        }
        if (!op) {
            break;
        }
        if (width == 2) {
            opRange.end = peekAt(1).range.end;
        }
        for (size_t i = 0; i < width; ++i) {
            advance();
        }
        ExprPtr right = parseBitOr();
        if (!right) {
            return nullptr;
        }
        if (!cmp) {
            cmp = makeExpr(ExprKind::Compare, b, b);
            cmp->left = std::move(left);
            cmp->opRange = opRange;
        }
        cmp->cmpOps.push_back(*op);
        cmp->elts.push_back(std::move(right));
        cmp->range.end = prev().range.end;
    }
    if (cmp) {
        return cmp;
    }
    return left;
}

ExprPtr Parser::binaryChain(ExprPtr (Parser::*next)(), const char* const* ops, const ast::BinOpKind* kinds, size_t n)
{
    SourcePos b = cur().range.begin;
    ExprPtr left = (this->*next)();
    while (left && cur().kind == TokKind::Op) {
        size_t k = 0;
        while (k < n && cur().text != ops[k]) {
            ++k;
        }
        if (k == n) {
            break;
        }
        SourceRange op = cur().range;
        advance();
        ExprPtr right = (this->*next)();
        if (!right) {
            return nullptr;
        }
        ExprPtr e = makeExpr(ExprKind::BinOp, b, prev().range.end);
        e->binOp = kinds[k];
        e->opRange = op;
        e->left = std::move(left);
        e->right = std::move(right);
        left = std::move(e);
    }
    return left;
}

ExprPtr Parser::parseBitOr()
{
    static const char* const kOps[] = {"|"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::BitOr};
    return binaryChain(&Parser::parseBitXor, kOps, kKinds, 1);
}

ExprPtr Parser::parseBitXor()
{
    static const char* const kOps[] = {"^"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::BitXor};
    return binaryChain(&Parser::parseBitAnd, kOps, kKinds, 1);
}

ExprPtr Parser::parseBitAnd()
{
    static const char* const kOps[] = {"&"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::BitAnd};
    return binaryChain(&Parser::parseShift, kOps, kKinds, 1);
}

ExprPtr Parser::parseShift()
{
    static const char* const kOps[] = {"<<", ">>"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::LShift, ast::BinOpKind::RShift};
    return binaryChain(&Parser::parseArith, kOps, kKinds, 2);
}

ExprPtr Parser::parseArith()
{
    static const char* const kOps[] = {"+", "-"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::Add, ast::BinOpKind::Sub};
    return binaryChain(&Parser::parseTerm, kOps, kKinds, 2);
}

ExprPtr Parser::parseTerm()
{
    static const char* const kOps[] = {"*", "/", "//", "%", "@"};
    static const ast::BinOpKind kKinds[] = {ast::BinOpKind::Mul, ast::BinOpKind::Div, ast::BinOpKind::FloorDiv,
                                            ast::BinOpKind::Mod, ast::BinOpKind::MatMul};
    return binaryChain(&Parser::parseFactor, kOps, kKinds, 5);
}

ExprPtr Parser::parseFactor()
{
    ast::UnaryOpKind kind;
    if (isOp("-")) {
        kind = ast::UnaryOpKind::Neg;
    } else if (isOp("+")) {
        kind = ast::UnaryOpKind::Pos;
    } else if (isOp("~")) {
        kind = ast::UnaryOpKind::Invert;
    } else {
        return parsePower();
    }
    DepthGuard guard(*this);
    if (!guard.ok) {
        return nullptr;
    }
    SourceRange op = cur().range;
    advance();
    ExprPtr operand = parseFactor();
    if (!operand) {
        return nullptr;
    }
    ExprPtr e = makeExpr(ExprKind::UnaryOp, op.begin, prev().range.end);
    e->unaryOp = kind;
    e->opRange = op;
    e->left = std::move(operand);
    return e;
}

ExprPtr Parser::parsePower()
{
    if (isKw("await")) {
        unsupported("await", cur().range);
        return nullptr;
    }
    SourcePos b = cur().range.begin;
    ExprPtr base = parsePrimary();
    if (!base || !isOp("**")) {
        return base;
    }
    DepthGuard guard(*this);
    if (!guard.ok) {
        return nullptr;
    }
    SourceRange op = cur().range;
    advance();
    ExprPtr exponent = parseFactor();
    if (!exponent) {
        return nullptr;
    }
    ExprPtr e = makeExpr(ExprKind::BinOp, b, prev().range.end);
    e->binOp = ast::BinOpKind::Pow;
    e->opRange = op;
    e->left = std::move(base);
    e->right = std::move(exponent);
    return e;
}

ExprPtr Parser::parsePrimary()
{
    SourcePos b = cur().range.begin;
    ExprPtr e = parseAtom();
    while (e && ok()) {
        if (acceptOp(".")) {
            if (cur().kind != TokKind::Name || isKeyword(cur().text)) {
                invalidSyntax();
                return nullptr;
            }
            ExprPtr attr = makeExpr(ExprKind::Attribute, b, cur().range.end);
            attr->id = cur().text;
            attr->value = std::move(e);
            advance();
            e = std::move(attr);
        } else if (isOp("(")) {
            ExprPtr call = makeExpr(ExprKind::Call, b, b);
            call->value = std::move(e);
            if (!parseCallArgs(*call)) {
                return nullptr;
            }
            call->range.end = prev().range.end;
            e = std::move(call);
        } else if (isOp("[")) {
            ExprPtr sub = makeExpr(ExprKind::Subscript, b, b);
            sub->value = std::move(e);
            if (!parseSubscript(*sub)) {
                return nullptr;
            }
            sub->range.end = prev().range.end;
            e = std::move(sub);
        } else {
            break;
        }
    }
    return ok() ? std::move(e) : nullptr;
}

} // namespace tkm::triton::syntax
