#include "engine/compile/detail/signature.h"

#include <regex>

namespace tkm::compile::detail {
namespace {

using engine::DType;

// Accepted spellings of a type: int64_t is `long` on Linux, so i64 accepts long as well as long long.
std::vector<std::string> spellings(DType t)
{
    if (t == DType::I64) {
        return {"long long", "long"};
    }
    return {std::string(engine::dtypeCudaType(t))};
}

std::string paramNames(const std::vector<ExpectedParam>& params)
{
    std::string s;
    for (const auto& p : params) {
        s += (s.empty() ? "" : ", ") + p.name;
    }
    return s;
}

// NVRTC spells types "const float *": make them read like source ("const float*").
std::string tidyType(std::string t)
{
    t = std::regex_replace(t, std::regex(R"( \*)"), "*");
    t = std::regex_replace(t, std::regex(R"(\b__nv_bool\b)"), "bool");
    return t;
}

// Blanks out comments and string literals (keeping newlines) so a search for the kernel's name is not fooled.
std::string stripComments(const std::string& s)
{
    std::string out = s;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out.compare(i, 2, "//") == 0) {
            while (i < out.size() && out[i] != '\n') {
                out[i++] = ' ';
            }
        } else if (out.compare(i, 2, "/*") == 0) {
            const auto end = out.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? out.size() : end + 2;
            for (; i < stop; ++i) {
                if (out[i] != '\n') {
                    out[i] = ' ';
                }
            }
            --i;
        } else if (out[i] == '"') {
            for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i) {
                if (out[i] == '\\' && i + 1 < out.size()) {
                    out[i++] = ' ';
                }
                out[i] = ' ';
            }
        }
    }
    return out;
}

std::string ordinal(int i)
{
    return std::to_string(i + 1);
}

} // namespace

std::string expectedTypeText(const ExpectedParam& p)
{
    const std::string base(engine::dtypeCudaType(p.dtype));
    if (!p.pointer) {
        return base;
    }
    return p.input ? "const " + base + "*" : base + "*";
}

std::string signaturePostlude(const std::string& kernel, const std::vector<ExpectedParam>& params)
{
    const std::string n = std::to_string(params.size());
    std::string s;
    s += "\n#line 1 \"";
    s += kSignatureFile;
    s += "\"\nnamespace tkm_sig {\n"
         "template <class A, class B> struct Same { static constexpr bool value = false; };\n"
         "template <class A> struct Same<A, A> { static constexpr bool value = true; };\n"
         "template <int I, class... A> struct At { using type = void; };\n"
         "template <class H, class... T> struct At<0, H, T...> { using type = H; };\n"
         "template <int I, class H, class... T> struct At<I, H, T...> { using type = typename At<I - 1, T...>::type; "
         "};\n"
         "template <class F> struct Fn { static constexpr int arity = -1; template <int I> using arg = void; };\n"
         "template <class R, class... A> struct Fn<R(A...)> { static constexpr int arity = sizeof...(A);\n"
         "  template <int I> using arg = typename At<I, A...>::type; };\n"
         "template <class P, class E> struct Ptr {\n"
         "  static constexpr bool value = Same<P, E*>::value || Same<P, const E*>::value; };\n"
         "template <int N, bool Ok> struct ArityCheck { static constexpr int value = 1; };\n"
         "template <int N> struct ArityCheck<N, false>;\n"
         "template <int I, class T, bool Ok> struct ParamCheck { static constexpr int value = 1; };\n"
         "template <int I, class T> struct ParamCheck<I, T, false>;\n"
         "using K = Fn<decltype(" +
         kernel + ")>;\n" + "constexpr int kArity = ArityCheck<K::arity, K::arity == " + n + ">::value;\n";
    for (std::size_t i = 0; i < params.size(); ++i) {
        const std::string idx = std::to_string(i);
        std::string ok;
        for (const auto& spelling : spellings(params[i].dtype)) {
            if (!ok.empty()) {
                ok += " || ";
            }
            ok += params[i].pointer ? "Ptr<K::arg<" + idx + ">, " + spelling + ">::value"
                                    : "Same<K::arg<" + idx + ">, " + spelling + ">::value";
        }
        s += "constexpr int kParam" + idx + " = ParamCheck<" + idx + ", K::arg<" + idx + ">, " + ok +
             " || K::arity != " + n + ">::value;\n";
    }
    s += "}\n";
    return s;
}

// Line and column (1-based) of the first match of `pattern` outside comments, {0, 0} when none.
static std::pair<int, int> findPattern(const std::string& source, const std::string& pattern)
{
    const std::string code = stripComments(source);
    const std::regex re(pattern);
    std::smatch m;
    if (!std::regex_search(code, m, re)) {
        return {0, 0};
    }
    const auto pos = static_cast<std::size_t>(m.position(0));
    int line = 1;
    std::size_t lineStart = 0;
    for (std::size_t i = 0; i < pos; ++i) {
        if (code[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return {line, static_cast<int>(pos - lineStart) + 1};
}

std::pair<int, int> findDeclaration(const std::string& source, const std::string& kernel)
{
    return findPattern(source, "\\b" + kernel + "\\s*\\(");
}

std::vector<Diagnostic> mapSignatureDiagnostics(const std::vector<Diagnostic>& diagnostics, const CompileRequest& req)
{
    static const std::regex arity(R"(ArityCheck<(-?\d+), false>)");
    static const std::regex param(R"(ParamCheck<(\d+), (.+), false>)");
    std::vector<Diagnostic> out;
    bool learnerErrors = false;
    for (const auto& d : diagnostics) {
        if (d.severity == "error" && d.file != kSignatureFile && d.file != "__nv_name_map") {
            learnerErrors = true;
        }
    }
    const auto [declLine, declColumn] = findDeclaration(req.source, req.kernel);
    auto atDeclaration = [&](std::string message) {
        Diagnostic d;
        d.file = req.sourceName;
        d.line = declLine;
        d.column = declColumn;
        d.severity = "error";
        d.message = std::move(message);
        return d;
    };
    const std::string missing = "no kernel named " + req.kernel + ": declare extern \"C\" __global__ void " +
                                req.kernel + "(" + paramNames(req.signature) + ")";
    bool missingReported = false;
    bool arityReported = false;
    for (const auto& d : diagnostics) {
        const bool fromCheck = d.file == kSignatureFile;
        const bool fromNameMap = d.file == "__nv_name_map";
        if (!fromCheck && !fromNameMap) {
            out.push_back(d);
            continue;
        }
        if (learnerErrors) {
            continue; // consequences of the learner's own errors (e.g. the kernel did not parse)
        }
        std::smatch m;
        if (fromNameMap || d.message.find("identifier \"" + req.kernel + "\" is undefined") != std::string::npos ||
            (fromCheck && std::regex_search(d.message, m, arity) && m[1] == "-1" && declLine == 0)) {
            if (!missingReported) {
                Diagnostic miss = atDeclaration(missing);
                const auto [gLine, gColumn] = findPattern(req.source, "\\b__global__\\b");
                miss.line = gLine > 0 ? gLine : 1; // the first kernel the learner did write, if any
                miss.column = gColumn;
                out.push_back(miss);
                missingReported = true;
            }
            continue;
        }
        if (missingReported) {
            continue;
        }
        if (std::regex_search(d.message, m, arity)) {
            const int got = std::stoi(m[1]);
            if (got < 0) {
                out.push_back(atDeclaration("`" + req.kernel +
                                            "` must be one __global__ function (not overloaded, "
                                            "not a template)"));
            } else {
                out.push_back(atDeclaration(req.kernel + " takes " + std::to_string(got) + " parameter" +
                                            (got == 1 ? "" : "s") + ", the exercise passes " +
                                            std::to_string(req.signature.size()) + ": " + paramNames(req.signature)));
            }
            arityReported = true;
            continue;
        }
        // Prefer the resolved type in NVRTC's (aka "…") when present.
        std::string text = d.message;
        if (const auto aka = text.find("(aka \""); aka != std::string::npos) {
            text = text.substr(aka);
        }
        if (std::regex_search(text, m, param)) {
            if (arityReported) {
                continue;
            }
            const int i = std::stoi(m[1]);
            const ExpectedParam& p = req.signature.at(static_cast<std::size_t>(i));
            const std::string what = p.pointer ? "a buffer of " + std::string(engine::dtypeName(p.dtype))
                                               : "a scalar of " + std::string(engine::dtypeName(p.dtype));
            out.push_back(atDeclaration("parameter " + ordinal(i) + " `" + p.name + "` must be `" +
                                        expectedTypeText(p) + "` (" + what + "), not `" + tidyType(m[2]) + "`"));
            continue;
        }
        out.push_back(atDeclaration("the signature of `" + req.kernel + "` could not be checked: " + d.message));
    }
    return out;
}

} // namespace tkm::compile::detail
