#include "engine/triton/diag/diagnostic.h"

namespace tkm::triton {

namespace {
const char* severityName(Severity s)
{
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
    }
    return "error";
}
std::string at(const std::string& file, SourcePos p)
{
    return file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}
} // namespace

std::string formatDiagnostic(const Diagnostic& d, const std::string& fileName)
{
    std::string out = at(fileName, d.range.begin) + ": " + severityName(d.severity) + ": " + d.message;
    for (const DiagNote& n : d.notes) {
        out += "\n";
        if (n.range.begin.line > 0) {
            out += at(fileName, n.range.begin) + ": ";
        }
        out += "note: " + n.message;
    }
    return out;
}

bool hasErrors(const std::vector<Diagnostic>& ds)
{
    for (const Diagnostic& d : ds) {
        if (d.severity == Severity::Error) {
            return true;
        }
    }
    return false;
}

} // namespace tkm::triton
