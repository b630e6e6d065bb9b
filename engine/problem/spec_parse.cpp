// Parser and validator of exercise.json (docs/exercise-spec.md). Structure errors are thrown internally as
// SpecFailure and returned as one engine::Error naming the file, the JSON pointer and the problem.

#include "engine/common/paths.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <set>

namespace tkm::problem {
namespace {

using json = nlohmann::json;
using engine::DType;

struct SpecFailure
{
    std::string message;
};

std::string typeName(const json& j)
{
    switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return "a number";
    default: return "something else";
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

class SpecParser
{
public:
    SpecParser(const std::filesystem::path& dir, const ParseOptions& options) : m_dir(dir), m_opt(options) {}

    ExerciseSpec parse(const json& root);

private:
    [[noreturn]] void fail(const std::string& ptr, const std::string& what) const
    {
        throw SpecFailure{m_opt.fileLabel + ": " + (ptr.empty() ? std::string("/") : ptr) + ": " + what};
    }

    void requireObject(const json& j, const std::string& ptr) const
    {
        if (!j.is_object()) {
            fail(ptr, "must be an object, not " + typeName(j));
        }
    }

    void checkKeys(const json& j, const std::string& ptr, std::initializer_list<std::string_view> allowed) const
    {
        requireObject(j, ptr);
        for (const auto& [key, value] : j.items()) {
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                std::vector<std::string> names(allowed.begin(), allowed.end());
                fail(child(ptr, key), "unknown field (allowed here: " + joinList(names) + ")");
            }
        }
    }

    const json& required(const json& obj, const std::string& ptr, std::string_view key) const
    {
        const auto it = obj.find(std::string(key));
        if (it == obj.end()) {
            fail(ptr, "missing required field " + q(key));
        }
        return *it;
    }

    const json* optional(const json& obj, std::string_view key) const
    {
        const auto it = obj.find(std::string(key));
        return it == obj.end() ? nullptr : &*it;
    }

    std::string string(const json& j, const std::string& ptr, bool allowEmpty = false) const
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

    double number(const json& j, const std::string& ptr) const
    {
        if (!j.is_number()) {
            fail(ptr, "must be a number, not " + typeName(j));
        }
        return j.get<double>();
    }

    int64_t integer(const json& j, const std::string& ptr) const
    {
        if (!j.is_number_integer()) {
            fail(ptr, "must be an integer, not " + (j.is_number() ? j.dump() : typeName(j)));
        }
        if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
            fail(ptr, j.dump() + " is too large");
        }
        return j.get<int64_t>();
    }

    std::string identifier(const json& j, const std::string& ptr) const
    {
        auto s = string(j, ptr);
        if (!isIdentifier(s)) {
            fail(ptr, q(s) + " is not a C identifier (letters, digits and _, not starting with a digit)");
        }
        return s;
    }

    // An expression: a string, or a number written as one.
    std::string expr(const json& j, const std::string& ptr) const
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

    std::vector<std::string> exprList(const json& j, const std::string& ptr, std::size_t lo, std::size_t hi) const
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

    std::string file(const json& j, const std::string& ptr) const
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

    DType dtype(const json& j, const std::string& ptr) const
    {
        const auto s = string(j, ptr);
        const auto t = engine::parseDType(s);
        if (!t) {
            fail(ptr, q(s) + " is not one of f16, bf16, f32, f64, i32, i64");
        }
        return *t;
    }

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

    std::string oneOfText(const json& j, const std::string& ptr, std::initializer_list<std::string_view> options) const
    {
        const auto s = string(j, ptr);
        std::vector<std::string> names(options.begin(), options.end());
        if (std::find(names.begin(), names.end(), s) == names.end()) {
            fail(ptr, q(s) + " is not one of " + joinList(names));
        }
        return s;
    }

    LaunchSpec launch(const json& j, const std::string& ptr, bool withKernelFields) const;
    Generator generator(const json& j, const std::string& ptr, DType t) const;
    Param param(const json& j, const std::string& ptr) const;
    Meta meta(const json& j, const std::string& ptr) const;
    Case caseSpec(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    Bug bug(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    Baseline baseline(const json& j, const std::string& ptr, const ExerciseSpec& spec) const;
    void tolerance(const json& j, const std::string& ptr, ExerciseSpec& spec) const;
    void validateCrossRefs(ExerciseSpec& spec) const;
    void validateExpressions(const ExerciseSpec& spec) const;

    std::filesystem::path m_dir;
    ParseOptions m_opt;
    json m_root;
};

LaunchSpec SpecParser::launch(const json& j, const std::string& ptr, bool reference) const
{
    if (reference) {
        checkKeys(j, ptr, {"file", "kernel", "grid", "block", "shared_bytes"});
    } else {
        checkKeys(j, ptr, {"grid", "block", "shared_bytes"});
    }
    LaunchSpec l;
    l.grid = exprList(required(j, ptr, "grid"), child(ptr, "grid"), 1, 3);
    l.block = exprList(required(j, ptr, "block"), child(ptr, "block"), 1, 3);
    if (const json* s = optional(j, "shared_bytes")) {
        l.sharedBytes = expr(*s, child(ptr, "shared_bytes"));
    }
    return l;
}

Generator SpecParser::generator(const json& j, const std::string& ptr, DType t) const
{
    requireObject(j, ptr);
    Generator g;
    g.dist = oneOf<Dist>(required(j, ptr, "dist"), child(ptr, "dist"),
                         {{"normal", Dist::Normal},
                          {"uniform", Dist::Uniform},
                          {"negative", Dist::Negative},
                          {"large", Dist::Large},
                          {"int", Dist::Int},
                          {"arange", Dist::Arange}});
    auto get = [&](std::string_view key, double& field, bool req) {
        if (const json* v = optional(j, key)) {
            field = number(*v, child(ptr, key));
        } else if (req) {
            fail(ptr, "a " + std::string(distName(g.dist)) + " generator needs " + q(key));
        }
    };
    // Largest finite value of the buffer's type: generated values must not overflow it.
    const double maxFinite = t == DType::F16    ? 65504.0
                             : t == DType::BF16 ? 3.3895313892515355e38
                             : t == DType::F32  ? static_cast<double>(std::numeric_limits<float>::max())
                             : t == DType::I32  ? 2147483647.0
                                                : std::numeric_limits<double>::max();
    auto checkRange = [&](double a, double b) {
        if (std::fabs(a) > maxFinite || std::fabs(b) > maxFinite) {
            fail(ptr, "values up to " + json(std::max(std::fabs(a), std::fabs(b))).dump() + " do not fit in " +
                          std::string(engine::dtypeName(t)) + " (largest finite " + json(maxFinite).dump() + ")");
        }
    };
    switch (g.dist) {
    case Dist::Normal:
        checkKeys(j, ptr, {"dist", "mean", "std"});
        get("mean", g.mean, false);
        get("std", g.std, false);
        if (g.std < 0) {
            fail(child(ptr, "std"), "must be ≥ 0");
        }
        if (g.std == 0 && g.mean == 0) {
            fail(ptr, "mean 0 with std 0 gives all zeros, which hides bugs: use a std > 0");
        }
        break;
    case Dist::Uniform:
    case Dist::Negative:
    case Dist::Int:
        checkKeys(j, ptr, {"dist", "low", "high"});
        get("low", g.low, true);
        get("high", g.high, true);
        if (g.low == 0 && g.high == 0) {
            fail(ptr, "low = high = 0 gives all zeros, which hides bugs: widen the range");
        }
        if (g.dist == Dist::Int) {
            if (g.low != std::floor(g.low) || g.high != std::floor(g.high)) {
                fail(ptr, "an int generator needs integer low and high");
            }
            if (g.low > g.high) {
                fail(ptr, "low must be ≤ high (the range is [low, high])");
            }
        } else if (g.low >= g.high) {
            fail(ptr, "low must be < high (the range is [low, high))");
        }
        if (g.dist == Dist::Negative && (g.low >= 0 || g.high >= 0)) {
            fail(ptr, "a negative generator needs low < high < 0 so every value is negative");
        }
        checkRange(g.low, g.high);
        break;
    case Dist::Large:
        checkKeys(j, ptr, {"dist", "magnitude"});
        get("magnitude", g.magnitude, true);
        if (!(g.magnitude > 0)) {
            fail(child(ptr, "magnitude"), "must be > 0");
        }
        checkRange(g.magnitude, g.magnitude);
        break;
    case Dist::Arange:
        checkKeys(j, ptr, {"dist", "start", "step"});
        get("start", g.start, false);
        get("step", g.step, false);
        if (g.start == 0 && g.step == 0) {
            fail(ptr, "start 0 with step 0 gives all zeros: use a step ≠ 0");
        }
        break;
    }
    return g;
}

Param SpecParser::param(const json& j, const std::string& ptr) const
{
    requireObject(j, ptr);
    Param p;
    p.kind = oneOf<ParamKind>(required(j, ptr, "kind"), child(ptr, "kind"),
                              {{"buffer", ParamKind::Buffer}, {"scalar", ParamKind::Scalar}});
    if (p.kind == ParamKind::Buffer) {
        checkKeys(j, ptr, {"name", "kind", "dtype", "shape", "role", "init"});
    } else {
        checkKeys(j, ptr, {"name", "kind", "dtype", "value"});
    }
    p.name = identifier(required(j, ptr, "name"), child(ptr, "name"));
    p.dtype = dtype(required(j, ptr, "dtype"), child(ptr, "dtype"));
    if (p.kind == ParamKind::Scalar) {
        if (p.dtype == DType::F16 || p.dtype == DType::BF16) {
            fail(child(ptr, "dtype"), "a scalar is one of i32, i64, f32, f64, not " +
                                          std::string(engine::dtypeName(p.dtype)));
        }
        p.value = expr(required(j, ptr, "value"), child(ptr, "value"));
        return p;
    }
    p.shape = exprList(required(j, ptr, "shape"), child(ptr, "shape"), 1, 4);
    p.role = oneOf<Role>(required(j, ptr, "role"), child(ptr, "role"),
                         {{"in", Role::In}, {"out", Role::Out}, {"inout", Role::InOut}});
    const json* init = optional(j, "init");
    if (p.role == Role::Out && init) {
        fail(child(ptr, "init"), "an output buffer is poisoned before each launch and takes no generator: remove "
                                 "\"init\" (or make the role inout)");
    }
    if (p.role != Role::Out) {
        if (!init) {
            fail(ptr, "buffer `" + p.name + "` with role " + std::string(roleName(p.role)) +
                          " needs \"init\", a generator such as {\"dist\": \"normal\", \"mean\": 0, \"std\": 1}");
        }
        p.init = generator(*init, child(ptr, "init"), p.dtype);
    }
    return p;
}

Meta SpecParser::meta(const json& j, const std::string& ptr) const
{
    checkKeys(j, ptr, {"name", "default", "allowed"});
    Meta m;
    m.name = identifier(required(j, ptr, "name"), child(ptr, "name"));
    m.defaultValue = integer(required(j, ptr, "default"), child(ptr, "default"));
    if (const json* a = optional(j, "allowed")) {
        if (!a->is_array() || a->empty()) {
            fail(child(ptr, "allowed"), "must be a non-empty array of integers");
        }
        for (std::size_t i = 0; i < a->size(); ++i) {
            m.allowed.push_back(integer((*a)[i], child(child(ptr, "allowed"), i)));
        }
        if (std::find(m.allowed.begin(), m.allowed.end(), m.defaultValue) == m.allowed.end()) {
            fail(child(ptr, "default"), std::to_string(m.defaultValue) + " is not in \"allowed\"");
        }
    }
    return m;
}

Case SpecParser::caseSpec(const json& j, const std::string& ptr, const ExerciseSpec& spec) const
{
    checkKeys(j, ptr, {"name", "sizes", "seed", "layouts", "init"});
    Case c;
    c.name = string(required(j, ptr, "name"), child(ptr, "name"));
    const json& sizes = required(j, ptr, "sizes");
    const std::string sp = child(ptr, "sizes");
    requireObject(sizes, sp);
    if (sizes.empty()) {
        fail(sp, "needs at least one size variable, e.g. {\"n\": 1024}");
    }
    for (const auto& [name, value] : sizes.items()) {
        if (!isIdentifier(name)) {
            fail(child(sp, name), q(name) + " is not a valid variable name");
        }
        const int64_t v = integer(value, child(sp, name));
        if (v <= 0) {
            fail(child(sp, name), std::to_string(v) + " is not a valid size: sizes must be ≥ 1");
        }
        c.sizes[name] = v;
    }
    if (const json* s = optional(j, "seed")) {
        const std::string p = child(ptr, "seed");
        if (!s->is_number_integer() || (s->is_number_integer() && !s->is_number_unsigned() && s->get<int64_t>() < 0)) {
            fail(p, "must be a non-negative integer");
        }
        c.seed = s->get<uint64_t>();
        c.seedGiven = true;
    }
    auto bufferNamed = [&](const std::string& name, const std::string& p) -> const Param& {
        const Param* prm = spec.findParam(name);
        if (!prm || prm->kind != ParamKind::Buffer) {
            fail(p, q(name) + " is not a buffer parameter of this exercise");
        }
        return *prm;
    };
    if (const json* l = optional(j, "layouts")) {
        const std::string lp = child(ptr, "layouts");
        requireObject(*l, lp);
        for (const auto& [name, value] : l->items()) {
            const std::string p = child(lp, name);
            const Param& prm = bufferNamed(name, p);
            requireObject(value, p);
            Layout layout;
            layout.kind = oneOf<LayoutKind>(required(value, p, "kind"), child(p, "kind"),
                                            {{"contiguous", LayoutKind::Contiguous},
                                             {"transposed", LayoutKind::Transposed},
                                             {"padded", LayoutKind::Padded}});
            if (layout.kind == LayoutKind::Padded) {
                checkKeys(value, p, {"kind", "pad"});
                layout.pad = expr(required(value, p, "pad"), child(p, "pad"));
            } else {
                checkKeys(value, p, {"kind"});
            }
            if (layout.kind != LayoutKind::Contiguous && prm.shape.size() < 2) {
                fail(p, "a " + std::string(layoutName(layout.kind)) + " layout needs a buffer of rank ≥ 2; `" + name +
                            "` has rank 1");
            }
            c.layouts[name] = layout;
        }
    }
    if (const json* in = optional(j, "init")) {
        const std::string ip = child(ptr, "init");
        requireObject(*in, ip);
        for (const auto& [name, value] : in->items()) {
            const std::string p = child(ip, name);
            const Param& prm = bufferNamed(name, p);
            if (prm.role == Role::Out) {
                fail(p, "`" + name + "` is an output: it is poisoned, not generated");
            }
            c.init[name] = generator(value, p, prm.dtype);
        }
    }
    return c;
}

Bug SpecParser::bug(const json& j, const std::string& ptr, const ExerciseSpec& spec) const
{
    checkKeys(j, ptr, {"file", "title", "expect"});
    Bug b;
    b.file = file(required(j, ptr, "file"), child(ptr, "file"));
    b.title = string(required(j, ptr, "title"), child(ptr, "title"));
    const std::string ep = child(ptr, "expect");
    const json& e = required(j, ptr, "expect");
    requireObject(e, ep);
    b.expect.verdict =
        oneOfText(required(e, ep, "verdict"), child(ep, "verdict"), {"fail", "fault", "timeout", "compile_error"});
    if (b.expect.verdict == "fault") {
        checkKeys(e, ep, {"verdict", "fault", "buffer"});
        b.expect.fault = oneOfText(required(e, ep, "fault"), child(ep, "fault"),
                                   {"read-past-end", "write-past-end", "read-before-start", "write-before-start",
                                    "misaligned", "trap", "unknown"});
        if (const json* buf = optional(e, "buffer")) {
            b.expect.buffer = string(*buf, child(ep, "buffer"));
            const Param* p = spec.findParam(b.expect.buffer);
            if (!p || p->kind != ParamKind::Buffer) {
                fail(child(ep, "buffer"), q(b.expect.buffer) + " is not a buffer parameter of this exercise");
            }
        } else if (b.expect.fault.find("-end") != std::string::npos ||
                   b.expect.fault.find("-start") != std::string::npos) {
            fail(ep, "a " + b.expect.fault + " fault names the buffer: add \"buffer\"");
        }
    } else if (b.expect.verdict == "fail") {
        checkKeys(e, ep, {"verdict", "case", "reason"});
        if (const json* c = optional(e, "case")) {
            b.expect.caseName = string(*c, child(ep, "case"));
            const bool known = std::any_of(spec.cases.begin(), spec.cases.end(),
                                           [&](const Case& k) { return k.name == b.expect.caseName; });
            if (!known) {
                fail(child(ep, "case"), q(b.expect.caseName) + " is not the name of a case");
            }
        }
        if (const json* r = optional(e, "reason")) {
            b.expect.reason = oneOfText(*r, child(ep, "reason"), {"mismatch", "nan", "unwritten", "nondeterministic"});
        }
    } else {
        checkKeys(e, ep, {"verdict"});
    }
    return b;
}

Baseline SpecParser::baseline(const json& j, const std::string& ptr, const ExerciseSpec& spec) const
{
    requireObject(j, ptr);
    Baseline b;
    b.kind = oneOfText(required(j, ptr, "kind"), child(ptr, "kind"), {"kernels", "cublas_gemm"});
    if (b.kind == "cublas_gemm") {
        checkKeys(j, ptr, {"name", "kind", "a", "b", "c", "m", "n", "k", "dtype"});
        b.name = string(required(j, ptr, "name"), child(ptr, "name"));
        for (const char* key : {"a", "b", "c"}) {
            const auto name = string(required(j, ptr, key), child(ptr, key));
            const Param* p = spec.findParam(name);
            if (!p || p->kind != ParamKind::Buffer) {
                fail(child(ptr, key), q(name) + " is not a buffer parameter of this exercise");
            }
            b.gemm[key] = name;
        }
        for (const char* key : {"m", "n", "k"}) {
            b.gemm[key] = expr(required(j, ptr, key), child(ptr, key));
        }
        const DType t = dtype(required(j, ptr, "dtype"), child(ptr, "dtype"));
        if (!engine::isFloating(t)) {
            fail(child(ptr, "dtype"), "cuBLAS GEMM needs f16, bf16, f32 or f64");
        }
        b.gemm["dtype"] = std::string(engine::dtypeName(t));
        return b;
    }
    checkKeys(j, ptr, {"name", "kind", "file", "temps", "launches"});
    b.name = string(required(j, ptr, "name"), child(ptr, "name"));
    b.file = file(required(j, ptr, "file"), child(ptr, "file"));
    std::set<std::string> names;
    for (const auto& p : spec.params) {
        names.insert(p.name);
    }
    if (const json* t = optional(j, "temps")) {
        const std::string tp = child(ptr, "temps");
        if (!t->is_array()) {
            fail(tp, "must be an array");
        }
        for (std::size_t i = 0; i < t->size(); ++i) {
            const std::string p = child(tp, i);
            checkKeys((*t)[i], p, {"name", "dtype", "shape"});
            BaselineTemp temp;
            temp.name = identifier(required((*t)[i], p, "name"), child(p, "name"));
            if (!names.insert(temp.name).second) {
                fail(child(p, "name"), q(temp.name) + " is already the name of a parameter or temp");
            }
            temp.dtype = dtype(required((*t)[i], p, "dtype"), child(p, "dtype"));
            temp.shape = exprList(required((*t)[i], p, "shape"), child(p, "shape"), 1, 4);
            b.temps.push_back(std::move(temp));
        }
    }
    const std::string lp = child(ptr, "launches");
    const json& launches = required(j, ptr, "launches");
    if (!launches.is_array() || launches.empty()) {
        fail(lp, "must be a non-empty array of launches");
    }
    for (std::size_t i = 0; i < launches.size(); ++i) {
        const std::string p = child(lp, i);
        checkKeys(launches[i], p, {"kernel", "args", "grid", "block", "shared_bytes"});
        BaselineLaunch l;
        l.kernel = identifier(required(launches[i], p, "kernel"), child(p, "kernel"));
        const json& args = required(launches[i], p, "args");
        if (!args.is_array()) {
            fail(child(p, "args"), "must be an array of parameter names, temp names or expressions");
        }
        for (std::size_t a = 0; a < args.size(); ++a) {
            l.args.push_back(expr(args[a], child(child(p, "args"), a)));
        }
        l.launch.grid = exprList(required(launches[i], p, "grid"), child(p, "grid"), 1, 3);
        l.launch.block = exprList(required(launches[i], p, "block"), child(p, "block"), 1, 3);
        if (const json* s = optional(launches[i], "shared_bytes")) {
            l.launch.sharedBytes = expr(*s, child(p, "shared_bytes"));
        }
        b.launches.push_back(std::move(l));
    }
    return b;
}

void SpecParser::tolerance(const json& j, const std::string& ptr, ExerciseSpec& spec) const
{
    requireObject(j, ptr);
    std::string globalScale;
    if (const json* s = optional(j, "scale")) {
        globalScale = expr(*s, child(ptr, "scale"));
    }
    for (const auto& [key, value] : j.items()) {
        if (key == "scale") {
            continue;
        }
        const std::string p = child(ptr, key);
        const auto t = engine::parseDType(key);
        if (!t) {
            fail(p, "unknown field: tolerance keys are dtypes (f16, bf16, f32, f64, i32, i64) or \"scale\"");
        }
        checkKeys(value, p, {"atol", "rtol", "scale"});
        Tolerance tol;
        tol.atol = number(required(value, p, "atol"), child(p, "atol"));
        tol.rtol = number(required(value, p, "rtol"), child(p, "rtol"));
        if (tol.atol < 0 || tol.rtol < 0) {
            fail(p, "atol and rtol must be ≥ 0");
        }
        tol.scale = globalScale;
        if (const json* s = optional(value, "scale")) {
            tol.scale = expr(*s, child(p, "scale"));
        }
        spec.tolerance[*t] = tol;
    }
}

void SpecParser::validateCrossRefs(ExerciseSpec& spec) const
{
    std::set<std::string> names;
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        if (!names.insert(spec.params[i].name).second) {
            fail(child(child("/params", i), "name"), q(spec.params[i].name) + " is used by two parameters");
        }
    }
    const auto& sizeNames = spec.cases.front().sizes;
    for (std::size_t i = 0; i < spec.meta.size(); ++i) {
        const auto& name = spec.meta[i].name;
        if (!names.insert(name).second) {
            fail(child(child("/meta", i), "name"), q(name) + " is already the name of a parameter or meta-parameter");
        }
        if (sizeNames.count(name)) {
            fail(child(child("/meta", i), "name"), q(name) + " is also a size variable of the cases");
        }
    }
    // All cases (and the performance case) give the same size variables.
    auto sameSizes = [&](const std::map<std::string, int64_t>& sizes, const std::string& ptr) {
        for (const auto& [name, v] : sizeNames) {
            if (!sizes.count(name)) {
                fail(ptr, "missing size " + q(name) + " (every case gives the same size variables)");
            }
        }
        for (const auto& [name, v] : sizes) {
            if (!sizeNames.count(name)) {
                fail(child(ptr, name), "size " + q(name) + " is not given by the first case (every case gives "
                                                                 "the same size variables)");
            }
        }
    };
    std::set<std::string> caseNames;
    for (std::size_t i = 0; i < spec.cases.size(); ++i) {
        sameSizes(spec.cases[i].sizes, child(child("/cases", i), "sizes"));
        if (!caseNames.insert(spec.cases[i].name).second) {
            fail(child(child("/cases", i), "name"), q(spec.cases[i].name) + " is the name of an earlier case");
        }
    }
    if (spec.performance) {
        sameSizes(spec.performance->sizes, "/performance/sizes");
    }
    // Size names must not shadow parameters' derived variables.
    for (const auto& [name, v] : sizeNames) {
        for (const auto& p : spec.params) {
            if (p.kind == ParamKind::Buffer && (name == p.name + "_numel" || name.rfind(p.name + "_stride", 0) == 0)) {
                fail("/cases/0/sizes/" + name, q(name) + " clashes with the variable derived from buffer `" +
                                                   p.name + "`");
            }
        }
    }
    for (std::size_t i = 0; i < spec.resetToZero.size(); ++i) {
        const Param* p = spec.findParam(spec.resetToZero[i]);
        if (!p || p->kind != ParamKind::Buffer || p->role == Role::In) {
            fail(child("/reset_to_zero", i), q(spec.resetToZero[i]) + " is not an out or inout buffer");
        }
    }
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const Param& p = spec.params[i];
        if (p.kind == ParamKind::Buffer && p.role != Role::In && engine::isFloating(p.dtype) &&
            !spec.tolerance.count(p.dtype)) {
            fail("/tolerance", "no entry for " + std::string(engine::dtypeName(p.dtype)) + ", the dtype of output `" +
                                   p.name + "`: add {\"" + std::string(engine::dtypeName(p.dtype)) +
                                   "\": {\"atol\": …, \"rtol\": …}}");
        }
    }
    bool hasOutput = false;
    for (const auto& p : spec.params) {
        hasOutput = hasOutput || (p.kind == ParamKind::Buffer && p.role != Role::In);
    }
    if (!hasOutput) {
        fail("/params", "no buffer has role out or inout: nothing could be checked");
    }
    if (spec.autotune) {
        for (std::size_t i = 0; i < spec.autotune->key.size(); ++i) {
            if (!sizeNames.count(spec.autotune->key[i])) {
                fail(child("/autotune/key", i), q(spec.autotune->key[i]) + " is not a size variable");
            }
        }
        for (std::size_t i = 0; i < spec.autotune->shapes.size(); ++i) {
            sameSizes(spec.autotune->shapes[i], child("/autotune/shapes", i));
        }
    }
}

// Every expression is evaluated once per case with the default meta-parameters, so errors show at load time.
void SpecParser::validateExpressions(const ExerciseSpec& spec) const
{
    auto metaValues = resolveMeta(spec);
    if (!metaValues) {
        fail("/meta", metaValues.error().message);
    }
    auto check = [&](const Case& c, int index) -> ProblemInstance {
        auto inst = instantiate(spec, c, *metaValues, index);
        if (!inst) {
            throw SpecFailure{m_opt.fileLabel + ": " + inst.error().message + " (in case \"" + c.name +
                              "\" with the default meta-parameters)"};
        }
        return std::move(inst).value();
    };
    ProblemInstance first;
    for (std::size_t i = 0; i < spec.cases.size(); ++i) {
        auto inst = check(spec.cases[i], static_cast<int>(i));
        if (i == 0) {
            first = std::move(inst);
        }
    }
    if (spec.performance) {
        check(*spec.performance, -1);
    }
    if (spec.autotune) {
        for (std::size_t i = 0; i < spec.autotune->shapes.size(); ++i) {
            Case c;
            c.name = "autotune shape " + std::to_string(i);
            c.sizes = spec.autotune->shapes[i];
            auto inst = instantiate(spec, c, *metaValues, 0);
            if (!inst) {
                fail(child("/autotune/shapes", i), inst.error().message);
            }
        }
    }
    // Baselines: temps' shapes, launch dimensions and non-name arguments.
    for (std::size_t b = 0; b < spec.baselines.size(); ++b) {
        const Baseline& base = spec.baselines[b];
        const std::string bp = child("/baselines", b);
        Variables vars = first.variables;
        std::set<std::string> names;
        for (const auto& p : spec.params) {
            names.insert(p.name);
        }
        for (std::size_t t = 0; t < base.temps.size(); ++t) {
            names.insert(base.temps[t].name);
            for (std::size_t d = 0; d < base.temps[t].shape.size(); ++d) {
                const std::string p = child(child(child(child(bp, "temps"), t), "shape"), d);
                auto v = evaluateCount(base.temps[t].shape[d], vars, p);
                if (!v) {
                    throw SpecFailure{m_opt.fileLabel + ": " + v.error().message};
                }
            }
        }
        for (const char* key : {"m", "n", "k"}) {
            if (auto it = base.gemm.find(key); it != base.gemm.end()) {
                auto v = evaluateCount(it->second, vars, child(bp, key));
                if (!v) {
                    throw SpecFailure{m_opt.fileLabel + ": " + v.error().message};
                }
            }
        }
        for (std::size_t l = 0; l < base.launches.size(); ++l) {
            const BaselineLaunch& launch = base.launches[l];
            const std::string lp = child(child(bp, "launches"), l);
            auto countAt = [&](const std::string& e, const std::string& p) {
                auto v = evaluateCount(e, vars, p);
                if (!v) {
                    throw SpecFailure{m_opt.fileLabel + ": " + v.error().message};
                }
            };
            for (std::size_t d = 0; d < launch.launch.grid.size(); ++d) {
                countAt(launch.launch.grid[d], child(child(lp, "grid"), d));
            }
            for (std::size_t d = 0; d < launch.launch.block.size(); ++d) {
                countAt(launch.launch.block[d], child(child(lp, "block"), d));
            }
            countAt(launch.launch.sharedBytes, child(lp, "shared_bytes"));
            for (std::size_t a = 0; a < launch.args.size(); ++a) {
                if (!names.count(launch.args[a])) {
                    auto v = evaluate(launch.args[a], vars, child(child(lp, "args"), a));
                    if (!v) {
                        throw SpecFailure{m_opt.fileLabel + ": " + v.error().message};
                    }
                }
            }
        }
    }
}

ExerciseSpec SpecParser::parse(const json& root)
{
    checkKeys(root, "", {"format", "id", "title", "kernel", "prompt", "starter", "solution", "reference", "hints",
                         "params", "meta", "launch", "cases", "performance", "tolerance", "ideal_bytes", "flops",
                         "bugs", "baselines", "reset_to_zero", "autotune"});
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
    {
        const json& r = required(root, "", "reference");
        spec.reference.launch = launch(r, "/reference", true);
        spec.reference.file = file(required(r, "/reference", "file"), "/reference/file");
        spec.reference.kernel = identifier(required(r, "/reference", "kernel"), "/reference/kernel");
    }
    if (const json* h = optional(root, "hints")) {
        if (!h->is_array()) {
            fail("/hints", "must be an array of strings");
        }
        for (std::size_t i = 0; i < h->size(); ++i) {
            spec.hints.push_back(string((*h)[i], child("/hints", i)));
        }
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
    tolerance(required(root, "", "tolerance"), "/tolerance", spec);
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
        checkKeys(*a, "/autotune", {"key", "shapes", "min_configs"});
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
        spec.autotune = std::move(at);
    }
    validateCrossRefs(spec);
    validateExpressions(spec);
    return spec;
}

} // namespace

engine::Expected<ExerciseSpec> parseSpec(std::string_view text, const std::filesystem::path& dir,
                                         const ParseOptions& options)
{
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 options.fileLabel + ": not valid JSON: " + std::string(e.what()));
    }
    try {
        return SpecParser(dir, options).parse(root);
    } catch (const SpecFailure& f) {
        return engine::makeError(engine::ErrorKind::BadSpec, f.message);
    } catch (const json::exception& e) {
        return engine::makeError(engine::ErrorKind::BadSpec, options.fileLabel + ": " + e.what());
    }
}

} // namespace tkm::problem
