#pragma once
// The exercise.json parser's internals (engine/problem only): a SpecParser walks the JSON, throws SpecFailure with
// "<file>: <json pointer>: <what is wrong>" at the first problem, and parseSpec() turns that into an engine::Error.
// Split over spec_parse.cpp (primitives, top level), spec_sections.cpp (params, cases, bugs, …) and
// spec_validate.cpp (cross-references, expressions evaluated per case).

#include "engine/problem/spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::problem::detail {

using json = nlohmann::json;
using engine::DType;

/// Thrown inside the parser; carries the complete message.
struct SpecFailure
{
    std::string message; ///< "<file>: <pointer>: <what is wrong>"
};

/// "a string", "an object", … for messages.
std::string typeName(const json& j);
/// The text in double quotes.
std::string q(std::string_view s);
/// "a, b, c".
std::string joinList(const std::vector<std::string>& items);
/// JSON pointer of a member (RFC 6901 escaping).
std::string child(const std::string& ptr, std::string_view key);
/// JSON pointer of an array element.
std::string child(const std::string& ptr, std::size_t index);
/// A C identifier: [A-Za-z_][A-Za-z0-9_]*.
bool isIdentifier(std::string_view s);

/// Walks one exercise.json.
class SpecParser
{
public:
    /// `dir`: the exercise folder that referenced files must exist in.
    SpecParser(const std::filesystem::path& dir, const ParseOptions& options) : m_dir(dir), m_opt(options) {}

    /// Parses and validates the whole document; throws SpecFailure.
    ExerciseSpec parse(const json& root);

private:
    // JSON primitives (spec_parse.cpp): each checks the type and fails with the pointer.
    [[noreturn]] void fail(const std::string& ptr, const std::string& what) const;
    void requireObject(const json& j, const std::string& ptr) const;
    void checkKeys(const json& j, const std::string& ptr, std::initializer_list<std::string_view> allowed) const;
    const json& required(const json& obj, const std::string& ptr, std::string_view key) const;
    const json* optional(const json& obj, std::string_view key) const;
    std::string string(const json& j, const std::string& ptr, bool allowEmpty = false) const;
    double number(const json& j, const std::string& ptr) const;
    int64_t integer(const json& j, const std::string& ptr) const;
    std::string identifier(const json& j, const std::string& ptr) const;
    std::string expr(const json& j, const std::string& ptr) const;
    std::vector<std::string> exprList(const json& j, const std::string& ptr, std::size_t lo, std::size_t hi) const;
    std::string file(const json& j, const std::string& ptr) const;
    std::vector<std::string> stringList(const json& j, const std::string& ptr) const;
    DType dtype(const json& j, const std::string& ptr) const;
    template <class E>
    E oneOf(const json& j, const std::string& ptr, std::initializer_list<std::pair<std::string_view, E>> options) const
    {
        const auto s = string(j, ptr);
        std::vector<std::string> names;
        for (const auto& [name, value] : options) {
            if (name == s) {
                return value;
            }
            names.emplace_back(name);
        }
        fail(ptr, q(s) + " is not one of " + joinList(names));
    }
    std::string oneOfText(const json& j, const std::string& ptr, std::initializer_list<std::string_view> options) const;
    // Sections (spec_sections.cpp) and validation (spec_validate.cpp).
    LaunchSpec launch(const json& j, const std::string& ptr, bool withKernelFields) const;
    Generator generator(const json& j, const std::string& ptr, DType t) const;
    Param param(const json& j, const std::string& ptr) const;
    Meta meta(const json& j, const std::string& ptr) const;
    Case caseSpec(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    Bug bug(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    // The Triton track (spec_triton.cpp).
    TritonTrack tritonTrack(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    std::map<std::string, TritonMeta> tritonMeta(const json& j, const std::string& ptr) const;
    std::vector<std::string> paramList(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    std::string pyFile(const json& j, const std::string& ptr) const;
    Baseline baseline(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    std::map<DType, Tolerance> tolerance(const json& j, const std::string& ptr) const;
    void validateCrossRefs(ExerciseSpec& spec) const;
    void validateExpressions(const ExerciseSpec& spec) const;

    std::filesystem::path m_dir;
    ParseOptions m_opt;
};

} // namespace tkm::problem::detail
