#pragma once
// The decorators of a jit function read as data, never executed (TRITON.md "What the learner writes"):
// @triton.autotune(configs=[triton.Config({...}, num_warps=…, num_stages=…), …], key=[…], reset_to_zero=[…],
// restore_value=[…]). The configurations become the job's tuning configurations and reset_to_zero its declared
// outputs, as the real autotuner uses them (python/triton/runtime/autotuner.py).

#include "engine/triton/check/checker.h"
#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/syntax/ast.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tkm::triton {

/// One triton.Config: its kwargs (constexpr values) and launch options.
struct AutotuneConfig
{
    std::map<std::string, ConstexprValue> kwargs; ///< the dict of meta-parameters
    std::optional<int> numWarps;                  ///< num_warps= when given
    std::optional<int> numStages;                 ///< num_stages= when given
    SourceRange range;                            ///< the triton.Config(...) call
};

/// A @triton.autotune decorator.
struct AutotuneDecl
{
    std::vector<AutotuneConfig> configs;   ///< in order
    std::vector<std::string> key;          ///< argument names the winner is keyed on
    std::vector<std::string> resetToZero;  ///< reset_to_zero=
    std::vector<std::string> restoreValue; ///< restore_value=
    SourceRange range;                     ///< the decorator
};

/// Reads `fn`'s @triton.autotune, or nullopt when it has none. What cannot be read as data (a config built by a
/// list comprehension, a non-literal value) is an error diagnostic naming it, appended to `diagnostics`.
std::optional<AutotuneDecl> readAutotune(const ast::FunctionDef& fn, std::vector<Diagnostic>& diagnostics);

} // namespace tkm::triton
