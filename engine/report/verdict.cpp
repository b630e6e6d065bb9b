#include "engine/report/verdict.h"

#include <nlohmann/json.hpp>

#include <array>
#include <ostream>
#include <string>
#include <utility>

namespace tkm::report {

namespace {

// One table per enum, in declaration order (the enum value indexes it).
constexpr std::array<std::string_view, 7> kVerdictNames = {"pass",          "fail",     "fault", "timeout",
                                                           "compile_error", "compiled", "error"};
constexpr std::array<std::string_view, 4> kCaseVerdictNames = {"pass", "fail", "fault", "skipped"};
constexpr std::array<std::string_view, 8> kConfigVerdictNames = {
    "pass", "fail", "fault", "timeout", "compile_error", "compiled", "error", "skipped"};

template <typename E, size_t N>
std::optional<E> lookUp(const std::array<std::string_view, N>& names, std::string_view name)
{
    for (size_t k = 0; k < N; ++k) {
        if (names[k] == name) {
            return static_cast<E>(k);
        }
    }
    return std::nullopt;
}

template <typename E, size_t N>
void readName(const nlohmann::json& j, const std::array<std::string_view, N>& names, const char* what, E& v)
{
    const std::string name = j.get<std::string>();
    const std::optional<E> e = lookUp<E>(names, name);
    if (!e) {
        throw nlohmann::json::other_error::create(501, std::string("unknown ") + what + " \"" + name + "\"", &j);
    }
    v = *e;
}

} // namespace

std::string_view verdictName(Verdict v) { return kVerdictNames[static_cast<size_t>(v)]; }
std::string_view verdictName(CaseVerdict v) { return kCaseVerdictNames[static_cast<size_t>(v)]; }
std::string_view verdictName(ConfigVerdict v) { return kConfigVerdictNames[static_cast<size_t>(v)]; }

std::optional<Verdict> verdictFromName(std::string_view name) { return lookUp<Verdict>(kVerdictNames, name); }

std::optional<CaseVerdict> caseVerdictFromName(std::string_view name)
{
    return lookUp<CaseVerdict>(kCaseVerdictNames, name);
}

std::optional<ConfigVerdict> configVerdictFromName(std::string_view name)
{
    return lookUp<ConfigVerdict>(kConfigVerdictNames, name);
}

ConfigVerdict toConfigVerdict(Verdict v)
{
    // The first seven names of both tables are the same, in the same order.
    return static_cast<ConfigVerdict>(static_cast<size_t>(v));
}

std::optional<Verdict> toRunVerdict(ConfigVerdict v)
{
    if (v == ConfigVerdict::Skipped) {
        return std::nullopt;
    }
    return static_cast<Verdict>(static_cast<size_t>(v));
}

std::ostream& operator<<(std::ostream& out, Verdict v) { return out << verdictName(v); }
std::ostream& operator<<(std::ostream& out, CaseVerdict v) { return out << verdictName(v); }
std::ostream& operator<<(std::ostream& out, ConfigVerdict v) { return out << verdictName(v); }

void to_json(nlohmann::json& j, Verdict v) { j = std::string(verdictName(v)); }
void from_json(const nlohmann::json& j, Verdict& v) { readName(j, kVerdictNames, "verdict", v); }
void to_json(nlohmann::json& j, CaseVerdict v) { j = std::string(verdictName(v)); }
void from_json(const nlohmann::json& j, CaseVerdict& v) { readName(j, kCaseVerdictNames, "case verdict", v); }
void to_json(nlohmann::json& j, ConfigVerdict v) { j = std::string(verdictName(v)); }
void from_json(const nlohmann::json& j, ConfigVerdict& v)
{
    readName(j, kConfigVerdictNames, "configuration verdict", v);
}

} // namespace tkm::report
