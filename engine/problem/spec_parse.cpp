// exercise.json parser: JSON primitives, the top level, and parseSpec().

#include "engine/problem/detail/spec_parser.h"

#include "engine/common/json_safe.h"
#include "engine/common/paths.h"

#include <regex>

namespace tkm::problem::detail {

std::string typeName(const json& j)
{
    switch (j.type()) {
    case json::value_t::null:
        return "null";
    case json::value_t::object:
        return "an object";
    case json::value_t::array:
        return "an array";
    case json::value_t::string:
        return "a string";
    case json::value_t::boolean:
        return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
        return "a number";
    default:
        return "something else";
    }
}

std::string q(std::string_view s)
{
    return "\"" + std::string(s) + "\"";
}

std::string joinList(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items) {
        s += (s.empty() ? "" : ", ") + i;
    }
    return s;
}

// JSON pointer of a child (RFC 6901 escaping).
std::string child(const std::string& ptr, std::string_view key)
{
    std::string k;
    for (char c : key) {
        if (c == '~') {
            k += "~0";
        } else if (c == '/') {
            k += "~1";
        } else {
            k += c;
        }
    }
    return ptr + "/" + k;
}

std::string child(const std::string& ptr, std::size_t index)
{
    return ptr + "/" + std::to_string(index);
}

bool isIdentifier(std::string_view s)
{
    static const std::regex re("[A-Za-z_][A-Za-z0-9_]*");
    return std::regex_match(s.begin(), s.end(), re);
}

void SpecParser::fail(const std::string& ptr, const std::string& what) const
{
    throw SpecFailure{m_opt.fileLabel + ": " + (ptr.empty() ? std::string("/") : ptr) + ": " + what};
}

void SpecParser::requireObject(const json& j, const std::string& ptr) const
{
    if (!j.is_object()) {
        fail(ptr, "must be an object, not " + typeName(j));
    }
}

void SpecParser::checkKeys(const json& j, const std::string& ptr, std::initializer_list<std::string_view> allowed) const
{
    requireObject(j, ptr);
    for (const auto& [key, value] : j.items()) {
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            std::vector<std::string> names(allowed.begin(), allowed.end());
            fail(child(ptr, key), "unknown field (allowed here: " + joinList(names) + ")");
        }
    }
}

const json& SpecParser::required(const json& obj, const std::string& ptr, std::string_view key) const
{
    const auto it = obj.find(std::string(key));
    if (it == obj.end()) {
        fail(ptr, "missing required field " + q(key));
    }
    return *it;
}

const json* SpecParser::optional(const json& obj, std::string_view key) const
{
    const auto it = obj.find(std::string(key));
    return it == obj.end() ? nullptr : &*it;
}

std::string SpecParser::string(const json& j, const std::string& ptr, bool allowEmpty) const
{
    if (!j.is_string()) {
        fail(ptr, "must be a string, not " + typeName(j));
    }
    auto s = j.get<std::string>();
    if (!allowEmpty && s.find_first_not_of(" \t\n") == std::string::npos) {
        fail(ptr, "must not be empty");
    }
    return s;
}

double SpecParser::number(const json& j, const std::string& ptr) const
{
    if (!j.is_number()) {
        fail(ptr, "must be a number, not " + typeName(j));
    }
    return j.get<double>();
}

int64_t SpecParser::integer(const json& j, const std::string& ptr) const
{
    if (!j.is_number_integer()) {
        fail(ptr, "must be an integer, not " + (j.is_number() ? j.dump() : typeName(j)));
    }
    if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
        fail(ptr, j.dump() + " is too large");
    }
    return j.get<int64_t>();
}

std::string SpecParser::identifier(const json& j, const std::string& ptr) const
{
    auto s = string(j, ptr);
    if (!isIdentifier(s)) {
        fail(ptr, q(s) + " is not a C identifier (letters, digits and _, not starting with a digit)");
    }
    return s;
}

std::string SpecParser::expr(const json& j, const std::string& ptr) const
{
    if (j.is_number_integer()) {
        return std::to_string(j.get<int64_t>());
    }
    if (j.is_number()) {
        return j.dump();
    }
    if (!j.is_string()) {
        fail(ptr, "must be an expression (a string such as \"cdiv(n, BLOCK_SIZE)\"), not " + typeName(j));
    }
    return string(j, ptr);
}

std::vector<std::string> SpecParser::exprList(const json& j, const std::string& ptr, std::size_t lo,
                                              std::size_t hi) const
{
    if (!j.is_array()) {
        fail(ptr, "must be an array of " + std::to_string(lo) + "–" + std::to_string(hi) + " expressions, not " +
                      typeName(j));
    }
    if (j.size() < lo || j.size() > hi) {
        fail(ptr, "has " + std::to_string(j.size()) + " entries; it needs " + std::to_string(lo) + " to " +
                      std::to_string(hi));
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        out.push_back(expr(j[i], child(ptr, i)));
    }
    return out;
}

std::string SpecParser::file(const json& j, const std::string& ptr) const
{
    auto s = string(j, ptr);
    if (!engine::isSafeRelativePath(s)) {
        fail(ptr, q(s) + " must be a path relative to the exercise folder, without \"..\"");
    }
    std::error_code ec;
    if (m_opt.checkFiles && !std::filesystem::is_regular_file(m_dir / s, ec)) {
        fail(ptr, "file " + q(s) + " does not exist in " + m_dir.string());
    }
    return s;
}

std::vector<std::string> SpecParser::stringList(const json& j, const std::string& ptr) const
{
    if (!j.is_array()) {
        fail(ptr, "must be an array of strings");
    }
    std::vector<std::string> out;
    for (std::size_t i = 0; i < j.size(); ++i) {
        out.push_back(string(j[i], child(ptr, i)));
    }
    return out;
}

DType SpecParser::dtype(const json& j, const std::string& ptr) const
{
    const auto s = string(j, ptr);
    const auto t = engine::parseDType(s);
    if (!t) {
        fail(ptr, q(s) + " is not one of f16, bf16, f32, f64, i32, i64");
    }
    return *t;
}

std::string SpecParser::oneOfText(const json& j, const std::string& ptr,
                                  std::initializer_list<std::string_view> options) const
{
    const auto s = string(j, ptr);
    std::vector<std::string> names(options.begin(), options.end());
    if (std::find(names.begin(), names.end(), s) == names.end()) {
        fail(ptr, q(s) + " is not one of " + joinList(names));
    }
    return s;
}
ExerciseSpec SpecParser::parse(const json& root)
{
    checkKeys(root, "", {"format",    "id",          "title",  "kernel", "prompt",    "starter",       "solution",
                         "reference", "hints",       "params", "meta",   "launch",    "cases",         "performance",
                         "tolerance", "ideal_bytes", "flops",  "bugs",   "baselines", "reset_to_zero", "autotune",
                         "triton",    "first_step"});
    ExerciseSpec spec;
    spec.dir = m_dir;
    spec.format = static_cast<int>(integer(required(root, "", "format"), "/format"));
    if (spec.format != 1) {
        fail("/format", std::to_string(spec.format) + " is not a supported format version (this engine reads 1)");
    }
    spec.id = string(required(root, "", "id"), "/id");
    static const std::regex idRe("[a-z0-9-]+");
    if (!std::regex_match(spec.id, idRe)) {
        fail("/id", q(spec.id) + " may contain only a–z, 0–9 and -");
    }
    spec.title = string(required(root, "", "title"), "/title");
    spec.kernel = identifier(required(root, "", "kernel"), "/kernel");
    spec.prompt = file(required(root, "", "prompt"), "/prompt");
    spec.starter = file(required(root, "", "starter"), "/starter");
    spec.solution = file(required(root, "", "solution"), "/solution");
    if (const json* f = optional(root, "first_step")) {
        requireObject(*f, "/first_step");
        checkKeys(*f, "/first_step", {"file", "title"});
        spec.firstStep = FirstStep{file(required(*f, "/first_step", "file"), "/first_step/file"),
                                   string(required(*f, "/first_step", "title"), "/first_step/title")};
    }
    {
        const json& r = required(root, "", "reference");
        spec.reference.launch = launch(r, "/reference", true);
        spec.reference.file = file(required(r, "/reference", "file"), "/reference/file");
        spec.reference.kernel = identifier(required(r, "/reference", "kernel"), "/reference/kernel");
    }
    if (const json* h = optional(root, "hints")) {
        spec.hints = stringList(*h, "/hints");
    }
    const json& params = required(root, "", "params");
    if (!params.is_array() || params.empty()) {
        fail("/params", "must be a non-empty array of parameters");
    }
    for (std::size_t i = 0; i < params.size(); ++i) {
        spec.params.push_back(param(params[i], child("/params", i)));
    }
    if (const json* m = optional(root, "meta")) {
        if (!m->is_array()) {
            fail("/meta", "must be an array of meta-parameters");
        }
        for (std::size_t i = 0; i < m->size(); ++i) {
            spec.meta.push_back(meta((*m)[i], child("/meta", i)));
        }
    }
    spec.launch = launch(required(root, "", "launch"), "/launch", false);
    const json& cases = required(root, "", "cases");
    if (!cases.is_array() || cases.empty()) {
        fail("/cases", "must be a non-empty array of cases");
    }
    for (std::size_t i = 0; i < cases.size(); ++i) {
        spec.cases.push_back(caseSpec(cases[i], child("/cases", i), spec));
    }
    spec.performance = caseSpec(required(root, "", "performance"), "/performance", spec);
    spec.tolerance = tolerance(required(root, "", "tolerance"), "/tolerance");
    spec.idealBytes = expr(required(root, "", "ideal_bytes"), "/ideal_bytes");
    spec.flops = expr(required(root, "", "flops"), "/flops");
    if (const json* b = optional(root, "bugs")) {
        if (!b->is_array()) {
            fail("/bugs", "must be an array of bug variants");
        }
        for (std::size_t i = 0; i < b->size(); ++i) {
            spec.bugs.push_back(bug((*b)[i], child("/bugs", i), spec));
        }
    }
    if (const json* b = optional(root, "baselines")) {
        if (!b->is_array()) {
            fail("/baselines", "must be an array of baselines");
        }
        for (std::size_t i = 0; i < b->size(); ++i) {
            spec.baselines.push_back(baseline((*b)[i], child("/baselines", i), spec));
        }
    }
    if (const json* r = optional(root, "reset_to_zero")) {
        if (!r->is_array()) {
            fail("/reset_to_zero", "must be an array of output buffer names");
        }
        for (std::size_t i = 0; i < r->size(); ++i) {
            spec.resetToZero.push_back(string((*r)[i], child("/reset_to_zero", i)));
        }
    }
    if (const json* a = optional(root, "autotune")) {
        checkKeys(*a, "/autotune", {"key", "shapes", "min_configs", "declare_reset_to_zero"});
        Autotune at;
        const json& key = required(*a, "/autotune", "key");
        if (!key.is_array() || key.empty()) {
            fail("/autotune/key", "must be a non-empty array of size names");
        }
        for (std::size_t i = 0; i < key.size(); ++i) {
            at.key.push_back(string(key[i], child("/autotune/key", i)));
        }
        const json& shapes = required(*a, "/autotune", "shapes");
        if (!shapes.is_array() || shapes.empty()) {
            fail("/autotune/shapes", "must be a non-empty array of sizes objects");
        }
        for (std::size_t i = 0; i < shapes.size(); ++i) {
            const std::string p = child("/autotune/shapes", i);
            requireObject(shapes[i], p);
            std::map<std::string, int64_t> sizes;
            for (const auto& [name, value] : shapes[i].items()) {
                const int64_t v = integer(value, child(p, name));
                if (v <= 0) {
                    fail(child(p, name), std::to_string(v) + " is not a valid size: sizes must be ≥ 1");
                }
                sizes[name] = v;
            }
            at.shapes.push_back(std::move(sizes));
        }
        if (const json* mc = optional(*a, "min_configs")) {
            const int64_t v = integer(*mc, "/autotune/min_configs");
            if (v < 1 || v > 1000) {
                fail("/autotune/min_configs", "must be between 1 and 1000");
            }
            at.minConfigs = static_cast<int>(v);
        }
        if (const json* d = optional(*a, "declare_reset_to_zero")) {
            if (!d->is_boolean()) {
                fail("/autotune/declare_reset_to_zero", "must be true or false");
            }
            at.declareResetToZero = d->get<bool>();
        }
        spec.autotune = std::move(at);
    }
    if (const json* t = optional(root, "triton")) {
        spec.triton = tritonTrack(*t, "/triton", spec);
    }
    validateCrossRefs(spec);
    validateExpressions(spec);
    return spec;
}

} // namespace tkm::problem::detail

namespace tkm::problem {

using detail::json;

engine::Expected<ExerciseSpec> parseSpec(std::string_view text, const std::filesystem::path& dir,
                                         const ParseOptions& options)
{
    // parseJson turns every nlohmann failure (a syntax error, 1e400, too deep a nesting) into a value.
    engine::JsonParseResult parsed = engine::parseJson(text);
    if (!parsed.ok()) {
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 options.fileLabel + ": not valid JSON: " + engine::describe(*parsed.error));
    }
    json root = std::move(parsed.value);
    try {
        return detail::SpecParser(dir, options).parse(root);
    } catch (const detail::SpecFailure& f) {
        return engine::makeError(engine::ErrorKind::BadSpec, f.message);
    } catch (const json::exception& e) {
        return engine::makeError(engine::ErrorKind::BadSpec, options.fileLabel + ": " + e.what());
    }
}

} // namespace tkm::problem
