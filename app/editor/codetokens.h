#pragma once
// A small tokenizer for highlighting code outside QScintilla (lesson pages): Python (Triton) and CUDA C++.

#include <QList>
#include <QString>

namespace tkm::app {

/// What a span of code is.
enum class TokenKind { Plain, Keyword, Builtin, Type, String, Comment, Number, Preprocessor };

/// A span of one line [0-based columns in UTF-16 code units].
struct Token {
  int start = 0;                     ///< first column
  int length = 0;                    ///< columns
  TokenKind kind = TokenKind::Plain; ///< class of the span
};

/// Language of a fenced block or listing ("python", "py", "triton" → Python; "cuda", "cpp", "c++", "cu", "c" → C++).
enum class CodeLanguage { Plain, Python, Cpp };

/// Maps a fence or listing language name.
CodeLanguage codeLanguage(const QString &name);

/// Tokens of one line; `inBlockComment` carries a C /* … */ or a Python triple-quoted string across lines.
QList<Token> tokenizeLine(const QString &line, CodeLanguage language, bool &inBlockComment);

} // namespace tkm::app
