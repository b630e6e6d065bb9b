#include "engine/triton/syntax/lexer.h"

#include "engine/triton/syntax/lexer_text.h"

#include <array>
#include <charconv>
#include <cstdio>

namespace tkm::triton::syntax {

namespace {

constexpr size_t kMaxBrackets = 200; // CPython's MAXLEVEL
constexpr int kTabSize = 8;
constexpr size_t kMaxIndents = 100; // CPython's MAXINDENT

bool isIdentStart(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
bool isIdentChar(unsigned char c)
{
    return isIdentStart(c) || (c >= '0' && c <= '9');
}
bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}
bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
char lower(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

class Lexer
{
public:
    explicit Lexer(std::string_view src) : m_src(src) {}

    LexResult run()
    {
        if (m_src.substr(0, 3) == "\xEF\xBB\xBF") {
            m_src.remove_prefix(3); // a UTF-8 byte-order mark, as editors on Windows write it
        }
        while (!m_out.error) {
            if (m_atLineStart && m_brackets.empty()) {
                if (!lineStart()) {
                    break;
                }
                if (m_out.error) {
                    break;
                }
            }
            skipBlanks();
            if (m_pos >= m_src.size()) {
                break;
            }
            step();
        }
        if (!m_out.error) {
            finish();
        }
        return std::move(m_out);
    }

private:
    std::string_view m_src;
    size_t m_pos = 0;
    int m_line = 1;
    size_t m_lineStart = 0;
    bool m_atLineStart = true;
    bool m_lineHasTokens = false;
    std::vector<int> m_indents{0};
    std::vector<int> m_altIndents{0};
    struct Bracket
    {
        char c;
        SourcePos pos;
    };
    std::vector<Bracket> m_brackets;
    LexResult m_out;

    char peek(size_t k = 0) const { return m_pos + k < m_src.size() ? m_src[m_pos + k] : '\0'; }
    bool atEnd(size_t k = 0) const { return m_pos + k >= m_src.size(); }
    SourcePos here() const { return {m_line, static_cast<int>(m_pos - m_lineStart) + 1}; }

    void newLine()
    {
        ++m_line;
        m_lineStart = m_pos;
    }

    /// Consumes a line break at m_pos (\n, \r\n or \r).
    void consumeLineBreak()
    {
        if (peek() == '\r' && peek(1) == '\n') {
            m_pos += 2;
        } else {
            m_pos += 1;
        }
        newLine();
    }

    void fail(SourcePos at, std::string message, std::string code, LexErrorKind kind = LexErrorKind::Fatal,
              int bracketLine = 0)
    {
        LexError e;
        e.kind = kind;
        e.bracketLine = bracketLine;
        e.diagnostic.code = std::move(code);
        e.diagnostic.message = std::move(message);
        e.diagnostic.range = {at, {at.line, at.column + 1}};
        m_out.error = std::move(e);
        Token t;
        t.kind = TokKind::Error;
        t.range = {here(), here()};
        if (kind == LexErrorKind::Fatal) {
            t.range = {at, at};
        }
        m_out.tokens.push_back(std::move(t));
    }

    void push(Token t)
    {
        m_lineHasTokens = true;
        m_out.tokens.push_back(std::move(t));
    }

    void pushSimple(TokKind kind, SourcePos b, SourcePos e, std::string text = {})
    {
        Token t;
        t.kind = kind;
        t.range = {b, e};
        t.text = std::move(text);
        m_out.tokens.push_back(std::move(t));
    }

    /// Indentation of a new logical line; false at end of file.
    bool lineStart()
    {
        for (;;) {
            int col = 0;
            int alt = 0;
            while (!atEnd()) {
                char c = peek();
                if (c == ' ') {
                    ++col;
                    ++alt;
                } else if (c == '\t') {
                    col = (col / kTabSize + 1) * kTabSize;
                    ++alt;
                } else if (c == '\f') {
                    col = alt = 0;
                } else {
                    break;
                }
                ++m_pos;
            }
            if (atEnd()) {
                return false;
            }
            char c = peek();
            if (c == '#' || c == '\n' || c == '\r') {
                while (!atEnd() && peek() != '\n' && peek() != '\r') {
                    ++m_pos;
                }
                if (atEnd()) {
                    return false;
                }
                consumeLineBreak();
                continue;
            }
            m_atLineStart = false;
            indent(col, alt);
            return true;
        }
    }

    void indent(int col, int alt)
    {
        SourcePos at = here();
        if (col > m_indents.back()) {
            if (alt <= m_altIndents.back()) {
                return tabError(at);
            }
            if (m_indents.size() >= kMaxIndents) {
                return fail(at, "too many levels of indentation", "syntax-indent");
            }
            m_indents.push_back(col);
            m_altIndents.push_back(alt);
            pushSimple(TokKind::Indent, at, at);
            return;
        }
        while (m_indents.size() > 1 && col < m_indents.back()) {
            m_indents.pop_back();
            m_altIndents.pop_back();
            pushSimple(TokKind::Dedent, at, at);
        }
        if (col != m_indents.back()) {
            return fail(at, "unindent does not match any outer indentation level", "syntax-indent");
        }
        if (alt != m_altIndents.back()) {
            tabError(at);
        }
    }

    void tabError(SourcePos at) { fail(at, "inconsistent use of tabs and spaces in indentation", "syntax-indent"); }

    void skipBlanks()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\f')) {
            ++m_pos;
        }
    }

    void step()
    {
        char c = peek();
        unsigned char uc = static_cast<unsigned char>(c);
        if (c == '#') {
            while (!atEnd() && peek() != '\n' && peek() != '\r') {
                ++m_pos;
            }
        } else if (c == '\n' || c == '\r') {
            SourcePos at = here();
            consumeLineBreak();
            if (m_brackets.empty()) {
                if (m_lineHasTokens) {
                    pushSimple(TokKind::Newline, at, {at.line, at.column + 1});
                }
                m_lineHasTokens = false;
                m_atLineStart = true;
            }
        } else if (c == '\\') {
            continuation();
        } else if (isIdentStart(uc)) {
            identifier();
        } else if (isDigit(c) || (c == '.' && isDigit(peek(1)))) {
            number();
        } else if (c == '\'' || c == '"') {
            string(m_pos, false, false, false);
        } else {
            op();
        }
    }

    void continuation()
    {
        SourcePos at = here();
        ++m_pos;
        if (atEnd()) {
            return fail(at, "unexpected EOF while parsing", "syntax-eof");
        }
        if (peek() != '\n' && peek() != '\r') {
            return fail({at.line, at.column + 1}, "unexpected character after line continuation character",
                        "syntax-continuation");
        }
        consumeLineBreak();
        if (atEnd()) {
            fail(here(), "unexpected EOF while parsing", "syntax-eof");
        }
    }

    void identifier()
    {
        size_t start = m_pos;
        SourcePos b = here();
        while (!atEnd() && isIdentChar(static_cast<unsigned char>(peek()))) {
            ++m_pos;
        }
        std::string_view id = m_src.substr(start, m_pos - start);
        bool raw = false;
        bool f = false;
        bool by = false;
        if ((peek() == '\'' || peek() == '"') && isStringPrefix(id, raw, f, by)) {
            return string(start, raw, f, by);
        }
        Token t;
        t.kind = TokKind::Name;
        t.text = std::string(id);
        t.range = {b, here()};
        push(std::move(t));
    }

    /// Reads digits (of `isOk`) with single underscores between them; false on a misplaced underscore.
    template <class Pred> bool digits(Pred isOk)
    {
        while (!atEnd()) {
            if (isOk(peek())) {
                ++m_pos;
            } else if (peek() == '_' && isOk(peek(1))) {
                ++m_pos;
            } else {
                break;
            }
        }
        return peek() != '_';
    }

    void number()
    {
        size_t start = m_pos;
        SourcePos b = here();
        if (peek() == '0' && (lower(peek(1)) == 'x' || lower(peek(1)) == 'o' || lower(peek(1)) == 'b')) {
            return radixNumber(start, b);
        }
        bool isFloat = false;
        bool ok = digits(isDigit);
        if (ok && peek() == '.') {
            isFloat = true;
            ++m_pos;
            ok = isDigit(peek()) ? digits(isDigit) : peek() != '_';
        }
        if (ok && lower(peek()) == 'e') {
            size_t k = (peek(1) == '+' || peek(1) == '-') ? 2 : 1;
            if (isDigit(peek(k))) {
                isFloat = true;
                m_pos += k;
                ok = digits(isDigit);
            } else {
                ok = false;
            }
        }
        bool imag = false;
        if (ok && lower(peek()) == 'j') {
            imag = true;
            ++m_pos;
        }
        if (!ok || isIdentChar(static_cast<unsigned char>(peek()))) {
            return fail(b, "invalid decimal literal", "syntax-number");
        }
        std::string clean;
        for (size_t i = start; i < m_pos; ++i) {
            if (m_src[i] != '_' && lower(m_src[i]) != 'j') {
                clean += m_src[i];
            }
        }
        Token t;
        t.range = {b, here()};
        t.text = std::string(m_src.substr(start, m_pos - start));
        if (imag) {
            t.kind = TokKind::Imaginary;
        } else if (isFloat) {
            t.kind = TokKind::Float;
            std::from_chars(clean.data(), clean.data() + clean.size(), t.floatValue);
        } else {
            bool leadingZero = clean.size() > 1 && clean[0] == '0';
            if (leadingZero && clean.find_first_not_of('0') != std::string::npos) {
                return fail(b,
                            "leading zeros in decimal integer literals are not permitted; use an 0o prefix for "
                            "octal integers",
                            "syntax-number");
            }
            t.kind = TokKind::Int;
            setInt(t, clean, 10);
        }
        push(std::move(t));
    }

    static void setInt(Token& t, std::string_view digitsText, int base)
    {
        uint64_t v = 0;
        for (char c : digitsText) {
            char h = lower(c);
            uint64_t d = static_cast<uint64_t>(isDigit(h) ? h - '0' : h - 'a' + 10);
            if (v > (static_cast<uint64_t>(INT64_MAX) - d) / static_cast<uint64_t>(base)) {
                t.intTooLarge = true;
                return;
            }
            v = v * static_cast<uint64_t>(base) + d;
        }
        t.intValue = static_cast<int64_t>(v);
    }

    void radixNumber(size_t start, SourcePos b)
    {
        char r = lower(peek(1));
        int base = r == 'x' ? 16 : r == 'o' ? 8 : 2;
        const char* name = r == 'x' ? "hexadecimal" : r == 'o' ? "octal" : "binary";
        m_pos += 2;
        if (peek() == '_') {
            ++m_pos;
        }
        auto ok = [base](char c) {
            return base == 16 ? isHex(c) : base == 8 ? (c >= '0' && c <= '7') : (c == '0' || c == '1');
        };
        size_t digitsStart = m_pos;
        bool good = digits(ok) && m_pos > digitsStart;
        if ((good || m_pos == digitsStart) && isDigit(peek())) {
            return fail(here(), std::string("invalid digit '") + peek() + "' in " + name + " literal", "syntax-number");
        }
        if (!good || isIdentChar(static_cast<unsigned char>(peek()))) {
            return fail(b, std::string("invalid ") + name + " literal", "syntax-number");
        }
        std::string clean;
        for (size_t i = digitsStart; i < m_pos; ++i) {
            if (m_src[i] != '_') {
                clean += m_src[i];
            }
        }
        Token t;
        t.kind = TokKind::Int;
        t.range = {b, here()};
        t.text = std::string(m_src.substr(start, m_pos - start));
        setInt(t, clean, base);
        push(std::move(t));
    }

    void string(size_t start, bool raw, bool f, bool bytes)
    {
        SourcePos b{m_line, static_cast<int>(start - m_lineStart) + 1};
        char q = peek();
        bool triple = peek(1) == q && peek(2) == q;
        m_pos += triple ? 3 : 1;
        size_t bodyStart = m_pos;
        size_t bodyEnd = 0;
        int fieldDepth = 0; // f-strings: inside `{…}` replacement fields, quotes open nested strings (PEP 701)
        for (;;) {
            if (atEnd()) {
                int lastLine = m_line;
                if (!m_src.empty() && (m_src.back() == '\n' || m_src.back() == '\r') && lastLine > 1) {
                    --lastLine;
                }
                std::string what = triple ? "unterminated triple-quoted string literal" : "unterminated string literal";
                return fail(b, what + " (detected at line " + std::to_string(lastLine) + ")", "syntax-string");
            }
            char c = peek();
            if (c == '\\' && !atEnd(1)) {
                ++m_pos;
                if (peek() == '\n' || peek() == '\r') {
                    consumeLineBreak();
                } else {
                    ++m_pos;
                }
                continue;
            }
            if (c == '\n' || c == '\r') {
                if (!triple) {
                    return fail(b, "unterminated string literal (detected at line " + std::to_string(m_line) + ")",
                                "syntax-string");
                }
                consumeLineBreak();
                continue;
            }
            if (f && fieldDepth > 0 && (c == '\'' || c == '"')) {
                skipNestedString();
                continue;
            }
            if (f && (c == '{' || c == '}')) {
                if (fieldDepth == 0 && peek(1) == c) {
                    m_pos += 2;
                    continue;
                }
                fieldDepth += c == '{' ? 1 : (fieldDepth > 0 ? -1 : 0);
            }
            if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
                bodyEnd = m_pos;
                m_pos += triple ? 3 : 1;
                break;
            }
            ++m_pos;
        }
        Token t;
        t.kind = TokKind::String;
        t.range = {b, here()};
        std::string_view body = m_src.substr(bodyStart, bodyEnd - bodyStart);
        t.strValue = raw ? std::string(body) : decodeEscapes(body);
        t.fString = f;
        t.bytes = bytes;
        t.text = std::string(m_src.substr(start, m_pos - start));
        push(std::move(t));
    }

    /// Skips a string literal nested in an f-string's replacement field; an unterminated one is left for the
    /// enclosing literal to report.
    void skipNestedString()
    {
        char q = peek();
        bool triple = peek(1) == q && peek(2) == q;
        m_pos += triple ? 3 : 1;
        while (!atEnd()) {
            char c = peek();
            if (c == '\\' && !atEnd(1)) {
                m_pos += 2;
            } else if (c == '\n' || c == '\r') {
                if (!triple) {
                    return;
                }
                consumeLineBreak();
            } else if (c == q && (!triple || (peek(1) == q && peek(2) == q))) {
                m_pos += triple ? 3 : 1;
                return;
            } else {
                ++m_pos;
            }
        }
    }

    void op()
    {
        static constexpr std::array<std::string_view, 5> k3{"**=", "//=", ">>=", "<<=", "..."};
        static constexpr std::array<std::string_view, 19> k2{"**", "//", ">>", "<<", "<=", ">=", "==", "!=", "->", "+=",
                                                             "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=", ":="};
        static constexpr std::string_view k1 = "+-*/%@&|^~<>()[]{},:.;=";
        SourcePos b = here();
        std::string_view rest = m_src.substr(m_pos);
        size_t len = 0;
        for (std::string_view s : k3) {
            if (rest.substr(0, 3) == s) {
                len = 3;
            }
        }
        for (std::string_view s : k2) {
            if (len == 0 && rest.substr(0, 2) == s) {
                len = 2;
            }
        }
        if (len == 0 && k1.find(rest[0]) != std::string_view::npos) {
            len = 1;
        }
        if (len == 0) {
            return badCharacter(b);
        }
        if (len == 1 && !bracket(rest[0], b)) {
            return;
        }
        m_pos += len;
        Token t;
        t.kind = TokKind::Op;
        t.text = std::string(rest.substr(0, len));
        t.range = {b, here()};
        push(std::move(t));
    }

    void badCharacter(SourcePos b)
    {
        unsigned char c = static_cast<unsigned char>(peek());
        if (c == 0) {
            return fail(b, "source code cannot contain null bytes", "syntax-character");
        }
        if (c < 0x20 || c == 0x7F) {
            char buf[64];
            std::snprintf(buf, sizeof buf, "invalid non-printable character U+%04X", c);
            return fail(b, buf, "syntax-character");
        }
        fail(b, "invalid syntax", "syntax-invalid");
    }

    /// Tracks brackets; false (and an error) on a mismatch.
    bool bracket(char c, SourcePos at)
    {
        if (c == '(' || c == '[' || c == '{') {
            if (m_brackets.size() >= kMaxBrackets) {
                fail(at, "too many nested parentheses", "syntax-nesting");
                return false;
            }
            m_brackets.push_back({c, at});
            return true;
        }
        if (c != ')' && c != ']' && c != '}') {
            return true;
        }
        if (m_brackets.empty()) {
            fail(at, std::string("unmatched '") + c + "'", "syntax-unmatched");
            return false;
        }
        Bracket open = m_brackets.back();
        char want = open.c == '(' ? ')' : open.c == '[' ? ']' : '}';
        if (c != want) {
            std::string msg =
                std::string("closing parenthesis '") + c + "' does not match opening parenthesis '" + open.c + "'";
            if (open.pos.line != at.line) {
                msg += " on line " + std::to_string(open.pos.line);
            }
            fail(at, msg, "syntax-mismatched");
            return false;
        }
        m_brackets.pop_back();
        return true;
    }

    void finish()
    {
        if (!m_brackets.empty()) {
            const Bracket& open = m_brackets.back();
            return fail(open.pos, std::string("'") + open.c + "' was never closed", "syntax-unclosed",
                        LexErrorKind::Unclosed, open.pos.line);
        }
        SourcePos at = here();
        if (m_lineHasTokens) {
            pushSimple(TokKind::Newline, at, at);
        }
        SourcePos endPos{m_line + (at.column > 1 ? 1 : 0), 1};
        while (m_indents.size() > 1) {
            m_indents.pop_back();
            pushSimple(TokKind::Dedent, endPos, endPos);
        }
        pushSimple(TokKind::EndMarker, endPos, endPos);
    }
};

} // namespace

bool isKeyword(std::string_view name)
{
    static constexpr std::array<std::string_view, 35> kKeywords{
        "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
        "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
        "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
        "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
    for (std::string_view k : kKeywords) {
        if (k == name) {
            return true;
        }
    }
    return false;
}

LexResult tokenize(std::string_view source)
{
    return Lexer(source).run();
}

} // namespace tkm::triton::syntax
