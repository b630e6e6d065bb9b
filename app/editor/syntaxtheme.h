#pragma once
// Colours of highlighted code for the system palette (light or dark), and QScintilla lexers that use them:
// a CUDA C++ lexer (QsciLexerCPP with CUDA's qualifiers, built-ins and types) and Python for Triton listings.

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>
#include <QStringList>

class QsciLexer;
class QObject;

namespace tkm::app {

/// Token colours of highlighted code.
struct SyntaxColors {
  QColor background;   ///< editor paper
  QColor text;         ///< plain identifiers and operators
  QColor keyword;      ///< language keywords
  QColor builtin;      ///< CUDA built-ins (threadIdx, __syncthreads) and Triton's tl.*
  QColor type;         ///< types and CUDA qualifiers
  QColor string;       ///< string and character literals
  QColor comment;      ///< comments
  QColor number;       ///< numeric literals
  QColor preprocessor; ///< #include, #define; Python decorators
  QColor margin;       ///< line-number margin background
  QColor marginText;   ///< line numbers
  QColor caretLine;    ///< current-line background
};

/// Colours for `palette` (a dark set when the window text is lighter than the window).
SyntaxColors syntaxColors(const QPalette &palette);

/// Fixed-width font for code.
QFont codeFont();

/// Keywords of the CUDA C++ lexer beyond C++: qualifiers and types ("__global__", "__half", …).
QStringList cudaTypeKeywords();
/// CUDA built-in variables and intrinsics ("threadIdx", "__syncthreads", …).
QStringList cudaBuiltins();

/// A lexer for `language` ("cuda", "cpp", "c++", "python"; anything else: nullptr = plain text) coloured for
/// `palette`, owned by `parent`.
QsciLexer *makeLexer(const QString &language, const QPalette &palette, QObject *parent);

} // namespace tkm::app
