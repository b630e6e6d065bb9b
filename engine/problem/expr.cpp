#include "engine/problem/expr.h"

#include <muParser.h>

#include <cmath>
#include <limits>

namespace tkm::problem {
namespace {

using engine::ErrorKind;
using engine::makeError;

double cdiv(double a, double b)
{
    return std::ceil(a / b);
}

double pow2ceil(double a)
{
    double p = 1;
    while (p < a && p < 0x1p62) {
        p *= 2;
    }
    return p;
}

std::string knownNames(const Variables& vars)
{
    std::string s;
    for (const auto& [name, value] : vars) {
        s += (s.empty() ? "" : ", ") + name;
    }
    return s.empty() ? "none" : s;
}

} // namespace

engine::Expected<double> evaluate(std::string_view expr, const Variables& vars, std::string_view field)
{
    const std::string text(expr);
    const std::string where(field);
    if (text.find_first_not_of(" \t") == std::string::npos) {
        return makeError(ErrorKind::Expression, where + ": the expression is empty");
    }
    // muparser keeps pointers to the variables: a local copy keeps them alive for this evaluation.
    Variables local = vars;
    try {
        mu::Parser p;
        p.DefineFun("cdiv", cdiv);
        p.DefineFun("pow2ceil", pow2ceil);
        for (auto& [name, value] : local) {
            p.DefineVar(name, &value);
        }
        p.SetExpr(text);
        const double v = p.Eval();
        if (std::isnan(v) || std::isinf(v)) {
            return makeError(ErrorKind::Expression, where + ": \"" + text + "\" evaluates to " +
                                                        (std::isnan(v) ? "NaN" : "infinity") +
                                                        " (a division by zero?)");
        }
        return v;
    } catch (const mu::Parser::exception_type& e) {
        if (e.GetCode() == mu::ecUNASSIGNABLE_TOKEN && !e.GetToken().empty()) {
            return makeError(ErrorKind::Expression, where + ": unknown name \"" + e.GetToken() + "\" in \"" + text +
                                                        "\" (known variables: " + knownNames(vars) + ")");
        }
        return makeError(ErrorKind::Expression, where + ": " + e.GetMsg() + " in \"" + text + "\"");
    }
}

engine::Expected<int64_t> evaluateCount(std::string_view expr, const Variables& vars, std::string_view field)
{
    auto v = evaluate(expr, vars, field);
    if (!v) {
        return v.error();
    }
    const double x = *v;
    const double r = std::nearbyint(x);
    const bool integral = std::fabs(x - r) <= 1e-9 * std::max(1.0, std::fabs(x));
    if (!integral || r < 0 || r > 0x1p62) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.17g", x);
        return makeError(ErrorKind::Expression, std::string(field) + ": \"" + std::string(expr) + "\" = " + buf +
                                                    " is not a non-negative integer");
    }
    return static_cast<int64_t>(r);
}

} // namespace tkm::problem
