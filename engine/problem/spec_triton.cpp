// The "triton" block of exercise.json (docs/exercise-spec.md, "Triton track").
#include "engine/problem/detail/spec_parser.h"

namespace tkm::problem::detail {

std::string SpecParser::pyFile(const json& j, const std::string& ptr) const
{
    std::string f = file(j, ptr);
    if (f.size() < 3 || f.compare(f.size() - 3, 3, ".py") != 0) {
        fail(ptr, q(f) + " is not a .py file: the Triton track's kernels are Python files");
    }
    return f;
}

std::vector<std::string> SpecParser::paramList(const json& j, const std::string& ptr, const ExerciseSpec& spec) const
{
    if (!j.is_array() || j.empty()) {
        fail(ptr, "must be a non-empty array of parameter names");
    }
    std::vector<std::string> names;
    for (std::size_t i = 0; i < j.size(); ++i) {
        names.push_back(string(j[i], child(ptr, i)));
        if (spec.findParam(names.back()) == nullptr) {
            fail(child(ptr, i), q(names.back()) + " is not a parameter of this exercise");
        }
        if (std::count(names.begin(), names.end(), names.back()) > 1) {
            fail(child(ptr, i), q(names.back()) + " is listed twice");
        }
    }
    return names;
}

std::map<std::string, TritonMeta> SpecParser::tritonMeta(const json& j, const std::string& ptr) const
{
    requireObject(j, ptr);
    std::map<std::string, TritonMeta> out;
    for (const auto& [name, value] : j.items()) {
        const std::string p = child(ptr, name);
        if (!isIdentifier(name)) {
            fail(p, q(name) + " is not a valid constexpr name");
        }
        TritonMeta m;
        if (value.is_boolean()) {
            m.kind = TritonMeta::Kind::Bool;
            m.boolValue = value.get<bool>();
        } else if (value.is_number_integer()) {
            m.kind = TritonMeta::Kind::Int;
            m.intValue = integer(value, p);
        } else if (value.is_number()) {
            m.kind = TritonMeta::Kind::Float;
            m.floatValue = number(value, p);
        } else if (value.is_string()) {
            m.kind = TritonMeta::Kind::Expr;
            m.text = expr(value, p);
        } else if (value.is_object() && value.size() == 1 && value.contains("str")) {
            m.kind = TritonMeta::Kind::Str;
            m.text = string(value.at("str"), child(p, "str"), true);
        } else {
            fail(p, "must be a number, true/false, an expression string over the sizes, or {\"str\": \"text\"}");
        }
        out[name] = std::move(m);
    }
    return out;
}

TritonTrack SpecParser::tritonTrack(const json& j, const std::string& ptr, const ExerciseSpec& spec) const
{
    requireObject(j, ptr);
    checkKeys(j, ptr, {"kernel", "params", "meta", "starter", "solution", "prompt", "hints", "reference", "bugs",
                       "tolerance"});
    TritonTrack t;
    t.kernel = spec.kernel;
    if (const json* k = optional(j, "kernel")) {
        t.kernel = identifier(*k, child(ptr, "kernel"));
    }
    if (const json* p = optional(j, "params")) {
        t.params = paramList(*p, child(ptr, "params"), spec);
    }
    if (const json* m = optional(j, "meta")) {
        t.meta = tritonMeta(*m, child(ptr, "meta"));
    }
    if (const json* tol = optional(j, "tolerance")) {
        t.tolerance = tolerance(*tol, child(ptr, "tolerance"));
        for (const auto& [dtype, unused] : spec.tolerance) {
            if (!t.tolerance.count(dtype)) {
                fail(child(ptr, "tolerance"), "no entry for " + std::string(engine::dtypeName(dtype)) +
                                                  ": the track's tolerance replaces the spec's, so it names the same "
                                                  "dtypes");
            }
        }
    }
    t.starter = pyFile(required(j, ptr, "starter"), child(ptr, "starter"));
    t.solution = pyFile(required(j, ptr, "solution"), child(ptr, "solution"));
    if (const json* p = optional(j, "prompt")) {
        t.prompt = file(*p, child(ptr, "prompt"));
    }
    if (const json* h = optional(j, "hints")) {
        t.hints = stringList(*h, child(ptr, "hints"));
    }
    {
        const std::string rp = child(ptr, "reference");
        const json& r = required(j, ptr, "reference");
        requireObject(r, rp);
        checkKeys(r, rp, {"file", "kernel", "grid", "params", "meta"});
        t.reference.file = pyFile(required(r, rp, "file"), child(rp, "file"));
        t.reference.kernel = identifier(required(r, rp, "kernel"), child(rp, "kernel"));
        t.reference.grid = exprList(required(r, rp, "grid"), child(rp, "grid"), 1, 3);
        if (const json* p = optional(r, "params")) {
            t.reference.params = paramList(*p, child(rp, "params"), spec);
        }
        if (const json* m = optional(r, "meta")) {
            t.reference.meta = tritonMeta(*m, child(rp, "meta"));
        }
    }
    if (const json* b = optional(j, "bugs")) {
        const std::string bp = child(ptr, "bugs");
        if (!b->is_array()) {
            fail(bp, "must be an array of bug variants");
        }
        for (std::size_t i = 0; i < b->size(); ++i) {
            t.bugs.push_back(bug((*b)[i], child(bp, i), spec));
            if (t.bugs.back().file.size() < 3 ||
                t.bugs.back().file.compare(t.bugs.back().file.size() - 3, 3, ".py") != 0) {
                fail(child(child(bp, i), "file"), q(t.bugs.back().file) + " is not a .py file");
            }
        }
    }
    return t;
}

} // namespace tkm::problem::detail
