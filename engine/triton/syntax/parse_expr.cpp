// Expressions, Python's precedence from loosest to tightest: lambda < if-else < or < and < not < comparisons
// (chained) < | < ^ < & < shifts < + - < * / // % @ < unary - + ~ < ** < primaries (call, attribute, subscript).
#include "engine/triton/syntax/parser_impl.h"

namespace tkm::triton::syntax {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

namespace {

ExprPtr node(ExprKind kind, SourcePos b, SourcePos e)
{
    auto x = std::make_unique<Expr>();
    x->kind = kind;
    x->range = {b, e};
    return x;
}

/// Counts brackets the parser is inside of (for "Perhaps you forgot a comma?").
struct BracketScope
{
    explicit BracketScope(int& level) : m_level(level) { ++m_level; }
    ~BracketScope() { --m_level; }
    BracketScope(const BracketScope&) = delete;
    BracketScope& operator=(const BracketScope&) = delete;
    int& m_level;
};

} // namespace

ExprPtr Parser::parseTestList(bool allowStar)
{
    SourcePos b = cur().range.begin;
    ExprPtr first = parseStarOrTest(allowStar);
    if (!first || !isOp(",")) {
        return first;
    }
    ExprPtr tuple = node(ExprKind::Tuple, b, b);
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
        ExprPtr star = node(ExprKind::Starred, b, prev().range.end);
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
    ExprPtr tuple = node(ExprKind::Tuple, b, b);
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
    ExprPtr e = node(ExprKind::IfExp, b, prev().range.end);
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
    ExprPtr lam = node(ExprKind::Lambda, kw.begin, kw.end);
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
    ExprPtr e = node(ExprKind::BoolOp, b, b);
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
    ExprPtr e = node(ExprKind::BoolOp, b, b);
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
    ExprPtr e = node(ExprKind::UnaryOp, op.begin, prev().range.end);
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
            static const std::pair<const char*, CmpOpKind> kOps[] = {
                {"<", CmpOpKind::Lt},   {">", CmpOpKind::Gt},     {"==", CmpOpKind::Eq},
                {">=", CmpOpKind::GtE}, {"<=", CmpOpKind::LtE},   {"!=", CmpOpKind::NotEq}};
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
            cmp = node(ExprKind::Compare, b, b);
            cmp->left = std::move(left);
            cmp->opRange = opRange;
        }
        cmp->cmpOps.push_back(*op);
        cmp->elts.push_back(std::move(right));
        cmp->range.end = prev().range.end;
    }
    return cmp ? std::move(cmp) : std::move(left);
}

ExprPtr Parser::binaryChain(ExprPtr (Parser::*next)(), const char* const* ops, const ast::BinOpKind* kinds,
                            size_t n)
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
        ExprPtr e = node(ExprKind::BinOp, b, prev().range.end);
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
    ExprPtr e = node(ExprKind::UnaryOp, op.begin, prev().range.end);
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
    ExprPtr e = node(ExprKind::BinOp, b, prev().range.end);
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
            ExprPtr attr = node(ExprKind::Attribute, b, cur().range.end);
            attr->id = cur().text;
            attr->value = std::move(e);
            advance();
            e = std::move(attr);
        } else if (isOp("(")) {
            ExprPtr call = node(ExprKind::Call, b, b);
            call->value = std::move(e);
            if (!parseCallArgs(*call)) {
                return nullptr;
            }
            call->range.end = prev().range.end;
            e = std::move(call);
        } else if (isOp("[")) {
            ExprPtr sub = node(ExprKind::Subscript, b, b);
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

ExprPtr Parser::parseAtom()
{
    const Token& t = cur();
    ExprPtr e;
    switch (t.kind) {
    case TokKind::Name:
        if (t.text == "None" || t.text == "True" || t.text == "False") {
            e = node(ExprKind::Constant, t.range.begin, t.range.end);
            e->constant.kind = t.text == "None" ? ast::Constant::Kind::None : ast::Constant::Kind::Bool;
            e->constant.boolValue = t.text == "True";
        } else if (t.text == "yield" || t.text == "await") {
            unsupported(t.text, t.range);
            return nullptr;
        } else if (isKeyword(t.text)) {
            invalidSyntax();
            return nullptr;
        } else {
            e = node(ExprKind::Name, t.range.begin, t.range.end);
            e->id = t.text;
        }
        break;
    case TokKind::Int:
        if (t.intTooLarge) {
            error(t.range, "integer literal too large", "syntax-number");
            return nullptr;
        }
        e = node(ExprKind::Constant, t.range.begin, t.range.end);
        e->constant.kind = ast::Constant::Kind::Int;
        e->constant.intValue = t.intValue;
        break;
    case TokKind::Float:
        e = node(ExprKind::Constant, t.range.begin, t.range.end);
        e->constant.kind = ast::Constant::Kind::Float;
        e->constant.floatValue = t.floatValue;
        break;
    case TokKind::Imaginary: unsupported("complex literal", t.range); return nullptr;
    case TokKind::String: return parseStrings();
    case TokKind::Op:
        if (t.text == "(") {
            return parseParen();
        }
        if (t.text == "[") {
            return parseListDisplay();
        }
        if (t.text == "{") {
            return parseBraces();
        }
        if (t.text == "...") {
            e = node(ExprKind::Constant, t.range.begin, t.range.end);
            e->constant.kind = ast::Constant::Kind::Ellipsis;
            break;
        }
        invalidSyntax();
        return nullptr;
    default: invalidSyntax(); return nullptr;
    }
    advance();
    return e;
}

ExprPtr Parser::parseStrings()
{
    SourcePos b = cur().range.begin;
    ExprPtr e = node(ExprKind::Constant, b, b);
    e->constant.kind = ast::Constant::Kind::Str;
    while (cur().kind == TokKind::String) {
        if (cur().fString) {
            unsupported("f-string", cur().range);
            return nullptr;
        }
        if (cur().bytes) {
            unsupported("bytes literal", cur().range);
            return nullptr;
        }
        e->constant.strValue += cur().strValue;
        advance();
    }
    e->range.end = prev().range.end;
    return e;
}

bool Parser::closeOrComma(const char* close, const Expr* last)
{
    if (acceptOp(close)) {
        return true;
    }
    if (!ok()) {
        return false;
    }
    if (last && startsExpression() && cur().kind != TokKind::Error) {
        // Two expressions side by side inside brackets: find where the second ends for the underline.
        size_t save = m_pos;
        ExprPtr second = parseTest();
        SourcePos end = second ? prev().range.end : cur().range.end;
        m_pos = save;
        m_failed = false;
        m_unsupported.reset();
        error({last->range.begin, end}, "invalid syntax. Perhaps you forgot a comma?", "syntax-missing-comma");
        return false;
    }
    invalidSyntax();
    return false;
}

ExprPtr Parser::parseParen()
{
    BracketScope scope(m_bracketLevel);
    SourcePos b = cur().range.begin;
    advance();
    if (acceptOp(")")) {
        ExprPtr empty = node(ExprKind::Tuple, b, prev().range.end);
        empty->parenthesized = true;
        return empty;
    }
    if (isKw("yield")) {
        unsupported("yield", cur().range);
        return nullptr;
    }
    ExprPtr first = parseStarOrTest(true);
    if (!first) {
        return nullptr;
    }
    if (isOp(":=")) {
        unsupported("assignment expression", cur().range);
        return nullptr;
    }
    if (isKw("for") || (isKw("async") && peekAt(1).text == "for")) {
        unsupported("generator expression", first->range);
        return nullptr;
    }
    if (!isOp(",")) {
        if (!closeOrComma(")", first.get())) {
            return nullptr;
        }
        first->parenthesized = true;
        return first;
    }
    ExprPtr tuple = node(ExprKind::Tuple, b, b);
    tuple->elts.push_back(std::move(first));
    while (acceptOp(",")) {
        if (isOp(")")) {
            break;
        }
        ExprPtr e = parseStarOrTest(true);
        if (!e) {
            return nullptr;
        }
        tuple->elts.push_back(std::move(e));
    }
    if (!closeOrComma(")", tuple->elts.back().get())) {
        return nullptr;
    }
    tuple->range.end = prev().range.end;
    tuple->parenthesized = true;
    return tuple;
}

ExprPtr Parser::parseListDisplay()
{
    BracketScope scope(m_bracketLevel);
    SourcePos b = cur().range.begin;
    advance();
    ExprPtr list = node(ExprKind::List, b, b);
    if (!acceptOp("]")) {
        for (;;) {
            ExprPtr e = parseStarOrTest(true);
            if (!e) {
                return nullptr;
            }
            if (isKw("for") || (isKw("async") && peekAt(1).text == "for")) {
                unsupported("list comprehension", e->range);
                return nullptr;
            }
            list->elts.push_back(std::move(e));
            if (acceptOp(",")) {
                if (acceptOp("]")) {
                    break;
                }
                continue;
            }
            if (!closeOrComma("]", list->elts.back().get())) {
                return nullptr;
            }
            break;
        }
    }
    list->range.end = prev().range.end;
    return list;
}

ExprPtr Parser::parseBraces()
{
    BracketScope scope(m_bracketLevel);
    SourcePos b = cur().range.begin;
    advance();
    ExprPtr dict = node(ExprKind::Dict, b, b);
    if (acceptOp("}")) {
        dict->range.end = prev().range.end;
        return dict;
    }
    for (;;) {
        if (isOp("**")) {
            unsupported("dict unpacking", cur().range);
            return nullptr;
        }
        ExprPtr key = parseStarOrTest(true);
        if (!key) {
            return nullptr;
        }
        if (!isOp(":")) {
            bool comprehension = isKw("for");
            if (dict->elts.empty() && (comprehension || isOp(",") || isOp("}"))) {
                unsupported(comprehension ? "set comprehension" : "set literal", key->range);
                return nullptr;
            }
            if (!ok()) {
                return nullptr;
            }
            errorAtCur("':' expected after dictionary key", "syntax-expected-colon");
            return nullptr;
        }
        advance();
        ExprPtr value = parseTest();
        if (!value) {
            return nullptr;
        }
        if (isKw("for")) {
            unsupported("dict comprehension", key->range);
            return nullptr;
        }
        dict->elts.push_back(std::move(key));
        dict->values.push_back(std::move(value));
        if (acceptOp(",")) {
            if (acceptOp("}")) {
                break;
            }
            continue;
        }
        if (!closeOrComma("}", dict->values.back().get())) {
            return nullptr;
        }
        break;
    }
    dict->range.end = prev().range.end;
    return dict;
}

bool Parser::parseCallArgs(Expr& call)
{
    BracketScope scope(m_bracketLevel);
    advance();
    if (acceptOp(")")) {
        return true;
    }
    bool sawKeyword = false;
    for (;;) {
        SourcePos b = cur().range.begin;
        const Expr* last = nullptr;
        if (isOp("**")) {
            unsupported("'**' argument unpacking", cur().range);
            return false;
        }
        if (cur().kind == TokKind::Name && !isKeyword(cur().text) && peekAt(1).kind == TokKind::Op &&
            peekAt(1).text == "=") {
            ast::Keyword kw;
            kw.name = cur().text;
            advance();
            advance();
            kw.value = parseTest();
            if (!kw.value) {
                return false;
            }
            kw.range = {b, prev().range.end};
            last = kw.value.get();
            call.keywords.push_back(std::move(kw));
            sawKeyword = true;
        } else {
            bool star = isOp("*");
            ExprPtr arg = parseStarOrTest(true);
            if (!arg) {
                return false;
            }
            if (isOp("=") && !star) {
                error(arg->range, "expression cannot contain assignment, perhaps you meant \"==\"?",
                      "syntax-keyword-arg");
                return false;
            }
            if (isKw("for")) {
                unsupported("generator expression", arg->range);
                return false;
            }
            if (sawKeyword && !star) {
                error(arg->range, "positional argument follows keyword argument", "syntax-positional-after-keyword");
                return false;
            }
            last = arg.get();
            call.args.push_back(std::move(arg));
        }
        if (acceptOp(",")) {
            if (acceptOp(")")) {
                return true;
            }
            continue;
        }
        return closeOrComma(")", last);
    }
}

bool Parser::parseSubscript(Expr& sub)
{
    BracketScope scope(m_bracketLevel);
    advance();
    for (;;) {
        ast::SliceItem item;
        if (!parseSliceItem(item)) {
            return false;
        }
        sub.slices.push_back(std::move(item));
        if (acceptOp(",")) {
            if (acceptOp("]")) {
                return true;
            }
            continue;
        }
        const ast::SliceItem& lastItem = sub.slices.back();
        Expr anchor;
        anchor.range = lastItem.range;
        return closeOrComma("]", &anchor);
    }
}

bool Parser::parseSliceItem(ast::SliceItem& item)
{
    using Kind = ast::SliceItem::Kind;
    SourcePos b = cur().range.begin;
    if (isOp("...") && (peekAt(1).text == "," || peekAt(1).text == "]")) {
        advance();
        item.kind = Kind::Ellipsis;
        item.range = {b, prev().range.end};
        return true;
    }
    if (isOp("*")) {
        unsupported("starred subscript", cur().range);
        return false;
    }
    ExprPtr lower;
    if (!isOp(":")) {
        lower = parseTest();
        if (!lower) {
            return false;
        }
        if (!isOp(":")) {
            item.range = {b, prev().range.end};
            bool newAxis = lower->kind == ExprKind::Constant && lower->constant.kind == ast::Constant::Kind::None;
            item.kind = newAxis ? Kind::NewAxis : Kind::Index;
            if (!newAxis) {
                item.index = std::move(lower);
            }
            return true;
        }
    }
    advance();
    item.kind = Kind::Slice;
    item.lower = std::move(lower);
    auto endOfPart = [this] { return isOp(":") || isOp(",") || isOp("]"); };
    if (!endOfPart()) {
        item.upper = parseTest();
        if (!item.upper) {
            return false;
        }
    }
    if (acceptOp(":") && !endOfPart()) {
        item.step = parseTest();
        if (!item.step) {
            return false;
        }
    }
    item.range = {b, prev().range.end};
    return true;
}

} // namespace tkm::triton::syntax
