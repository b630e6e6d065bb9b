#pragma once
// Diagnostics of the Triton frontend, in the manner of Clang's: a severity, a primary location, source ranges
// to underline, notes attached to the error ("shape came from here") and an optional fix-it. Positions are
// 1-based line and 1-based column (a column counts UTF-8 code points... in practice bytes of the line: the
// course's kernels are ASCII), as CPython and the app's editor show them.

#include <string>
#include <vector>

namespace tkm::triton {

/// A position in the kernel file: 1-based line, 1-based column (0 = unknown).
struct SourcePos
{
    int line = 0;   ///< 1-based
    int column = 0; ///< 1-based
};

/// A half-open range [begin, end) in the kernel file (end.column is one past the last character).
struct SourceRange
{
    SourcePos begin; ///< first character
    SourcePos end;   ///< one past the last character (same line for one-line tokens)
};

/// Severity of a diagnostic.
enum class Severity { Error, Warning, Note };

/// A note attached to a diagnostic: another place and what it says ("`x` got its shape [32] here").
struct DiagNote
{
    SourceRange range;   ///< where (may be empty: begin.line == 0)
    std::string message; ///< one sentence
};

/// One diagnostic.
struct Diagnostic
{
    Severity severity = Severity::Error; ///< error or warning
    std::string code;                    ///< stable id, e.g. "arange-not-pow2", "syntax-unclosed"
    SourceRange range;                   ///< the primary range (begin is the reported line:column)
    std::string message;                 ///< one or two sentences: what is wrong, and the fix
    std::vector<SourceRange> underline;  ///< further ranges to underline (operands)
    std::vector<DiagNote> notes;         ///< attached notes
    std::string fixit;                   ///< suggested replacement text for `range`, empty when none
};

/// "kernel.py:9:13: error: <message>" plus one "kernel.py:L:C: note: …" line per note.
std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName);

/// True when any diagnostic in `ds` is an error.
bool hasErrors(const std::vector<Diagnostic>& ds);

} // namespace tkm::triton
