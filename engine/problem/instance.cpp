#include "engine/problem/instance.h"

#include "engine/common/hash.h"
#include "engine/problem/expr.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tkm::problem {
namespace {

using engine::ErrorKind;
using engine::Expected;
using engine::makeError;

// Guards products of extents and strides against int64 overflow (they must also fit a device allocation).
constexpr int64_t kMaxElements = int64_t{1} << 48;

std::string ptrOf(int caseIndex)
{
    return caseIndex < 0 ? std::string("/performance") : "/cases/" + std::to_string(caseIndex);
}

// Strides of a buffer for a layout (docs/exercise-spec.md, case.layouts). Precondition: rank ≥ 2 unless contiguous.
std::vector<int64_t> stridesFor(const std::vector<int64_t>& shape, LayoutKind layout, int64_t pad)
{
    const std::size_t r = shape.size();
    std::vector<int64_t> s(r, 1);
    if (layout == LayoutKind::Contiguous || r < 2) {
        for (std::size_t d = r - 1; d > 0; --d) {
            s[d - 1] = s[d] * shape[d];
        }
        return s;
    }
    const int64_t rows = shape[r - 2];
    const int64_t cols = shape[r - 1];
    int64_t matrix = 0;
    if (layout == LayoutKind::Transposed) {
        // Last two dims stored swapped: element (i, j) at i + j·M.
        s[r - 2] = 1;
        s[r - 1] = rows;
        matrix = rows * cols;
    } else {
        s[r - 1] = 1;
        s[r - 2] = cols + pad;
        matrix = rows * (cols + pad);
    }
    int64_t outer = matrix;
    for (std::size_t d = r - 2; d > 0; --d) {
        s[d - 1] = outer;
        outer *= shape[d - 1];
    }
    return s;
}

Expected<LaunchDims> launchDims(const LaunchSpec& l, const Variables& vars, const std::string& ptr)
{
    LaunchDims dims;
    for (std::size_t d = 0; d < l.grid.size(); ++d) {
        const std::string p = ptr + "/grid/" + std::to_string(d);
        auto v = evaluateCount(l.grid[d], vars, p);
        if (!v) {
            return v.error();
        }
        if (*v == 0) {
            return makeError(ErrorKind::Expression, p + ": \"" + l.grid[d] +
                                                        "\" = 0: a grid needs at least one program "
                                                        "per dimension");
        }
        const int64_t limit = d == 0 ? int64_t{2147483647} : int64_t{65535};
        if (*v > limit) {
            return makeError(ErrorKind::Expression, p + ": \"" + l.grid[d] + "\" = " + std::to_string(*v) +
                                                        " exceeds CUDA's grid limit of " + std::to_string(limit));
        }
        dims.grid[d] = *v;
    }
    int64_t threads = 1;
    for (std::size_t d = 0; d < l.block.size(); ++d) {
        const std::string p = ptr + "/block/" + std::to_string(d);
        auto v = evaluateCount(l.block[d], vars, p);
        if (!v) {
            return v.error();
        }
        if (*v == 0) {
            return makeError(ErrorKind::Expression, p + ": \"" + l.block[d] +
                                                        "\" = 0: a block needs at least one thread "
                                                        "per dimension");
        }
        if (*v > 1024) {
            return makeError(ErrorKind::Expression,
                             p + ": \"" + l.block[d] + "\" = " + std::to_string(*v) + " threads: at most 1024");
        }
        dims.block[d] = *v;
        threads *= *v;
    }
    if (threads > 1024) {
        return makeError(ErrorKind::Expression,
                         ptr + "/block: " + std::to_string(threads) + " threads per block; CUDA allows at most 1024");
    }
    auto shared = evaluateCount(l.sharedBytes, vars, ptr + "/shared_bytes");
    if (!shared) {
        return shared.error();
    }
    dims.sharedBytes = *shared;
    return dims;
}

} // namespace

uint64_t defaultCaseSeed(std::string_view id, int caseIndex)
{
    const std::string key =
        std::string(id) + "/" + (caseIndex < 0 ? std::string("performance") : std::to_string(caseIndex));
    return engine::Hasher().add(key.data(), key.size()).low64();
}

Expected<MetaValues> resolveMeta(const ExerciseSpec& spec, const MetaValues& overrides)
{
    MetaValues values;
    for (const auto& m : spec.meta) {
        values[m.name] = m.defaultValue;
    }
    for (const auto& [name, value] : overrides) {
        const auto it = std::find_if(spec.meta.begin(), spec.meta.end(), [&](const Meta& m) { return m.name == name; });
        if (it == spec.meta.end()) {
            std::string known;
            for (const auto& m : spec.meta) {
                known += (known.empty() ? "" : ", ") + m.name;
            }
            return makeError(ErrorKind::BadInput, name + " = " + std::to_string(value) +
                                                      ": the exercise has no meta-parameter " + name + " (it has " +
                                                      (known.empty() ? std::string("none") : known) + ")");
        }
        if (!it->allowed.empty() && std::find(it->allowed.begin(), it->allowed.end(), value) == it->allowed.end()) {
            std::string allowed;
            for (auto a : it->allowed) {
                allowed += (allowed.empty() ? "" : ", ") + std::to_string(a);
            }
            return makeError(ErrorKind::BadInput,
                             name + " = " + std::to_string(value) + " is not allowed (choose one of " + allowed + ")");
        }
        values[name] = value;
    }
    return values;
}

const ArgInstance* ProblemInstance::find(std::string_view name) const
{
    for (const auto& a : args) {
        if (a.name == name) {
            return &a;
        }
    }
    return nullptr;
}

Tolerance ProblemInstance::toleranceFor(DType t) const
{
    const auto it = tolerance.find(t);
    return it == tolerance.end() ? Tolerance{} : it->second;
}

Expected<ProblemInstance> instantiate(const ExerciseSpec& spec, const Case& c, const MetaValues& meta, int caseIndex)
{
    const std::string cp = ptrOf(caseIndex);
    ProblemInstance inst;
    inst.caseName = c.name;
    inst.sizes = c.sizes;
    inst.meta = meta;
    inst.seed = c.seedGiven ? c.seed : defaultCaseSeed(spec.id, caseIndex);

    Variables sizeVars;
    for (const auto& [name, v] : c.sizes) {
        if (v <= 0) {
            return makeError(ErrorKind::BadInput, cp + "/sizes/" + name + ": " + std::to_string(v) +
                                                      " is not a valid size: sizes must be ≥ 1");
        }
        sizeVars[name] = static_cast<double>(v);
    }
    for (const auto& [name, v] : spec.cases.front().sizes) {
        if (!c.sizes.count(name)) {
            return makeError(ErrorKind::BadInput, cp + "/sizes: missing size \"" + name + "\"");
        }
    }
    Variables vars = sizeVars;
    for (const auto& [name, v] : meta) {
        vars[name] = static_cast<double>(v);
    }

    // Buffers first (shapes see sizes and meta), then their strides and numel become variables.
    Variables derived;
    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const Param& p = spec.params[i];
        ArgInstance a;
        a.name = p.name;
        a.kind = p.kind;
        a.dtype = p.dtype;
        if (p.kind != ParamKind::Buffer) {
            inst.args.push_back(std::move(a));
            continue;
        }
        const std::string pp = "/params/" + std::to_string(i);
        a.role = p.role;
        int64_t numel = 1;
        for (std::size_t d = 0; d < p.shape.size(); ++d) {
            const std::string field = pp + "/shape/" + std::to_string(d);
            auto v = evaluateCount(p.shape[d], vars, field);
            if (!v) {
                return v.error();
            }
            if (*v == 0) {
                return makeError(ErrorKind::BadInput, field + ": \"" + p.shape[d] + "\" = 0 in case \"" + c.name +
                                                          "\": buffers need at least one element per dimension");
            }
            if (*v > kMaxElements || numel > kMaxElements / *v) {
                return makeError(ErrorKind::BadInput, field + ": buffer `" + p.name + "` is too large");
            }
            numel *= *v;
            a.shape.push_back(*v);
        }
        a.numel = numel;
        Layout layout;
        if (auto it = c.layouts.find(p.name); it != c.layouts.end()) {
            layout = it->second;
        }
        a.layout = layout.kind;
        int64_t pad = 0;
        if (layout.kind == LayoutKind::Padded) {
            auto v = evaluateCount(layout.pad, vars, cp + "/layouts/" + p.name + "/pad");
            if (!v) {
                return v.error();
            }
            pad = *v;
        }
        if (layout.kind != LayoutKind::Contiguous && a.shape.size() < 2) {
            return makeError(ErrorKind::BadSpec, cp + "/layouts/" + p.name + ": a " +
                                                     std::string(layoutName(layout.kind)) +
                                                     " layout needs a buffer of rank ≥ 2");
        }
        a.strides = stridesFor(a.shape, layout.kind, pad);
        int64_t span = 1;
        for (std::size_t d = 0; d < a.shape.size(); ++d) {
            span += (a.shape[d] - 1) * a.strides[d];
        }
        if (span > kMaxElements) {
            return makeError(ErrorKind::BadInput, pp + ": buffer `" + p.name + "` is too large");
        }
        a.storageElements = span;
        a.bytes = span * engine::dtypeBytes(p.dtype);
        a.resetToZero = std::find(spec.resetToZero.begin(), spec.resetToZero.end(), p.name) != spec.resetToZero.end();
        if (p.role != Role::Out) {
            auto g = c.init.find(p.name);
            a.init = g != c.init.end() ? g->second : *p.init;
            a.seed = engine::mix64(inst.seed ^ engine::Hasher().addField(p.name).low64());
        }
        for (std::size_t d = 0; d < a.strides.size(); ++d) {
            derived[p.name + "_stride" + std::to_string(d)] = static_cast<double>(a.strides[d]);
        }
        derived[p.name + "_numel"] = static_cast<double>(numel);
        inst.args.push_back(std::move(a));
    }
    vars.insert(derived.begin(), derived.end());

    for (std::size_t i = 0; i < spec.params.size(); ++i) {
        const Param& p = spec.params[i];
        if (p.kind != ParamKind::Scalar) {
            continue;
        }
        ArgInstance& a = inst.args[i];
        const std::string field = "/params/" + std::to_string(i) + "/value";
        if (engine::isFloating(p.dtype)) {
            auto v = evaluate(p.value, vars, field);
            if (!v) {
                return v.error();
            }
            a.floatValue = p.dtype == DType::F32 ? static_cast<double>(static_cast<float>(*v)) : *v;
        } else {
            auto v = evaluateCount(p.value, vars, field);
            if (!v) {
                return v.error();
            }
            if (p.dtype == DType::I32 && *v > std::numeric_limits<int32_t>::max()) {
                return makeError(ErrorKind::BadInput, field + ": \"" + p.value + "\" = " + std::to_string(*v) +
                                                          " does not fit the i32 scalar `" + p.name +
                                                          "`: make it i64 (long long)");
            }
            a.intValue = *v;
        }
    }

    auto launch = launchDims(spec.launch, vars, "/launch");
    if (!launch) {
        return launch.error();
    }
    inst.launch = *launch;
    // The reference is compiled without meta-parameters: they are not in scope for its launch.
    Variables refVars = sizeVars;
    refVars.insert(derived.begin(), derived.end());
    auto refLaunch = launchDims(spec.reference.launch, refVars, "/reference");
    if (!refLaunch) {
        return refLaunch.error();
    }
    inst.referenceLaunch = *refLaunch;

    if (!spec.idealBytes.empty()) {
        auto v = evaluate(spec.idealBytes, vars, "/ideal_bytes");
        if (!v) {
            return v.error();
        }
        inst.idealBytes = *v;
    }
    if (!spec.flops.empty()) {
        auto v = evaluate(spec.flops, vars, "/flops");
        if (!v) {
            return v.error();
        }
        inst.flops = *v;
    }
    for (const auto& [t, tol] : spec.tolerance) {
        Tolerance eff = tol;
        if (!tol.scale.empty()) {
            auto s = evaluate(tol.scale, vars, "/tolerance/" + std::string(engine::dtypeName(t)) + "/scale");
            if (!s) {
                return s.error();
            }
            if (*s < 0) {
                return makeError(ErrorKind::Expression, "/tolerance/" + std::string(engine::dtypeName(t)) +
                                                            "/scale: \"" + tol.scale + "\" is negative");
            }
            eff.atol = tol.atol * *s;
            eff.scale.clear();
        }
        inst.tolerance[t] = eff;
    }
    inst.variables = std::move(vars);
    return inst;
}

} // namespace tkm::problem
