#pragma once
// Helpers shared by the Triton frontend tests: parse + check a kernel string in one call.

#include "engine/triton/check/checker.h"
#include "engine/triton/syntax/parser.h"

#include <string>

namespace tkm::triton::test {

/// A parsed module and the check of one entry: keeps the module alive beside the result.
struct Compiled
{
    ParseResult parsed;  ///< the tree and syntax diagnostics
    CheckResult checked; ///< the IR and checker diagnostics (empty when parsing failed)
};

/// Parses `source` and, when it parses, checks `input.entry` with `input` (its module pointer is filled in).
Compiled compile(const std::string& source, CheckInput input);

/// Every diagnostic of `c` formatted with formatDiagnostic(…, "kernel.py"), one per line.
std::string diagnosticsText(const Compiled& c);

} // namespace tkm::triton::test
