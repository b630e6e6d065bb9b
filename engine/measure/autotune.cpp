#include "engine/measure/autotune.h"

#include "engine/compile/compiler.h"
#include "engine/cuda/module.h"
#include "engine/measure/perf_case.h"

#include <memory>
#include <optional>

namespace tkm::measure {
namespace {

std::map<std::string, int64_t> keyOf(const AutotuneSample& s, const std::vector<std::string>& key)
{
    std::map<std::string, int64_t> k;
    for (const std::string& name : key)
        if (auto it = s.shape.find(name); it != s.shape.end())
            k[name] = it->second;
    return k;
}

} // namespace

std::vector<AutotuneWinner> pickWinners(const std::vector<AutotuneSample>& samples, const std::vector<std::string>& key)
{
    std::vector<AutotuneWinner> winners;
    std::vector<double> slowest;
    for (const AutotuneSample& s : samples) {
        if (!s.error.empty() || s.medianMs <= 0)
            continue;
        const auto k = keyOf(s, key);
        size_t i = 0;
        while (i < winners.size() && winners[i].key != k)
            ++i;
        if (i == winners.size()) {
            winners.push_back(AutotuneWinner{k, s.config, s.medianMs, 0});
            slowest.push_back(s.medianMs);
            continue;
        }
        if (s.medianMs < winners[i].medianMs) {
            winners[i].config = s.config;
            winners[i].medianMs = s.medianMs;
        }
        slowest[i] = std::max(slowest[i], s.medianMs);
    }
    for (size_t i = 0; i < winners.size(); ++i)
        winners[i].speedupOverSlowest = slowest[i] / winners[i].medianMs;
    return winners;
}

engine::Expected<AutotuneResult> autotune(Measurer& measurer, CUstream stream, const problem::ExerciseSpec& spec,
                                          const std::string& source, const std::vector<problem::MetaValues>& configs,
                                          int cc, const TimingOptions& timing, const AutotuneProgress& progress)
{
    if (!spec.autotune)
        return engine::makeError(engine::ErrorKind::BadInput,
                                 "The exercise \"" + spec.id + "\" has no autotune section: there is nothing to tune.");
    if (static_cast<int>(configs.size()) < spec.autotune->minConfigs)
        return engine::makeError(engine::ErrorKind::BadInput,
                                 "List at least " + std::to_string(spec.autotune->minConfigs) +
                                     " configurations to autotune (" + std::to_string(configs.size()) + " given).");
    std::vector<problem::MetaValues> resolved;
    for (const problem::MetaValues& c : configs) {
        auto r = problem::resolveMeta(spec, c);
        if (!r)
            return r.error();
        resolved.push_back(*r);
    }
    // Compile and load every configuration first; one that fails gets its reason in all its samples.
    struct Compiled
    {
        std::optional<cuda::Module> module;
        std::optional<cuda::Kernel> kernel;
        std::string error;
    };
    std::vector<Compiled> kernels(resolved.size());
    for (size_t i = 0; i < resolved.size(); ++i) {
        auto compiled = compile::compileKernel(compile::learnerRequest(spec, resolved[i], source, "kernel.cu", cc));
        if (!compiled) {
            kernels[i].error = compiled.error().message;
            continue;
        }
        if (!compiled->ok) {
            kernels[i].error = "does not compile: " + compiled->firstError();
            continue;
        }
        auto module = cuda::Module::load(compiled->cubin);
        if (!module) {
            kernels[i].error = module.error().message;
            continue;
        }
        auto kernel = module->kernel(compiled->loweredName);
        if (!kernel) {
            kernels[i].error = kernel.error().message;
            continue;
        }
        kernels[i].module = std::move(*module);
        kernels[i].kernel = *kernel;
    }
    // Shape-outer: each shape's inputs are generated and uploaded once and shared by every configuration (the
    // buffers do not depend on meta-parameters; the launch does).
    const size_t nShapes = spec.autotune->shapes.size();
    std::vector<AutotuneSample> grid(resolved.size() * nShapes);
    const int total = static_cast<int>(grid.size());
    for (size_t si = 0; si < nShapes; ++si) {
        const auto& shape = spec.autotune->shapes[si];
        problem::Case c;
        c.name = "autotune shape " + std::to_string(si + 1);
        c.sizes = shape;
        std::unique_ptr<PerfCase> pc;
        std::string shapeError;
        if (auto created = PerfCase::create(measurer, spec, resolved.front(), c, 1000 + static_cast<int>(si)))
            pc = std::move(*created);
        else
            shapeError = created.error().message;
        for (size_t ci = 0; ci < resolved.size(); ++ci) {
            AutotuneSample& s = grid[ci * nShapes + si];
            s.config = resolved[ci];
            s.shape = shape;
            if (progress)
                progress(static_cast<int>(si * resolved.size() + ci + 1), total, s);
            if (!kernels[ci].error.empty() || !shapeError.empty()) {
                s.error = kernels[ci].error.empty() ? shapeError : kernels[ci].error;
                continue;
            }
            auto inst = problem::instantiate(spec, c, resolved[ci], 1000 + static_cast<int>(si));
            if (!inst) {
                s.error = inst.error().message;
                continue;
            }
            auto w = pc->workload(*kernels[ci].kernel, inst->launch, spec.kernel);
            if (!w) {
                s.error = w.error().message;
                continue;
            }
            auto t = measurer.time(*w, stream, timing);
            if (!t) {
                // A launch failure may be sticky (a fault): stop, the context is unusable.
                return t.error();
            }
            s.medianMs = t->samples.medianMs;
            s.settled = t->settled;
        }
    }
    AutotuneResult out;
    out.samples = std::move(grid);
    out.winners = pickWinners(out.samples, spec.autotune->key);
    return out;
}

} // namespace tkm::measure
