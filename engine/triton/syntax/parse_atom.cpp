// Atoms and primaries' suffixes: names, literals (adjacent strings joined), parenthesised expressions and
// tuples, list and dict displays, call arguments and subscripts with slices, `None` (new axis) and `...`.
// Comprehensions, set literals, f-strings and `**` unpacking are valid Python outside the subset (unsupported()).
#include "engine/triton/syntax/parser_impl.h"

namespace tkm::triton::syntax {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;

ExprPtr Parser::parseAtom()
{
    const Token& t = cur();
    ExprPtr e;
    switch (t.kind) {
    case TokKind::Name:
        if (t.text == "None" || t.text == "True" || t.text == "False") {
            e = makeExpr(ExprKind::Constant, t.range.begin, t.range.end);
            e->constant.kind = t.text == "None" ? ast::Constant::Kind::None : ast::Constant::Kind::Bool;
            e->constant.boolValue = t.text == "True";
        } else if (t.text == "yield" || t.text == "await") {
            unsupported(t.text, t.range);
            return nullptr;
        } else if (isKeyword(t.text)) {
            invalidSyntax();
            return nullptr;
        } else {
            e = makeExpr(ExprKind::Name, t.range.begin, t.range.end);
            e->id = t.text;
        }
        break;
    case TokKind::Int:
        if (t.intTooLarge) {
            error(t.range, "integer literal too large", "syntax-number");
            return nullptr;
        }
        e = makeExpr(ExprKind::Constant, t.range.begin, t.range.end);
        e->constant.kind = ast::Constant::Kind::Int;
        e->constant.intValue = t.intValue;
        break;
    case TokKind::Float:
        e = makeExpr(ExprKind::Constant, t.range.begin, t.range.end);
        e->constant.kind = ast::Constant::Kind::Float;
        e->constant.floatValue = t.floatValue;
        break;
    case TokKind::Imaginary:
        unsupported("complex literal", t.range);
        return nullptr;
    case TokKind::String:
        return parseStrings();
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
            e = makeExpr(ExprKind::Constant, t.range.begin, t.range.end);
            e->constant.kind = ast::Constant::Kind::Ellipsis;
            break;
        }
        invalidSyntax();
        return nullptr;
    default:
        invalidSyntax();
        return nullptr;
    }
    advance();
    return e;
}

ExprPtr Parser::parseStrings()
{
    SourcePos b = cur().range.begin;
    ExprPtr e = makeExpr(ExprKind::Constant, b, b);
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
        ExprPtr empty = makeExpr(ExprKind::Tuple, b, prev().range.end);
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
    ExprPtr tuple = makeExpr(ExprKind::Tuple, b, b);
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
    ExprPtr list = makeExpr(ExprKind::List, b, b);
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
    ExprPtr dict = makeExpr(ExprKind::Dict, b, b);
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
            if (isOp(":=")) {
                unsupported("assignment expression", cur().range);
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
