#include "tests/triton/triton_test_util.h"

namespace tkm::triton::test {

Compiled compile(const std::string& source, CheckInput input)
{
    Compiled c;
    c.parsed = parse(source);
    if (hasErrors(c.parsed.diagnostics)) {
        return c;
    }
    input.module = &c.parsed.module;
    c.checked = check(input);
    return c;
}

std::string diagnosticsText(const Compiled& c)
{
    std::string out;
    for (const auto* list : {&c.parsed.diagnostics, &c.checked.diagnostics}) {
        for (const Diagnostic& d : *list) {
            out += formatDiagnostic(d, "kernel.py") + "\n";
        }
    }
    return out;
}

} // namespace tkm::triton::test
