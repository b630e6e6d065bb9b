#include "engine/triton/check/messages.h"

#include <algorithm>

namespace tkm::triton::sema {

namespace {

struct DiagRow
{
    Severity severity;
    const char* code;
    const char* text;
};

const DiagRow kRows[] = {
#define TKM_DIAG_ROW(id, sev, code, text) {Severity::sev, code, text},
    TKM_CHECK_DIAGNOSTICS(TKM_DIAG_ROW)
#undef TKM_DIAG_ROW
};

std::string substitute(const char* text, const std::vector<std::string>& args)
{
    std::string out;
    for (const char* p = text; *p; ++p) {
        if (*p == '{' && p[1] >= '0' && p[1] <= '9' && p[2] == '}') {
            size_t i = static_cast<size_t>(p[1] - '0');
            out += i < args.size() ? args[i] : std::string();
            p += 2;
        } else {
            out += *p;
        }
    }
    return out;
}

size_t editDistance(const std::string& a, const std::string& b)
{
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) {
        prev[j] = j;
    }
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

} // namespace

Diagnostic makeDiagnostic(DiagId id, SourceRange range, const std::vector<std::string>& args)
{
    const DiagRow& row = kRows[static_cast<size_t>(id)];
    Diagnostic d;
    d.severity = row.severity;
    d.code = row.code;
    d.range = range;
    d.message = substitute(row.text, args);
    return d;
}

std::string diagText(DiagId id, const std::vector<std::string>& args)
{
    return substitute(kRows[static_cast<size_t>(id)].text, args);
}

std::string closestName(const std::string& name, const std::vector<std::string>& candidates)
{
    std::string best;
    size_t bestDist = std::max<size_t>(2, name.size() / 3) + 1;
    for (const std::string& c : candidates) {
        if (c == name || c.empty()) {
            continue;
        }
        size_t d = editDistance(name, c);
        if (d < bestDist) {
            bestDist = d;
            best = c;
        }
    }
    return best;
}

std::string didYouMean(const std::string& closest)
{
    return closest.empty() ? std::string() : ": did you mean `" + closest + "`?";
}

} // namespace tkm::triton::sema
