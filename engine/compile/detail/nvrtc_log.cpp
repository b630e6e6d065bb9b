#include "engine/compile/detail/nvrtc_log.h"

#include <regex>
#include <sstream>

namespace tkm::compile::detail {
namespace {

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in{std::string(text)};
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') {
            line.pop_back();
        }
        lines.push_back(line);
    }
    return lines;
}

// A caret line: only blanks and tabs, then one '^'.
int caretIndex(const std::string& line)
{
    const auto pos = line.find('^');
    if (pos == std::string::npos || line.find_first_not_of(" \t") != pos) {
        return -1;
    }
    return static_cast<int>(pos);
}

} // namespace

std::vector<Diagnostic> parseDiagnostics(std::string_view log)
{
    static const std::regex header(
        R"(^(.+)\((\d+)\): (catastrophic error|error|warning|remark|note)(?: #[0-9]+(?:-D)?)?: (.*)$)");
    static const std::regex plain(R"(^([^ ()]+): (error|warning): (.*)$)");
    std::vector<Diagnostic> out;
    const auto lines = splitLines(log);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (std::regex_match(lines[i], m, header)) {
            Diagnostic d;
            d.file = m[1];
            d.line = std::stoi(m[2]);
            d.severity = m[3] == "catastrophic error" ? "error" : std::string(m[3]);
            d.message = m[4];
            // NVRTC echoes the source line and a caret line, both with a two-space indent.
            if (i + 2 < lines.size()) {
                const int caret = caretIndex(lines[i + 2]);
                if (caret >= 2) {
                    d.column = caret - 2 + 1;
                    i += 2;
                }
            }
            out.push_back(std::move(d));
        } else if (std::regex_match(lines[i], m, plain)) {
            // Option errors, e.g. "nvrtc: error: invalid value for --gpu-architecture (-arch)".
            Diagnostic d;
            d.file = m[1];
            d.severity = m[2];
            d.message = m[3];
            out.push_back(std::move(d));
        }
    }
    return out;
}

Resources parseResources(std::string_view log, std::string_view lowered)
{
    static const std::regex entry(R"(Compiling entry function '([^']+)')");
    static const std::regex frame(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)");
    static const std::regex regs(R"(Used (\d+) registers)");
    static const std::regex smem(R"((\d+) bytes smem)");
    static const std::regex cmem(R"((\d+) bytes cmem\[0\])");
    Resources r;
    bool inside = false;
    for (const auto& line : splitLines(log)) {
        std::smatch m;
        if (std::regex_search(line, m, entry)) {
            inside = m[1].str() == lowered;
            continue;
        }
        if (!inside) {
            continue;
        }
        if (std::regex_search(line, m, frame)) {
            r.localBytes = std::stoll(m[1]);
            r.spillStoresBytes = std::stoll(m[2]);
            r.spillLoadsBytes = std::stoll(m[3]);
        }
        if (std::regex_search(line, m, regs)) {
            r.registers = std::stoi(m[1]);
            r.known = true;
            if (std::regex_search(line, m, smem)) {
                r.sharedBytes = std::stoll(m[1]);
            }
            if (std::regex_search(line, m, cmem)) {
                r.constantBytes = std::stoll(m[1]);
            }
        }
    }
    return r;
}

} // namespace tkm::compile::detail
