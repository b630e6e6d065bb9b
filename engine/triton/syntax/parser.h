#pragma once
// Lexer and recursive-descent parser for the Python subset of Triton kernels (TRITON.md): INDENT/DEDENT from
// leading whitespace, implicit line joins inside (), [] and {}, backslash continuations, comments, string
// literals (single, double, triple-quoted; f-strings refused), int/float literals (hex, underscores, exponents).
// Top-level host code that is not a function, import or simple assignment is skipped (Module::skipped), as are
// the bodies of top-level functions that are not @triton.jit when they use syntax outside the subset. Syntax
// errors read like CPython's ("'(' was never closed", "expected ':'", "unindent does not match any outer
// indentation level", "invalid syntax. Perhaps you forgot a comma?"), one per root cause, at 1-based positions.

#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/syntax/ast.h"

#include <string>
#include <string_view>
#include <vector>

namespace tkm::triton {

/// A parsed file and its syntax diagnostics (errors stop at the first root cause).
struct ParseResult
{
    ast::Module module;                  ///< what was parsed (partial when there are errors)
    std::vector<Diagnostic> diagnostics; ///< syntax errors (code "syntax-…")
};

/// Parses a kernel file. Never throws on bad input.
ParseResult parse(std::string_view source);

/// The refusal for a StmtKind::Other statement of a @triton.jit body, by its `keyword`: "'with' statements are
/// not supported in a @triton.jit kernel", "list comprehensions are not supported in a @triton.jit kernel", …
std::string otherStatementMessage(const ast::Stmt& stmt);

} // namespace tkm::triton
