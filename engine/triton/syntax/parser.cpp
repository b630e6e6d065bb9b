#include "engine/triton/syntax/parser.h"

#include "engine/triton/syntax/parser_impl.h"

#include <cstring>

namespace tkm::triton {

ParseResult parse(std::string_view source)
{
    return syntax::Parser(syntax::tokenize(source)).run();
}

} // namespace tkm::triton

namespace tkm::triton::syntax {

namespace {
constexpr int kMaxDepth = 300;

bool isName(const Token& t, const char* text)
{
    return t.kind == TokKind::Name && t.text == text;
}
} // namespace

std::string dottedName(const ast::Expr& e)
{
    if (e.kind == ast::ExprKind::Name) {
        return e.id;
    }
    if (e.kind == ast::ExprKind::Attribute && e.value) {
        std::string base = dottedName(*e.value);
        return base.empty() ? std::string() : base + "." + e.id;
    }
    return {};
}

Parser::Parser(LexResult lex) : m_lex(std::move(lex)), m_toks(m_lex.tokens)
{
    if (m_lex.tokens.empty()) {
        Token end;
        end.range = {{1, 1}, {1, 1}};
        m_lex.tokens.push_back(end);
    }
}

ParseResult Parser::run()
{
    parseTopLevel();
    ParseResult r;
    r.module = std::move(m_module);
    if (m_failed) {
        Diagnostic d = m_error;
        if (m_lex.error && m_errorOverridable) {
            int errLine = m_toks[m_furthest].range.begin.line;
            if (m_lex.error->kind == LexErrorKind::Fatal || errLine > m_lex.error->bracketLine) {
                d = m_lex.error->diagnostic;
            }
        }
        r.diagnostics.push_back(std::move(d));
    }
    return r;
}

// --- tokens and errors ---

const Token& Parser::cur() const
{
    return m_toks[m_pos];
}

const Token& Parser::prev() const
{
    return m_toks[m_pos > 0 ? m_pos - 1 : 0];
}

const Token& Parser::peekAt(size_t k) const
{
    size_t i = m_pos + k;
    return m_toks[i < m_toks.size() ? i : m_toks.size() - 1];
}

void Parser::advance()
{
    if (m_pos + 1 < m_toks.size()) {
        ++m_pos;
        if (m_pos > m_furthest) {
            m_furthest = m_pos;
        }
    }
}

bool Parser::isOp(const char* text) const
{
    return cur().kind == TokKind::Op && cur().text == text;
}

bool Parser::isKw(const char* kw) const
{
    return isName(cur(), kw);
}

bool Parser::acceptOp(const char* text)
{
    if (!isOp(text)) {
        return false;
    }
    advance();
    return true;
}

bool Parser::acceptKw(const char* kw)
{
    if (!isKw(kw)) {
        return false;
    }
    advance();
    return true;
}

bool Parser::startsExpression() const
{
    const Token& t = cur();
    switch (t.kind) {
    case TokKind::Int:
    case TokKind::Float:
    case TokKind::Imaginary:
    case TokKind::String:
        return true;
    case TokKind::Name:
        return !isKeyword(t.text) || t.text == "None" || t.text == "True" || t.text == "False" || t.text == "not" ||
               t.text == "lambda" || t.text == "await";
    case TokKind::Op:
        return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" || t.text == "~" ||
               t.text == "...";
    default:
        return false;
    }
}

void Parser::error(SourceRange at, std::string message, std::string code, bool overridable)
{
    if (m_failed) {
        return;
    }
    m_failed = true;
    m_unsupported.reset();
    if (cur().kind == TokKind::Error && m_lex.error) {
        m_error = m_lex.error->diagnostic;
        m_errorOverridable = false;
        return;
    }
    m_error = Diagnostic{};
    m_error.code = std::move(code);
    m_error.message = std::move(message);
    m_error.range = at;
    m_errorOverridable = overridable;
}

void Parser::errorAtCur(std::string message, std::string code)
{
    SourceRange r = cur().range;
    if (r.end.line == r.begin.line && r.end.column <= r.begin.column) {
        r.end.column = r.begin.column + 1;
    }
    error(r, std::move(message), std::move(code));
}

void Parser::unsupported(std::string what, SourceRange at)
{
    if (ok()) {
        m_unsupported = Unsupported{std::move(what), at};
    }
}

void Parser::refuse(std::string what, SourceRange at, std::string message)
{
    if (m_inJit) {
        error(at, std::move(message), "syntax-unsupported");
    } else {
        unsupported(std::move(what), at);
    }
}

bool Parser::enter()
{
    if (++m_depth > kMaxDepth) {
        errorAtCur(isOp("(") || isOp("[") || isOp("{") ? "too many nested parentheses"
                                                       : "expression is too deeply nested",
                   "syntax-nesting");
        return false;
    }
    return true;
}

// --- module and host code ---

void Parser::parseTopLevel()
{
    while (!m_failed && cur().kind != TokKind::EndMarker) {
        m_unsupported.reset();
        const Token& t = cur();
        size_t start = m_pos;
        if (t.kind == TokKind::Indent) {
            error(t.range, "unexpected indent", "syntax-indent", false);
        } else if (t.kind == TokKind::Error || t.kind == TokKind::Dedent || t.kind == TokKind::Newline) {
            invalidSyntax();
        } else if (isOp("@") || isKw("def")) {
            topLevelDef(start);
        } else if (isKw("import") || isKw("from")) {
            ast::Body out;
            parseSimpleStatements(out);
            if (!ok()) {
                resetTo(start);
                recordSkipped(start, skipStatement());
            }
            for (ast::StmtPtr& s : out) {
                m_module.body.push_back(std::move(s));
            }
        } else if (t.kind == TokKind::Name && !isKeyword(t.text)) {
            topLevelSimple(start);
        } else {
            recordSkipped(start, skipStatement());
        }
    }
}

void Parser::topLevelDef(size_t start)
{
    std::vector<ast::Decorator> decorators;
    bool decoratorsOk = parseDecorators(decorators);
    if (!m_failed && decoratorsOk && isKw("def")) {
        bool jit = false;
        for (const ast::Decorator& d : decorators) {
            jit = jit || d.name == "triton.jit" || d.name == "jit";
        }
        m_inJit = jit;
        m_inFunction = true;
        auto fn = parseFunctionDef(std::move(decorators));
        m_inJit = false;
        m_inFunction = false;
        if (jit && fn) {
            auto s = std::make_unique<ast::Stmt>();
            s->kind = ast::StmtKind::FunctionDef;
            s->range = fn->range;
            s->function = std::move(fn);
            m_module.body.push_back(std::move(s));
            return;
        }
        if (jit && m_failed) {
            return;
        }
        if (jit && m_unsupported) {
            Unsupported u = *m_unsupported;
            m_unsupported.reset();
            return error(u.range, u.what + " is not supported in a @triton.jit kernel", "syntax-unsupported");
        }
        if (fn && ok()) {
            auto s = std::make_unique<ast::Stmt>();
            s->kind = ast::StmtKind::FunctionDef;
            s->range = fn->range;
            s->function = std::move(fn);
            m_module.body.push_back(std::move(s));
            return;
        }
    }
    // A host function (or class) outside the subset: skipped whole.
    resetTo(start);
    recordSkipped(start, skipStatement());
}

void Parser::topLevelSimple(size_t start)
{
    ast::Body out;
    parseSimpleStatements(out);
    bool keep = ok();
    for (const ast::StmtPtr& s : out) {
        if (!keep) {
            break;
        }
        if (s->kind == ast::StmtKind::Assign) {
            for (const ast::ExprPtr& target : s->targets) {
                bool simple = target->kind == ast::ExprKind::Name;
                if (target->kind == ast::ExprKind::Tuple) {
                    simple = true;
                    for (const ast::ExprPtr& e : target->elts) {
                        simple = simple && e->kind == ast::ExprKind::Name;
                    }
                }
                keep = keep && simple;
            }
        } else if (s->kind == ast::StmtKind::AnnAssign) {
            keep = s->targets[0]->kind == ast::ExprKind::Name;
        } else {
            keep = s->kind == ast::StmtKind::Import;
        }
    }
    if (!keep) {
        resetTo(start);
        recordSkipped(start, skipStatement());
        return;
    }
    for (ast::StmtPtr& s : out) {
        m_module.body.push_back(std::move(s));
    }
}

void Parser::resetTo(size_t pos)
{
    m_pos = pos;
    m_unsupported.reset();
    m_failed = false;
    m_depth = 0;
    m_bracketLevel = 0;
}

void Parser::recordSkipped(size_t start, SourceRange r)
{
    if (m_failed) {
        return;
    }
    const Token& t = m_toks[start];
    const Token& next = m_toks[start + 1 < m_toks.size() ? start + 1 : start];
    std::string what;
    if (t.kind == TokKind::Op && t.text == "@") {
        size_t i = start;
        while (i + 1 < m_toks.size() && !(isName(m_toks[i], "def") || isName(m_toks[i], "class")) &&
               m_toks[i].kind != TokKind::EndMarker) {
            ++i;
        }
        what = "decorated " + m_toks[i].text + (i + 1 < m_toks.size() ? " " + m_toks[i + 1].text : "");
    } else if (isName(t, "def") || isName(t, "class")) {
        what = t.text + " " + next.text;
    } else if (isName(t, "if") || isName(t, "with") || isName(t, "try")) {
        what = t.text + " statement";
    } else if (isName(t, "for") || isName(t, "while")) {
        what = t.text + " loop";
    } else if (t.kind == TokKind::Name && isKeyword(t.text)) {
        what = t.text + " statement";
    } else {
        what = "statement";
        for (size_t i = start; i < m_toks.size() && m_toks[i].kind != TokKind::Newline; ++i) {
            const Token& k = m_toks[i];
            if (k.kind == TokKind::Op &&
                (k.text == "=" || (k.text.size() >= 2 && k.text.back() == '=' && k.text != "==" && k.text != "<=" &&
                                   k.text != ">=" && k.text != "!="))) {
                what = "assignment";
                break;
            }
        }
        if (what == "statement") {
            what = "expression statement";
        }
    }
    m_module.skipped.push_back({r, what});
}

SourcePos Parser::lastTokenEnd() const
{
    size_t i = m_pos;
    while (i > 0) {
        TokKind k = m_toks[--i].kind;
        if (k != TokKind::Newline && k != TokKind::Indent && k != TokKind::Dedent) {
            return m_toks[i].range.end;
        }
    }
    return m_toks[0].range.begin;
}

SourceRange Parser::skipStatement()
{
    SourceRange r;
    r.begin = cur().range.begin;
    bool compound = cur().kind == TokKind::Name && (isKw("if") || isKw("for") || isKw("while") || isKw("with") ||
                                                    isKw("try") || isKw("def") || isKw("class") || isKw("async"));
    for (;;) {
        bool decorator = isOp("@");
        skipLogicalLine();
        r.end = lastTokenEnd();
        if (m_failed) {
            return r;
        }
        if (cur().kind == TokKind::Indent) {
            skipBlock();
            r.end = lastTokenEnd();
            if (m_failed) {
                return r;
            }
        }
        if (decorator) {
            compound = true;
            continue;
        }
        if (compound && (isKw("elif") || isKw("else") || isKw("except") || isKw("finally"))) {
            continue;
        }
        return r;
    }
}

void Parser::skipLogicalLine()
{
    while (cur().kind != TokKind::Newline && cur().kind != TokKind::EndMarker) {
        if (cur().kind == TokKind::Error) {
            invalidSyntax();
            return;
        }
        advance();
    }
    if (cur().kind == TokKind::Newline) {
        advance();
    }
}

void Parser::skipBlock()
{
    int depth = 0;
    for (;;) {
        const Token& t = cur();
        if (t.kind == TokKind::Error) {
            invalidSyntax();
            return;
        }
        if (t.kind == TokKind::EndMarker) {
            return;
        }
        if (t.kind == TokKind::Indent) {
            ++depth;
        } else if (t.kind == TokKind::Dedent && --depth == 0) {
            advance();
            return;
        }
        advance();
    }
}

} // namespace tkm::triton::syntax
