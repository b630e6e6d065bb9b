#pragma once
// The recursive-descent parser behind parse() (parser.h), split over five files: parser.cpp (tokens, errors,
// the module and host-code skipping), parse_stmt.cpp (statements), parse_def.cpp (decorators and `def`s),
// parse_expr.cpp (Python's precedence ladder) and parse_atom.cpp (atoms, displays, calls, subscripts). Internal to
// engine/triton/syntax/.
//
// Failure is a state, not an exception: the first syntax error sets m_failed and every parse function returns
// null from then on. Valid Python outside the subset (a comprehension, `with`, an f-string…) sets m_unsupported
// instead; a statement of a @triton.jit body catches it and becomes StmtKind::Other, a host statement is
// skipped by tokens.

#include "engine/triton/syntax/ast.h"
#include "engine/triton/syntax/lexer.h"
#include "engine/triton/syntax/parser.h"

#include <optional>
#include <string>

namespace tkm::triton::syntax {

class Parser
{
public:
    explicit Parser(LexResult lex);
    /// Parses the whole file.
    ParseResult run();

    // --- expressions (parse_expr.cpp) ---
    ast::ExprPtr parseTestList(bool allowStar); ///< `a, b` (a Tuple when there is a comma) or one test
    ast::ExprPtr parseTest();                   ///< lambda, `x if c else y`, or below
    ast::ExprPtr parseTargetList();             ///< `for` targets: bit-or expressions, commas
    ast::ExprPtr parseOr();                     ///< `a or b`
    ast::ExprPtr parseBitOr();                  ///< `a | b` and tighter

private:
    friend struct DepthGuard;
    LexResult m_lex;
    const std::vector<Token>& m_toks;
    size_t m_pos = 0;
    size_t m_furthest = 0;
    bool m_failed = false;
    bool m_errorOverridable = true;
    Diagnostic m_error;
    struct Unsupported
    {
        std::string what;
        SourceRange range;
    };
    std::optional<Unsupported> m_unsupported;
    bool m_inJit = false;      ///< inside a @triton.jit function
    bool m_inFunction = false; ///< inside any def
    int m_depth = 0;
    int m_bracketLevel = 0; ///< brackets opened by the parser around the current expression
    ast::Module m_module;

    // --- tokens and errors (parser.cpp) ---
    const Token& cur() const;
    const Token& prev() const;
    const Token& peekAt(size_t k) const;
    void advance();
    bool ok() const { return !m_failed && !m_unsupported; }
    bool isOp(const char* text) const;
    bool isKw(const char* kw) const;
    bool acceptOp(const char* text);
    bool acceptKw(const char* kw);
    bool startsExpression() const;
    void error(SourceRange at, std::string message, std::string code, bool overridable = true);
    void errorAtCur(std::string message, std::string code);
    void invalidSyntax() { errorAtCur("invalid syntax", "syntax-invalid"); }
    void unsupported(std::string what, SourceRange at);
    void refuse(std::string what, SourceRange at, std::string message);
    bool enter(); ///< depth guard: false (and an error) past the nesting limit
    void leave() { --m_depth; }
    static SourceRange span(SourcePos b, SourcePos e) { return {b, e}; }

    // --- module and host code (parser.cpp) ---
    void parseTopLevel();
    void topLevelDef(size_t start);
    void topLevelSimple(size_t start);
    SourceRange skipStatement();
    SourcePos lastTokenEnd() const; ///< end of the last token before m_pos that is not NEWLINE/INDENT/DEDENT
    void skipLogicalLine();
    void skipBlock();
    void recordSkipped(size_t start, SourceRange r);
    void resetTo(size_t pos);

    // --- statements (parse_stmt.cpp) ---
    void parseStatement(ast::Body& out);
    void parseStatementChecked(ast::Body& out);
    void parseSimpleStatements(ast::Body& out);
    ast::StmtPtr parseSimpleStatement();
    ast::StmtPtr parseExprOrAssign();
    ast::StmtPtr parseImport();
    ast::StmtPtr parseIf(bool isElif);
    ast::StmtPtr parseFor();
    ast::StmtPtr parseWhile();
    bool parseBlock(ast::Body& out, const std::string& construct, int headerLine);
    bool expectColon(bool newlineOnly, SourcePos testBegin);
    enum class TargetUse { Assign, Augmented, For };
    bool checkTarget(const ast::Expr& target, TargetUse use);
    bool parseDecorators(std::vector<ast::Decorator>& out);
    std::unique_ptr<ast::FunctionDef> parseFunctionDef(std::vector<ast::Decorator> decorators);
    bool parseParams(ast::FunctionDef& fn);

    // --- expression helpers (parse_expr.cpp) ---
    ast::ExprPtr parseStarOrTest(bool allowStar);
    ast::ExprPtr parseLambda();
    ast::ExprPtr parseAnd();
    ast::ExprPtr parseNot();
    ast::ExprPtr parseComparison();
    ast::ExprPtr parseBitXor();
    ast::ExprPtr parseBitAnd();
    ast::ExprPtr parseShift();
    ast::ExprPtr parseArith();
    ast::ExprPtr parseTerm();
    ast::ExprPtr parseFactor();
    ast::ExprPtr parsePower();
    ast::ExprPtr parsePrimary();
    ast::ExprPtr parseAtom();
    ast::ExprPtr parseStrings();
    ast::ExprPtr parseParen();
    ast::ExprPtr parseListDisplay();
    ast::ExprPtr parseBraces();
    bool parseCallArgs(ast::Expr& call);
    bool parseSubscript(ast::Expr& sub);
    bool parseSliceItem(ast::SliceItem& item);
    bool closeOrComma(const char* close, const ast::Expr* last);
    ast::ExprPtr binaryChain(ast::ExprPtr (Parser::*next)(), const char* const* ops, const ast::BinOpKind* kinds,
                             size_t n);
};

/// Counts one level of recursion for the lifetime of a parse function (bounded nesting, never a stack overflow).
struct DepthGuard
{
    explicit DepthGuard(Parser& p) : parser(p), ok(p.enter()) {}
    ~DepthGuard() { parser.leave(); }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    Parser& parser; ///< the parser whose depth is counted
    bool ok;        ///< false past the limit (the error is set)
};

/// Counts the brackets the parser is inside of while one is open (for "Perhaps you forgot a comma?").
struct BracketScope
{
    explicit BracketScope(int& level) : m_level(level) { ++m_level; }
    ~BracketScope() { --m_level; }
    BracketScope(const BracketScope&) = delete;
    BracketScope& operator=(const BracketScope&) = delete;
    int& m_level; ///< the counter
};

/// A new expression node of `kind` spanning [b, e).
ast::ExprPtr makeExpr(ast::ExprKind kind, SourcePos b, SourcePos e);

/// Dotted spelling of a Name/Attribute chain ("triton.jit"); empty for anything else.
std::string dottedName(const ast::Expr& e);

} // namespace tkm::triton::syntax
