// Statements and function definitions: simple statements (expression, assignments, return, assert, import,
// pass/break/continue), compound ones (if/elif/else, for, while, def) and their indented blocks.
#include "engine/triton/syntax/parser_impl.h"

namespace tkm::triton::syntax {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;
using ast::Stmt;
using ast::StmtKind;
using ast::StmtPtr;

namespace {

StmtPtr stmtNode(StmtKind kind, SourceRange r)
{
    auto s = std::make_unique<Stmt>();
    s->kind = kind;
    s->range = r;
    return s;
}

const char* targetName(const Expr& e)
{
    switch (e.kind) {
    case ExprKind::Call:
        return "function call";
    case ExprKind::Constant:
        return "literal";
    case ExprKind::Compare:
        return "comparison";
    case ExprKind::IfExp:
        return "conditional expression";
    case ExprKind::Lambda:
        return "lambda";
    case ExprKind::Dict:
        return "dict literal";
    case ExprKind::Tuple:
        return "tuple";
    case ExprKind::List:
        return "list";
    case ExprKind::Starred:
        return "starred";
    default:
        return "expression";
    }
}

bool augOp(const std::string& text, ast::BinOpKind& kind)
{
    static const std::pair<const char*, ast::BinOpKind> kOps[] = {
        {"+=", ast::BinOpKind::Add},     {"-=", ast::BinOpKind::Sub},       {"*=", ast::BinOpKind::Mul},
        {"/=", ast::BinOpKind::Div},     {"//=", ast::BinOpKind::FloorDiv}, {"%=", ast::BinOpKind::Mod},
        {"&=", ast::BinOpKind::BitAnd},  {"|=", ast::BinOpKind::BitOr},     {"^=", ast::BinOpKind::BitXor},
        {"<<=", ast::BinOpKind::LShift}, {">>=", ast::BinOpKind::RShift},   {"**=", ast::BinOpKind::Pow},
        {"@=", ast::BinOpKind::MatMul}};
    for (const auto& [t, k] : kOps) {
        if (text == t) {
            kind = k;
            return true;
        }
    }
    return false;
}

} // namespace

void Parser::parseStatementChecked(ast::Body& out)
{
    size_t start = m_pos;
    size_t count = out.size();
    parseStatement(out);
    if (!m_unsupported || m_failed || !m_inJit) {
        return;
    }
    // Valid Python outside the subset: kept by name for the checker to refuse, the parse goes on.
    Unsupported u = *m_unsupported;
    m_unsupported.reset();
    out.resize(count);
    m_pos = start;
    skipStatement();
    if (m_failed) {
        return;
    }
    StmtPtr s = stmtNode(StmtKind::Other, u.range);
    s->keyword = u.what;
    out.push_back(std::move(s));
}

void Parser::parseStatement(ast::Body& out)
{
    const Token& t = cur();
    if (t.kind == TokKind::Indent) {
        return error(t.range, "unexpected indent", "syntax-indent", false);
    }
    if (t.kind == TokKind::Op && t.text == "@") {
        return unsupported("def", t.range);
    }
    if (t.kind != TokKind::Name) {
        return parseSimpleStatements(out);
    }
    StmtPtr s;
    if (t.text == "if") {
        s = parseIf(false);
    } else if (t.text == "for") {
        s = parseFor();
    } else if (t.text == "while") {
        s = parseWhile();
    } else if (t.text == "def" || t.text == "class" || t.text == "with" || t.text == "try" || t.text == "async") {
        return unsupported(t.text, t.range);
    } else {
        return parseSimpleStatements(out);
    }
    if (s && ok()) {
        out.push_back(std::move(s));
    }
}

void Parser::parseSimpleStatements(ast::Body& out)
{
    for (;;) {
        StmtPtr s = parseSimpleStatement();
        if (!s || !ok()) {
            return;
        }
        out.push_back(std::move(s));
        if (acceptOp(";")) {
            if (cur().kind == TokKind::Newline) {
                advance();
                return;
            }
            continue;
        }
        if (cur().kind == TokKind::Newline) {
            advance();
            return;
        }
        return invalidSyntax();
    }
}

StmtPtr Parser::parseSimpleStatement()
{
    const Token& t = cur();
    if (t.kind != TokKind::Name || !isKeyword(t.text) || t.text == "None" || t.text == "True" || t.text == "False" ||
        t.text == "not" || t.text == "lambda" || t.text == "await") {
        return parseExprOrAssign();
    }
    SourceRange kw = t.range;
    if (t.text == "pass" || t.text == "break" || t.text == "continue") {
        StmtKind kind = t.text == "pass" ? StmtKind::Pass : t.text == "break" ? StmtKind::Break : StmtKind::Continue;
        advance();
        return stmtNode(kind, kw);
    }
    if (t.text == "return") {
        advance();
        StmtPtr s = stmtNode(StmtKind::Return, kw);
        if (startsExpression() || isOp("*")) {
            s->value = parseTestList(true);
            if (!s->value) {
                return nullptr;
            }
        }
        s->range.end = prev().range.end;
        return s;
    }
    if (t.text == "assert") {
        advance();
        StmtPtr s = stmtNode(StmtKind::Assert, kw);
        s->test = parseTest();
        if (s->test && acceptOp(",")) {
            s->value = parseTest();
        }
        if (!ok()) {
            return nullptr;
        }
        s->range.end = prev().range.end;
        return s;
    }
    if (t.text == "import" || t.text == "from") {
        return parseImport();
    }
    if (t.text == "global" || t.text == "nonlocal" || t.text == "del" || t.text == "raise" || t.text == "yield") {
        unsupported(t.text, kw);
        return nullptr;
    }
    invalidSyntax();
    return nullptr;
}

StmtPtr Parser::parseImport()
{
    StmtPtr s = stmtNode(StmtKind::Import, cur().range);
    auto dotted = [this](std::string& out) {
        while (isOp(".") || isOp("...")) {
            out += cur().text;
            advance();
        }
        bool any = false;
        while (cur().kind == TokKind::Name && !isKeyword(cur().text)) {
            out += cur().text;
            advance();
            any = true;
            if (!isOp(".") || peekAt(1).kind != TokKind::Name) {
                break;
            }
            out += ".";
            advance();
        }
        return any || !out.empty();
    };
    auto alias = [this](std::string& out) {
        if (!acceptKw("as")) {
            return true;
        }
        if (cur().kind != TokKind::Name || isKeyword(cur().text)) {
            return false;
        }
        out += " as " + cur().text;
        advance();
        return true;
    };
    if (acceptKw("import")) {
        do {
            std::string name;
            if (!dotted(name) || !alias(name)) {
                invalidSyntax();
                return nullptr;
            }
            s->modules.push_back(name);
        } while (acceptOp(","));
    } else {
        advance();
        std::string from;
        if (!dotted(from) || !acceptKw("import")) {
            invalidSyntax();
            return nullptr;
        }
        bool paren = acceptOp("(");
        if (acceptOp("*")) {
            s->modules.push_back(from + ".*");
        } else {
            do {
                if (paren && isOp(")")) {
                    break;
                }
                if (cur().kind != TokKind::Name || isKeyword(cur().text)) {
                    invalidSyntax();
                    return nullptr;
                }
                std::string name = from + (from.back() == '.' ? "" : ".") + cur().text;
                advance();
                if (!alias(name)) {
                    invalidSyntax();
                    return nullptr;
                }
                s->modules.push_back(name);
            } while (acceptOp(","));
        }
        if (paren && !acceptOp(")")) {
            invalidSyntax();
            return nullptr;
        }
    }
    s->range.end = prev().range.end;
    return s;
}

StmtPtr Parser::parseExprOrAssign()
{
    SourcePos b = cur().range.begin;
    ExprPtr first = parseTestList(true);
    if (!first) {
        return nullptr;
    }
    ast::BinOpKind aug{};
    StmtPtr s;
    if (isOp(":")) {
        if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute && first->kind != ExprKind::Subscript) {
            error(first->range,
                  first->kind == ExprKind::Tuple ? "only single target (not tuple) can be annotated"
                                                 : "illegal target for annotation",
                  "syntax-assign-target");
            return nullptr;
        }
        advance();
        s = stmtNode(StmtKind::AnnAssign, {});
        s->annotation = parseTest();
        if (s->annotation && acceptOp("=")) {
            s->value = parseTestList(true);
        }
        s->targets.push_back(std::move(first));
    } else if (cur().kind == TokKind::Op && augOp(cur().text, aug)) {
        if (!checkTarget(*first, TargetUse::Augmented)) {
            return nullptr;
        }
        advance();
        s = stmtNode(StmtKind::AugAssign, {});
        s->binOp = aug;
        s->value = parseTestList(true);
        s->targets.push_back(std::move(first));
    } else if (isOp("=")) {
        s = stmtNode(StmtKind::Assign, {});
        s->targets.push_back(std::move(first));
        while (acceptOp("=")) {
            if (isKw("yield")) {
                unsupported("yield", cur().range);
                return nullptr;
            }
            ExprPtr next = parseTestList(true);
            if (!next) {
                return nullptr;
            }
            s->targets.push_back(std::move(next));
        }
        s->value = std::move(s->targets.back());
        s->targets.pop_back();
        for (const ExprPtr& target : s->targets) {
            if (!checkTarget(*target, TargetUse::Assign)) {
                return nullptr;
            }
        }
    } else {
        s = stmtNode(StmtKind::ExprStmt, {});
        s->value = std::move(first);
    }
    if (!ok()) {
        return nullptr;
    }
    s->range = {b, prev().range.end};
    return s;
}

bool Parser::checkTarget(const Expr& target, TargetUse use)
{
    switch (target.kind) {
    case ExprKind::Name:
    case ExprKind::Attribute:
    case ExprKind::Subscript:
        return true;
    case ExprKind::Tuple:
    case ExprKind::List:
        if (use != TargetUse::Augmented) {
            for (const ExprPtr& e : target.elts) {
                if (!checkTarget(*e, use)) {
                    return false;
                }
            }
            return true;
        }
        break;
    case ExprKind::Starred:
        if (use != TargetUse::Augmented && target.left) {
            return checkTarget(*target.left, use);
        }
        break;
    default:
        break;
    }
    std::string name = targetName(target);
    if (use == TargetUse::Augmented) {
        error(target.range, "'" + name + "' is an illegal expression for augmented assignment", "syntax-assign-target");
    } else if (use == TargetUse::For) {
        error(target.range, "cannot assign to " + name, "syntax-assign-target");
    } else {
        error(target.range, "cannot assign to " + name + " here. Maybe you meant '==' instead of '='?",
              "syntax-assign-target");
    }
    return false;
}

bool Parser::expectColon(bool newlineOnly, SourcePos testBegin)
{
    if (acceptOp(":")) {
        return true;
    }
    if (!ok()) {
        return false;
    }
    if (isOp(":=")) {
        unsupported("assignment expression", cur().range);
    } else if (!newlineOnly || cur().kind == TokKind::Newline) {
        errorAtCur("expected ':'", "syntax-expected-colon");
    } else if (isOp("=")) {
        error({testBegin, cur().range.end}, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
              "syntax-invalid");
    } else {
        invalidSyntax();
    }
    return false;
}

StmtPtr Parser::parseIf(bool isElif)
{
    SourcePos b = cur().range.begin;
    int line = b.line;
    advance();
    SourcePos testBegin = cur().range.begin;
    StmtPtr s = stmtNode(StmtKind::If, {});
    s->isElif = isElif;
    s->test = parseTest();
    if (!s->test || !expectColon(true, testBegin)) {
        return nullptr;
    }
    s->range = {b, prev().range.end};
    if (!parseBlock(s->body, isElif ? "'elif' statement" : "'if' statement", line)) {
        return nullptr;
    }
    if (isKw("elif")) {
        StmtPtr elif = parseIf(true);
        if (!elif) {
            return nullptr;
        }
        s->orelse.push_back(std::move(elif));
    } else if (isKw("else")) {
        int elseLine = cur().range.begin.line;
        advance();
        if (!expectColon(false, {}) || !parseBlock(s->orelse, "'else' statement", elseLine)) {
            return nullptr;
        }
    }
    return s;
}

StmtPtr Parser::parseFor()
{
    SourcePos b = cur().range.begin;
    int line = b.line;
    advance();
    StmtPtr s = stmtNode(StmtKind::For, {});
    ExprPtr target = parseTargetList();
    if (!target || !checkTarget(*target, TargetUse::For)) {
        return nullptr;
    }
    if (!acceptKw("in")) {
        invalidSyntax();
        return nullptr;
    }
    s->targets.push_back(std::move(target));
    s->iter = parseTestList(true);
    if (!s->iter || !expectColon(false, {})) {
        return nullptr;
    }
    s->range = {b, prev().range.end};
    if (!parseBlock(s->body, "'for' statement", line)) {
        return nullptr;
    }
    if (isKw("else")) {
        refuse("for-else", cur().range, "'else' clauses on 'for' loops are not supported in a @triton.jit kernel");
        return nullptr;
    }
    return s;
}

StmtPtr Parser::parseWhile()
{
    SourcePos b = cur().range.begin;
    int line = b.line;
    advance();
    SourcePos testBegin = cur().range.begin;
    StmtPtr s = stmtNode(StmtKind::While, {});
    s->test = parseTest();
    if (!s->test || !expectColon(true, testBegin)) {
        return nullptr;
    }
    s->range = {b, prev().range.end};
    if (!parseBlock(s->body, "'while' statement", line)) {
        return nullptr;
    }
    if (isKw("else")) {
        refuse("while-else", cur().range, "'else' clauses on 'while' loops are not supported in a @triton.jit kernel");
        return nullptr;
    }
    return s;
}

bool Parser::parseBlock(ast::Body& out, const std::string& construct, int headerLine)
{
    DepthGuard guard(*this);
    if (!guard.ok) {
        return false;
    }
    if (cur().kind != TokKind::Newline) {
        parseSimpleStatements(out);
        return ok();
    }
    advance();
    if (cur().kind != TokKind::Indent) {
        if (cur().kind == TokKind::Error) {
            invalidSyntax();
        } else {
            errorAtCur("expected an indented block after " + construct + " on line " + std::to_string(headerLine),
                       "syntax-indent");
        }
        return false;
    }
    advance();
    while (ok() && cur().kind != TokKind::Dedent && cur().kind != TokKind::EndMarker) {
        if (cur().kind == TokKind::Error) {
            invalidSyntax();
            return false;
        }
        parseStatementChecked(out);
    }
    if (ok() && cur().kind == TokKind::Dedent) {
        advance();
    }
    return ok();
}

} // namespace tkm::triton::syntax
