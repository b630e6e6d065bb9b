// exercise.json parser: the sections (launch, generators, params, meta, cases, bugs, baselines, tolerance).

#include "engine/problem/detail/spec_parser.h"

#include <cmath>
#include <limits>
#include <set>

namespace tkm::problem::detail {

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
            fail(child(ptr, "dtype"),
                 "a scalar is one of i32, i64, f32, f64, not " + std::string(engine::dtypeName(p.dtype)));
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
    checkKeys(j, ptr, {"file", "title", "expect", "reset_to_zero"});
    Bug b;
    b.file = file(required(j, ptr, "file"), child(ptr, "file"));
    b.title = string(required(j, ptr, "title"), child(ptr, "title"));
    if (const json* r = optional(j, "reset_to_zero")) {
        const std::string rp = child(ptr, "reset_to_zero");
        if (!r->is_array()) {
            fail(rp, "must be an array of output buffer names (empty: no reset for this variant)");
        }
        std::vector<std::string> names;
        for (std::size_t i = 0; i < r->size(); ++i) {
            names.push_back(string((*r)[i], child(rp, i)));
            const Param* p = spec.findParam(names.back());
            if (!p || p->kind != ParamKind::Buffer || p->role == Role::In) {
                fail(child(rp, i), q(names.back()) + " is not an output buffer of this exercise");
            }
        }
        b.resetToZero = std::move(names);
    }
    const std::string ep = child(ptr, "expect");
    const json& e = required(j, ptr, "expect");
    requireObject(e, ep);
    b.expect.verdict = *report::verdictFromName(
        oneOfText(required(e, ep, "verdict"), child(ep, "verdict"), {"fail", "fault", "timeout", "compile_error"}));
    if (b.expect.verdict == report::Verdict::Fault) {
        checkKeys(e, ep, {"verdict", "fault", "buffer"});
        b.expect.fault = oneOfText(required(e, ep, "fault"), child(ep, "fault"),
                                   {"read-past-end", "write-past-end", "read-before-start", "write-before-start",
                                    "misaligned", "trap", "assert", "stack-overflow", "illegal-instruction",
                                    "unknown"});
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
    } else if (b.expect.verdict == report::Verdict::Fail) {
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

std::map<DType, Tolerance> SpecParser::tolerance(const json& j, const std::string& ptr) const
{
    requireObject(j, ptr);
    std::map<DType, Tolerance> out;
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
        checkKeys(value, p, {"atol", "rtol", "scale", "arithmetic"});
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
        if (const json* a = optional(value, "arithmetic")) {
            tol.arithmetic = string(*a, child(p, "arithmetic"));
            if (tol.arithmetic != "tf32" || *t != engine::DType::F32) {
                fail(child(p, "arithmetic"), "the one arithmetic a tolerance may name is \"tf32\", for f32 outputs "
                                            "(TF32 tensor-core products)");
            }
        }
        out[*t] = tol;
    }
    return out;
}

} // namespace tkm::problem::detail
