// exercise.json parser: cross-references between fields, and every expression evaluated per case.

#include "engine/problem/detail/spec_parser.h"

#include "engine/problem/instance.h"

#include <set>

namespace tkm::problem::detail {

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
                fail(child(ptr, name), "size " + q(name) +
                                           " is not given by the first case (every case gives "
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
                fail("/cases/0/sizes/" + name,
                     q(name) + " clashes with the variable derived from buffer `" + p.name + "`");
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
        if (spec.autotune->declareResetToZero && spec.resetToZero.empty()) {
            fail("/autotune/declare_reset_to_zero",
                 "is true but the spec has no reset_to_zero outputs for the learner to declare");
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

} // namespace tkm::problem::detail
