#pragma once
// Spec expressions ("cdiv(n, BLOCK_SIZE)", "32 * NUM_WARPS", "x_stride0") evaluated with muparser on doubles.
// Besides muparser's built-ins (sqrt, abs, floor, ceil, min, max, …): cdiv(a, b) = ⌈a / b⌉ and
// pow2ceil(a) = the smallest power of two ≥ a.

#include "engine/common/error.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace tkm::problem {

/// Variable values by name (sizes, meta-parameters, <buf>_stride<d>, <buf>_numel).
using Variables = std::map<std::string, double>;

/// Evaluates `expr`. Error kind Expression, message "<field>: <muparser's reason> in \"<expr>\"";
/// `field` names what is being evaluated (a JSON pointer such as /launch/grid/0). NaN/inf results are errors.
engine::Expected<double> evaluate(std::string_view expr, const Variables& vars, std::string_view field);

/// Evaluates `expr` and requires a non-negative integer (|x − round(x)| ≤ 1e-9·max(1,|x|), ≤ 2^62).
/// Error: "<field>: \"<expr>\" = 12.5 is not a non-negative integer".
engine::Expected<int64_t> evaluateCount(std::string_view expr, const Variables& vars, std::string_view field);

} // namespace tkm::problem
