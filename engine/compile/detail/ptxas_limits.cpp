#include "engine/compile/detail/ptxas_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <sstream>

namespace tkm::compile::detail {
namespace {

int64_t typeBytes(const std::string& type)
{
    const std::string digits = type.substr(2); // ".b8", ".f32", ".u64", …
    if (digits == "8")
        return 1;
    if (digits == "16")
        return 2;
    if (digits == "32")
        return 4;
    if (digits == "64")
        return 8;
    return 0;
}

// The identifier a (possibly mangled) PTX name stands for: the last <length><identifier> of an Itanium name,
// e.g. _ZZ10vector_addE3big → big, _ZN2ns5tableE → table; an unmangled name is itself.
std::string sourceName(const std::string& ptxName)
{
    if (ptxName.rfind("_Z", 0) != 0)
        return ptxName;
    std::string last;
    size_t i = 2;
    while (i < ptxName.size()) {
        if (!std::isdigit(static_cast<unsigned char>(ptxName[i]))) {
            ++i;
            continue;
        }
        size_t len = 0;
        while (i < ptxName.size() && std::isdigit(static_cast<unsigned char>(ptxName[i])))
            len = len * 10 + static_cast<size_t>(ptxName[i++] - '0');
        if (len == 0 || i + len > ptxName.size())
            break;
        last = ptxName.substr(i, len);
        i += len;
    }
    return last.empty() ? ptxName : last;
}

std::string kib(int64_t bytes)
{
    const double k = static_cast<double>(bytes) / 1024.0;
    return bytes % 1024 == 0 ? fmt::format("{} KiB", bytes / 1024) : fmt::format("{:.1f} KiB", k);
}

bool isIdentChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// Line and column (1-based) of the first line with `qualifier` that names `name` as a whole word; else of the
// first line with `qualifier`; {0, 0} when neither is found.
std::pair<int, int> declarationOf(std::string_view source, const std::string& qualifier, const std::string& name)
{
    std::istringstream in{std::string(source)};
    std::string line;
    int lineNo = 0;
    std::pair<int, int> fallback{0, 0};
    while (std::getline(in, line)) {
        ++lineNo;
        const size_t q = line.find(qualifier);
        if (q == std::string::npos)
            continue;
        if (fallback.first == 0)
            fallback = {lineNo, static_cast<int>(q) + 1};
        for (size_t p = line.find(name); p != std::string::npos; p = line.find(name, p + 1)) {
            const bool startOk = p == 0 || !isIdentChar(line[p - 1]);
            const bool endOk = p + name.size() >= line.size() || !isIdentChar(line[p + name.size()]);
            if (startOk && endOk)
                return {lineNo, static_cast<int>(p) + 1};
        }
    }
    return fallback;
}

Diagnostic at(std::string_view source, const std::string& sourceName, const std::string& qualifier,
              const PtxVariable& largest, std::string message)
{
    Diagnostic d;
    d.file = sourceName;
    d.severity = "error";
    const auto [line, column] = declarationOf(source, qualifier, largest.source);
    d.line = line;
    d.column = column;
    d.message = std::move(message);
    return d;
}

} // namespace

std::vector<PtxVariable> staticVariables(std::string_view ptx)
{
    // ".shared .align 4 .b8 name[262144];" / ".const .align 8 .f64 c;" (the array part is optional).
    static const std::regex decl(
        R"(^\s*(?:\.visible\s+|\.weak\s+)?\.(shared|const)\s+(?:\.align\s+\d+\s+)?(\.[bfsu](?:8|16|32|64))\s+([A-Za-z_$%][\w$%]*)\s*((?:\[\d+\])*)\s*(?:=.*)?;)");
    static const std::regex dim(R"(\[(\d+)\])");
    std::vector<PtxVariable> out;
    std::istringstream in{std::string(ptx)};
    std::string line;
    while (std::getline(in, line)) {
        if (line.find(".extern") != std::string::npos)
            continue; // dynamic shared memory: sized by the launch
        std::smatch m;
        if (!std::regex_search(line, m, decl))
            continue;
        PtxVariable v;
        v.shared = m[1] == "shared";
        v.name = m[3];
        v.source = sourceName(v.name);
        int64_t count = 1;
        const std::string dims = m[4];
        for (auto it = std::sregex_iterator(dims.begin(), dims.end(), dim); it != std::sregex_iterator(); ++it)
            count *= std::stoll((*it)[1]);
        v.bytes = count * typeBytes(m[2]);
        out.push_back(std::move(v));
    }
    return out;
}

int64_t maxSharedPerBlock(int cc)
{
    switch (cc) {
    case 70:
    case 72:
        return 96 * 1024;
    case 75:
        return 64 * 1024;
    case 80:
    case 87:
        return 163 * 1024;
    case 86:
    case 89:
    case 120:
    case 121:
        return 99 * 1024;
    default:
        return cc >= 90 && cc < 120 ? 227 * 1024 : 48 * 1024;
    }
}

std::vector<Diagnostic> resourceDiagnostics(const std::vector<PtxVariable>& vars, int cc, std::string_view source,
                                            const std::string& sourceName)
{
    std::vector<Diagnostic> out;
    const std::string arch = "sm_" + std::to_string(cc);
    for (const bool shared : {true, false}) {
        int64_t total = 0;
        const PtxVariable* largest = nullptr;
        for (const PtxVariable& v : vars) {
            if (v.shared != shared)
                continue;
            total += v.bytes;
            if (largest == nullptr || v.bytes > largest->bytes)
                largest = &v;
        }
        if (largest == nullptr)
            continue;
        const std::string where =
            vars.size() > 1 && largest->bytes < total ? fmt::format(", the largest array being `{}`", largest->source)
                                                      : std::string();
        if (shared && total > maxSharedPerBlock(cc)) {
            out.push_back(at(source, sourceName, "__shared__", *largest,
                             fmt::format("the kernel asks for {} of shared memory{}; an {} block may have at most {}",
                                         kib(total), where, arch, kib(maxSharedPerBlock(cc)))));
        } else if (shared && total > kMaxStaticShared) {
            out.push_back(at(source, sourceName, "__shared__", *largest,
                             fmt::format("the kernel declares {} of static shared memory{}; a kernel may declare at "
                                         "most {} with __shared__ — an {} block can have up to {}, but the part past "
                                         "{} must be dynamic shared memory (extern __shared__), sized by the launch",
                                         kib(total), where, kib(kMaxStaticShared), arch, kib(maxSharedPerBlock(cc)),
                                         kib(kMaxStaticShared))));
        } else if (!shared && total > kMaxConstant) {
            out.push_back(at(source, sourceName, "__constant__", *largest,
                             fmt::format("the kernel declares {} of constant memory{}; a module may have at most {} "
                                         "of __constant__ data — keep large tables in global memory (a const "
                                         "pointer argument)",
                                         kib(total), where, kib(kMaxConstant))));
        }
    }
    return out;
}

} // namespace tkm::compile::detail
