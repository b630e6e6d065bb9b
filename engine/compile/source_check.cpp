// checkSource(): what a kernel source must satisfy before NVRTC sees it (issue 14, items 11 and 13): a bounded
// size, UTF-8 text, and #include directives that name only the toolkit headers the engine provides. NVRTC reads
// any file an #include names (its text then shows in the log, the run report and exports), so the directives are
// found here with the preprocessor's own rules: line splices, comments as blanks, digraph "%:", raw strings.
#include "engine/compile/compiler.h"

#include "engine/common/json_safe.h"

#include <algorithm>
#include <array>

namespace tkm::compile {
namespace {

// Headers NVRTC ships with the toolkit that a kernel may use; docs/exercise-spec.md ("Sources").
constexpr std::array<std::string_view, 13> kAllowedHeaders = {
    "cuda_fp16.h",       "cuda_bf16.h",      "cuda_fp8.h",
    "cooperative_groups.h", "cuda_pipeline.h", "cuda_pipeline_primitives.h",
    "cuda_awbarrier.h",  "cuda_awbarrier_primitives.h", "mma.h",
    "cuda_fp16.hpp",     "cuda_bf16.hpp",
    "assert.h",          "cassert"}; // the last two: engine-provided (compile/detail/nvrtc_child.cpp)
constexpr std::array<std::string_view, 3> kAllowedFolders = {"cooperative_groups/", "cuda/", "cub/"};

bool isAllowedHeader(std::string_view name)
{
    const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
               c == '/' || c == '-';
    });
    if (!plain || name.front() == '/' || name.find("..") != std::string_view::npos ||
        name.find("//") != std::string_view::npos) {
        return false;
    }
    if (std::find(kAllowedHeaders.begin(), kAllowedHeaders.end(), name) != kAllowedHeaders.end()) {
        return true;
    }
    return std::any_of(kAllowedFolders.begin(), kAllowedFolders.end(),
                       [&](std::string_view folder) { return name.starts_with(folder) && name.size() > folder.size(); });
}

// The source with every backslash-newline removed, and for each remaining byte its line and column.
struct Spliced
{
    std::string text;
    std::vector<std::pair<int, int>> where; ///< [1-based line, 1-based column in bytes]
};

Spliced splice(std::string_view source)
{
    Spliced s;
    s.text.reserve(source.size());
    s.where.reserve(source.size());
    int line = 1;
    int column = 1;
    for (std::size_t i = 0; i < source.size(); ++i) {
        if (source[i] == '\\' && i + 1 < source.size() && (source[i + 1] == '\n' || source[i + 1] == '\r')) {
            i += (source[i + 1] == '\r' && i + 2 < source.size() && source[i + 2] == '\n') ? 2 : 1;
            ++line;
            column = 1;
            continue;
        }
        s.text += source[i];
        s.where.emplace_back(line, column);
        if (source[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return s;
}

class DirectiveScanner
{
public:
    DirectiveScanner(const Spliced& s, const std::string& name, std::vector<Diagnostic>& out)
        : m_s(s), m_t(s.text), m_name(name), m_out(out)
    {
    }

    void run()
    {
        bool lineStart = true;
        while (m_i < m_t.size()) {
            const char c = m_t[m_i];
            if (c == '\n') {
                lineStart = true;
                ++m_i;
            } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++m_i;
            } else if (skipComment()) {
                // A comment is a blank: a directive may still follow on this line.
            } else if (lineStart && (c == '#' || m_t.compare(m_i, 2, "%:") == 0)) {
                directive();
                lineStart = false;
            } else {
                lineStart = false;
                token();
            }
        }
    }

private:
    bool skipComment()
    {
        if (m_t.compare(m_i, 2, "//") == 0) {
            while (m_i < m_t.size() && m_t[m_i] != '\n') {
                ++m_i;
            }
            return true;
        }
        if (m_t.compare(m_i, 2, "/*") == 0) {
            const auto end = m_t.find("*/", m_i + 2);
            m_i = end == std::string::npos ? m_t.size() : end + 2;
            return true;
        }
        return false;
    }
    void skipBlanks()
    {
        while (m_i < m_t.size()) {
            const char c = m_t[m_i];
            if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
                ++m_i;
            } else if (!(m_t.compare(m_i, 2, "/*") == 0 && skipComment())) {
                return;
            }
        }
    }
    static bool identChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }
    // One token outside a directive: string and character literals (raw ones too) are skipped whole.
    void token()
    {
        const char c = m_t[m_i];
        if (identChar(c)) {
            const std::size_t start = m_i;
            while (m_i < m_t.size() && identChar(m_t[m_i])) {
                ++m_i;
            }
            const std::string_view word(m_t.data() + start, m_i - start);
            if (m_i < m_t.size() && m_t[m_i] == '"' && word.ends_with("R") &&
                (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
                rawString();
            }
            return;
        }
        if (c == '"' || c == '\'') {
            ++m_i;
            while (m_i < m_t.size() && m_t[m_i] != c && m_t[m_i] != '\n') {
                m_i += m_t[m_i] == '\\' ? 2 : 1;
            }
            ++m_i;
            return;
        }
        ++m_i;
    }
    void rawString()
    {
        const std::size_t open = m_t.find('(', m_i);
        if (open == std::string::npos) {
            m_i = m_t.size();
            return;
        }
        const std::string close = ")" + m_t.substr(m_i + 1, open - m_i - 1) + "\"";
        const std::size_t end = m_t.find(close, open);
        m_i = end == std::string::npos ? m_t.size() : end + close.size();
    }
    void directive()
    {
        const std::size_t hash = m_i;
        m_i += m_t[m_i] == '#' ? 1 : 2;
        skipBlanks();
        const std::size_t start = m_i;
        while (m_i < m_t.size() && identChar(m_t[m_i])) {
            ++m_i;
        }
        const std::string word = m_t.substr(start, m_i - start);
        if (word == "include" || word == "include_next" || word == "import") {
            include(hash, word);
        }
        // The rest of the directive line is not code: skip it.
        while (m_i < m_t.size() && m_t[m_i] != '\n') {
            if (!skipComment()) {
                ++m_i;
            }
        }
    }
    void include(std::size_t hash, const std::string& word)
    {
        skipBlanks();
        std::string header;
        bool angled = false;
        if (m_i < m_t.size() && m_t[m_i] == '<') {
            const std::size_t end = m_t.find_first_of(">\n", m_i + 1);
            if (end != std::string::npos && m_t[end] == '>') {
                header = m_t.substr(m_i + 1, end - m_i - 1);
                angled = true;
                m_i = end + 1;
            }
        } else if (m_i < m_t.size() && m_t[m_i] == '"') {
            const std::size_t end = m_t.find_first_of("\"\n", m_i + 1);
            header = m_t.substr(m_i + 1, (end == std::string::npos ? m_t.size() : end) - m_i - 1);
        }
        std::string why;
        if (word != "include") {
            why = "#" + word + " is not allowed in a kernel; use #include <…> with a CUDA toolkit header";
        } else if (angled && isAllowedHeader(header)) {
            return;
        } else if (angled) {
            why = "#include <" + header + "> is not allowed: a kernel may include only the CUDA toolkit headers the "
                  "engine provides (cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cooperative_groups.h, cuda_pipeline.h, "
                  "mma.h, assert.h, cassert, cuda/…, cooperative_groups/…, cub/…); remove this line";
        } else if (!header.empty()) {
            why = "#include \"" + header + "\" is not allowed: an exercise kernel is one file and may include only "
                  "CUDA toolkit headers, written #include <cuda_fp16.h>; remove this line";
        } else {
            why = "this #include does not name a header as <name>; a kernel may include only CUDA toolkit headers, "
                  "written #include <cuda_fp16.h>";
        }
        Diagnostic d;
        d.file = m_name;
        d.line = m_s.where[hash].first;
        d.column = m_s.where[hash].second;
        d.severity = "error";
        d.message = why;
        m_out.push_back(std::move(d));
    }

    const Spliced& m_s;
    const std::string& m_t;
    const std::string& m_name;
    std::vector<Diagnostic>& m_out;
    std::size_t m_i = 0;
};

} // namespace

std::vector<Diagnostic> checkSource(std::string_view source, const std::string& sourceName)
{
    std::vector<Diagnostic> out;
    auto problem = [&](int line, int column, std::string message) {
        out.push_back(Diagnostic{sourceName, line, column, "error", std::move(message)});
    };
    if (source.size() > kMaxSourceBytes) {
        problem(0, 0, "the source is " + std::to_string(source.size() / 1024) + " KiB; a kernel source may be at most " +
                          std::to_string(kMaxSourceBytes / 1024) + " KiB");
        return out;
    }
    if (const auto bad = engine::firstInvalidUtf8(source)) {
        int line = 1;
        int column = 1;
        engine::lineAndColumn(source, *bad, line, column);
        problem(line, column, "this byte is not UTF-8 text (the file may be saved as Latin-1 or UTF-16); save the "
                              "source as UTF-8");
        return out;
    }
    DirectiveScanner(splice(source), sourceName, out).run();
    return out;
}

} // namespace tkm::compile
