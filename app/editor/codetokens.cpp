#include "app/editor/codetokens.h"

#include "app/editor/syntaxtheme.h"

#include <QSet>

#include <algorithm>

namespace tkm::app {

namespace {

const QSet<QString> &pythonKeywords()
{
  static const QSet<QString> words = [] {
    QSet<QString> s;
    for (const char *w : {"def", "return", "if", "elif", "else", "for", "while", "in", "import", "from", "as",
                          "with", "class", "lambda", "and", "or", "not", "is", "None", "True", "False", "pass",
                          "break", "continue", "yield", "assert", "raise", "try", "except", "finally", "global"})
      s.insert(QLatin1String(w));
    return s;
  }();
  return words;
}

const QSet<QString> &pythonBuiltins()
{
  static const QSet<QString> words = [] {
    QSet<QString> s;
    for (const char *w : {"tl", "triton", "torch", "range", "len", "print", "int", "float", "max", "min"})
      s.insert(QLatin1String(w));
    return s;
  }();
  return words;
}

const QSet<QString> &cppKeywords()
{
  static const QSet<QString> words = [] {
    QSet<QString> s;
    for (const char *w : {"if", "else", "for", "while", "do", "return", "break", "continue", "switch", "case",
                          "default", "const", "constexpr", "static", "extern", "inline", "struct", "class",
                          "template", "typename", "using", "namespace", "auto", "sizeof", "true", "false",
                          "nullptr", "volatile", "unsigned", "signed", "void", "int", "float", "double", "char",
                          "bool", "long", "short", "static_cast", "reinterpret_cast"})
      s.insert(QLatin1String(w));
    return s;
  }();
  return words;
}

bool isIdentStart(QChar c) { return c.isLetter() || c == QLatin1Char('_'); }
bool isIdent(QChar c) { return c.isLetterOrNumber() || c == QLatin1Char('_'); }

} // namespace

CodeLanguage codeLanguage(const QString &name)
{
  const QString n = name.trimmed().toLower();
  if (n == QLatin1String("python") || n == QLatin1String("py") || n == QLatin1String("triton"))
    return CodeLanguage::Python;
  if (n == QLatin1String("cuda") || n == QLatin1String("cpp") || n == QLatin1String("c++") ||
      n == QLatin1String("cu") || n == QLatin1String("c"))
    return CodeLanguage::Cpp;
  return CodeLanguage::Plain;
}

QList<Token> tokenizeLine(const QString &line, CodeLanguage language, bool &inBlockComment)
{
  QList<Token> tokens;
  if (language == CodeLanguage::Plain)
    return tokens;
  static const QSet<QString> cudaTypes = [] {
    const QStringList l = cudaTypeKeywords();
    return QSet<QString>(l.begin(), l.end());
  }();
  static const QSet<QString> cudaBuiltinSet = [] {
    const QStringList l = cudaBuiltins();
    return QSet<QString>(l.begin(), l.end());
  }();
  const bool py = language == CodeLanguage::Python;
  const QString blockEnd = py ? QStringLiteral("\"\"\"") : QStringLiteral("*/");
  int i = 0;
  const int n = static_cast<int>(line.size());
  if (inBlockComment) {
    const int end = static_cast<int>(line.indexOf(blockEnd));
    if (end < 0) {
      tokens.append({0, n, py ? TokenKind::String : TokenKind::Comment});
      return tokens;
    }
    tokens.append({0, end + 2 + (py ? 1 : 0), py ? TokenKind::String : TokenKind::Comment});
    i = end + static_cast<int>(blockEnd.size());
    inBlockComment = false;
  }
  const QString trimmed = line.trimmed();
  if (!py && trimmed.startsWith(QLatin1Char('#'))) {
    tokens.append({0, n, TokenKind::Preprocessor});
    return tokens;
  }
  if (py && trimmed.startsWith(QLatin1Char('@'))) {
    tokens.append({static_cast<int>(line.indexOf(QLatin1Char('@'))), static_cast<int>(trimmed.size()),
                   TokenKind::Preprocessor});
    return tokens;
  }
  while (i < n) {
    const QChar c = line[i];
    if ((py && c == QLatin1Char('#')) || (!py && line.mid(i, 2) == QLatin1String("//"))) {
      tokens.append({i, n - i, TokenKind::Comment});
      break;
    }
    if (!py && line.mid(i, 2) == QLatin1String("/*")) {
      const int end = static_cast<int>(line.indexOf(QLatin1String("*/"), i + 2));
      if (end < 0) {
        tokens.append({i, n - i, TokenKind::Comment});
        inBlockComment = true;
        break;
      }
      tokens.append({i, end + 2 - i, TokenKind::Comment});
      i = end + 2;
      continue;
    }
    if (py && line.mid(i, 3) == QLatin1String("\"\"\"")) {
      const int end = static_cast<int>(line.indexOf(QLatin1String("\"\"\""), i + 3));
      if (end < 0) {
        tokens.append({i, n - i, TokenKind::String});
        inBlockComment = true;
        break;
      }
      tokens.append({i, end + 3 - i, TokenKind::String});
      i = end + 3;
      continue;
    }
    if (c == QLatin1Char('"') || c == QLatin1Char('\'')) {
      int j = i + 1;
      while (j < n && line[j] != c) {
        if (line[j] == QLatin1Char('\\'))
          ++j;
        ++j;
      }
      const int end = std::min(j + 1, n);
      tokens.append({i, end - i, TokenKind::String});
      i = end;
      continue;
    }
    if (c.isDigit() || (c == QLatin1Char('.') && i + 1 < n && line[i + 1].isDigit())) {
      int j = i + 1;
      while (j < n && (line[j].isLetterOrNumber() || line[j] == QLatin1Char('.') ||
                       ((line[j] == QLatin1Char('-') || line[j] == QLatin1Char('+')) &&
                        (line[j - 1] == QLatin1Char('e') || line[j - 1] == QLatin1Char('E')))))
        ++j;
      tokens.append({i, j - i, TokenKind::Number});
      i = j;
      continue;
    }
    if (isIdentStart(c)) {
      int j = i + 1;
      while (j < n && isIdent(line[j]))
        ++j;
      const QString word = line.mid(i, j - i);
      TokenKind kind = TokenKind::Plain;
      if (py) {
        if (pythonKeywords().contains(word))
          kind = TokenKind::Keyword;
        else if (pythonBuiltins().contains(word))
          kind = TokenKind::Builtin;
      } else {
        if (cppKeywords().contains(word))
          kind = TokenKind::Keyword;
        else if (cudaTypes.contains(word))
          kind = TokenKind::Type;
        else if (cudaBuiltinSet.contains(word))
          kind = TokenKind::Builtin;
      }
      if (kind != TokenKind::Plain)
        tokens.append({i, j - i, kind});
      i = j;
      continue;
    }
    ++i;
  }
  return tokens;
}

} // namespace tkm::app
