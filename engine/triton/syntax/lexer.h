#pragma once
// Tokenizer of the Python subset (CPython's Parser/tokenizer.c as the model): NEWLINE, INDENT and DEDENT from
// leading whitespace with an indentation stack (tabs to multiples of 8, checked against tabs-as-one as CPython
// does), implicit line joins inside (), [] and {}, backslash continuations, comments, string literals with
// escapes and prefixes, int and float literals. The whole file is tokenized up front; the first tokenizer error
// ends the token list with an Error token and is kept as a diagnostic, so the parser can report it when it gets
// there (or in place of a later-found generic syntax error, as CPython does).

#include "engine/triton/diag/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::triton::syntax {

/// Kinds of token.
enum class TokKind { Name, Int, Float, Imaginary, String, Op, Newline, Indent, Dedent, EndMarker, Error };

/// One token. `text` is the source text for names and operators.
struct Token
{
    TokKind kind = TokKind::EndMarker;
    std::string text;         ///< Name, Op: the spelling
    SourceRange range;        ///< its text (Newline: the line end; Indent/Dedent: the first character of the line)
    int64_t intValue = 0;     ///< Int
    bool intTooLarge = false; ///< Int: past int64
    double floatValue = 0;    ///< Float
    std::string strValue;     ///< String: escapes decoded
    bool fString = false;     ///< String: f-prefixed
    bool bytes = false;       ///< String: b-prefixed
};

/// What went wrong in the tokenizer.
enum class LexErrorKind {
    Fatal,    ///< an error CPython's tokenizer raises itself (bad string, number, indentation, bracket)
    Unclosed, ///< end of file inside brackets: reported as "'(' was never closed" when the parser gets there
};

/// The first tokenizer error.
struct LexError
{
    LexErrorKind kind = LexErrorKind::Fatal;
    Diagnostic diagnostic; ///< the message and its position
    int bracketLine = 0;   ///< Unclosed: the line of the innermost unclosed bracket
};

/// The tokens of a file; when `error` is set the last token is an Error token at the error's position.
struct LexResult
{
    std::vector<Token> tokens;     ///< ends with EndMarker, or with Error
    std::optional<LexError> error; ///< the first tokenizer error
};

/// Tokenizes `source`. Never throws; stops at the first error.
LexResult tokenize(std::string_view source);

/// True for Python's hard keywords (`if`, `def`, `lambda`, `None`, …).
bool isKeyword(std::string_view name);

} // namespace tkm::triton::syntax
