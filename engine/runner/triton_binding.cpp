#include "engine/runner/triton_binding.h"

#include "engine/problem/expr.h"

#include <fmt/format.h>

#include <algorithm>

namespace tkm::runner {
namespace {

using triton::ConstexprValue;
using triton::Diagnostic;
namespace ir = triton::ir;

} // namespace

ir::Elem tritonElem(engine::DType t)
{
    switch (t) {
    case engine::DType::F16: return ir::Elem::F16;
    case engine::DType::BF16: return ir::Elem::BF16;
    case engine::DType::F32: return ir::Elem::F32;
    case engine::DType::F64: return ir::Elem::F64;
    case engine::DType::I32: return ir::Elem::I32;
    case engine::DType::I64: return ir::Elem::I64;
    }
    return ir::Elem::F32;
}

namespace {

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const auto& n : names) {
        out += (out.empty() ? "" : ", ") + n;
    }
    return out;
}

Diagnostic bindingError(std::string code, triton::SourceRange range, std::string message)
{
    Diagnostic d;
    d.code = std::move(code);
    d.range = range;
    d.message = std::move(message);
    return d;
}

// The value of one track constexpr in this case.
engine::Expected<ConstexprValue> metaValue(const std::string& name, const problem::TritonMeta& m,
                                           const problem::ProblemInstance& inst)
{
    switch (m.kind) {
    case problem::TritonMeta::Kind::Int: return ConstexprValue::ofInt(m.intValue);
    case problem::TritonMeta::Kind::Float: return ConstexprValue::ofFloat(m.floatValue);
    case problem::TritonMeta::Kind::Bool: return ConstexprValue::ofBool(m.boolValue);
    case problem::TritonMeta::Kind::Str: return ConstexprValue::ofStr(m.text);
    case problem::TritonMeta::Kind::Expr: {
        auto v = problem::evaluateCount(m.text, inst.variables, "/triton/meta/" + name);
        if (!v) {
            return v.error();
        }
        return ConstexprValue::ofInt(*v);
    }
    }
    return ConstexprValue{};
}

} // namespace

std::shared_ptr<TritonSource> parseTritonSource(std::string name, std::string text)
{
    auto s = std::make_shared<TritonSource>();
    s->name = std::move(name);
    s->text = std::move(text);
    s->parsed = triton::parse(s->text);
    return s;
}

BindTarget learnerTarget(const problem::TritonTrack& track)
{
    return BindTarget{track.kernel, track.params, &track.meta, false, {}};
}

std::vector<int> boundSpecParams(const problem::ExerciseSpec& spec, const BindTarget& target)
{
    std::vector<int> out;
    if (target.params.empty()) {
        for (int i = 0; i < static_cast<int>(spec.params.size()); ++i) {
            out.push_back(i);
        }
    } else {
        for (const auto& name : target.params) {
            out.push_back(spec.paramIndex(name));
        }
    }
    return out;
}

std::vector<std::string> runtimeParams(const triton::ast::FunctionDef& fn)
{
    std::vector<std::string> out;
    for (const auto& p : triton::signatureOf(fn)) {
        if (!p.constexpr_) {
            out.push_back(p.name);
        }
    }
    return out;
}

BindTarget referenceTarget(const problem::TritonTrack& track)
{
    return BindTarget{track.reference.kernel, track.reference.params, &track.reference.meta, true,
                      track.reference.grid};
}

engine::Expected<std::optional<TritonBinding>> bindTriton(const TritonSource& src, const BindTarget& target,
                                                          const problem::ExerciseSpec& spec,
                                                          const problem::ProblemInstance& inst,
                                                          std::vector<Diagnostic>& diagnostics)
{
    const triton::ast::FunctionDef* fn = src.parsed.module.function(target.entry);
    if (fn == nullptr || !fn->isJit()) {
        std::vector<std::string> found;
        for (const auto* f : src.parsed.module.jitFunctions()) {
            found.push_back("`" + f->name + "`");
        }
        std::string msg =
            fn == nullptr
                ? fmt::format("the exercise calls the kernel `{}`, but {} has no function of that name", target.entry,
                              src.name)
                : fmt::format("`{}` is not decorated with @triton.jit: add the decorator on the line above its def",
                              target.entry);
        if (fn == nullptr && !found.empty()) {
            msg += fmt::format(" (its @triton.jit functions: {}); rename your kernel to `{}`", joined(found),
                               target.entry);
        }
        triton::SourceRange at{{1, 1}, {1, 1}};
        if (fn != nullptr) {
            at = fn->nameRange;
        }
        diagnostics.push_back(bindingError("bind-no-kernel", at, msg));
        return std::optional<TritonBinding>{};
    }

    const std::vector<int> specArgs = boundSpecParams(spec, target);
    std::vector<std::string> specNames;
    for (int i : specArgs) {
        specNames.push_back(spec.params[static_cast<size_t>(i)].name);
    }
    const std::vector<triton::SignatureParam> sig = triton::signatureOf(*fn);
    const std::vector<std::string> runtimeNames = runtimeParams(*fn);
    if (runtimeNames.size() != specArgs.size()) {
        diagnostics.push_back(bindingError(
            "bind-param-count", fn->nameRange,
            fmt::format("`{}` takes {} runtime parameter{} ({}), but the exercise passes {} ({}) in this order: "
                        "make the parameters that are not tl.constexpr match them one for one",
                        target.entry, runtimeNames.size(), runtimeNames.size() == 1 ? "" : "s", joined(runtimeNames),
                        specArgs.size(), joined(specNames))));
        return std::optional<TritonBinding>{};
    }

    TritonBinding b;
    b.input.module = &src.parsed.module;
    b.input.entry = target.entry;
    for (int i : specArgs) {
        const problem::ArgInstance& a = inst.args[static_cast<size_t>(i)];
        b.argIndex.push_back(i);
        ir::Type t;
        if (a.kind == problem::ParamKind::Buffer) {
            t.elem = ir::Elem::Ptr;
            t.pointee = tritonElem(target.reference ? engine::referenceDType(a.dtype) : a.dtype);
        } else {
            t.elem = tritonElem(target.reference && engine::isFloating(a.dtype) ? engine::DType::F64 : a.dtype);
        }
        b.input.runtimeParamTypes.push_back(t);
    }

    // Constexprs: the track's own values first, then the exercise's meta (the job's values).
    std::vector<std::string> offered;
    for (const auto& [name, m] : *target.trackMeta) {
        offered.push_back(name);
    }
    if (!target.reference) {
        for (const auto& [name, v] : inst.meta) {
            offered.push_back(name);
        }
    }
    for (const auto& p : sig) {
        if (!p.constexpr_) {
            continue;
        }
        if (auto it = target.trackMeta->find(p.name); it != target.trackMeta->end()) {
            auto v = metaValue(p.name, it->second, inst);
            if (!v) {
                return v.error();
            }
            b.input.constexprs[p.name] = *v;
        } else if (auto m = inst.meta.find(p.name); !target.reference && m != inst.meta.end()) {
            b.input.constexprs[p.name] = ConstexprValue::ofInt(m->second);
        } else if (!p.hasDefault) {
            diagnostics.push_back(bindingError(
                "bind-constexpr-unset", p.range,
                fmt::format("`{}` is a tl.constexpr parameter that the exercise does not set{}: give it a default "
                            "(`{}: tl.constexpr = …`) or use one of the exercise's names",
                            p.name, offered.empty() ? "" : " (it sets " + joined(offered) + ")", p.name)));
            return std::optional<TritonBinding>{};
        }
    }
    auto metaInt = [&](const char* name, int fallback) {
        if (auto m = inst.meta.find(name); !target.reference && m != inst.meta.end()) {
            return static_cast<int>(m->second);
        }
        return fallback;
    };
    b.input.numWarps = metaInt("NUM_WARPS", 4);
    b.input.numStages = metaInt("NUM_STAGES", 3);

    if (target.reference) {
        for (size_t d = 0; d < target.grid.size() && d < 3; ++d) {
            auto g = problem::evaluateCount(target.grid[d], inst.variables, fmt::format("/triton/reference/grid/{}", d));
            if (!g) {
                return g.error();
            }
            b.grid[d] = std::max<int64_t>(1, *g);
        }
    } else {
        b.grid = inst.launch.grid;
    }

    b.key = target.entry;
    for (const auto& t : b.input.runtimeParamTypes) {
        b.key += "|" + t.str();
    }
    for (const auto& [name, v] : b.input.constexprs) {
        b.key += "|" + name + "=" + v.str();
    }
    b.key += fmt::format("|w{}|s{}", b.input.numWarps, b.input.numStages);
    return std::optional<TritonBinding>{std::move(b)};
}

} // namespace tkm::runner
