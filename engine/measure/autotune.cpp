#include "engine/measure/autotune.h"

#include "engine/compile/compiler.h"
#include "engine/cuda/module.h"
#include "engine/measure/perf_case.h"

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
                                          int cc, const TimingOptions& timing)
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
    AutotuneResult out;
    for (const problem::MetaValues& meta : resolved) {
        auto fail = [&](const std::string& why) {
            for (const auto& shape : spec.autotune->shapes)
                out.samples.push_back(AutotuneSample{meta, shape, 0, false, why});
        };
        auto compiled = compile::compileKernel(compile::learnerRequest(spec, meta, source, "kernel.cu", cc));
        if (!compiled) {
            fail(compiled.error().message);
            continue;
        }
        if (!compiled->ok) {
            fail("does not compile: " + compiled->firstError());
            continue;
        }
        auto module = cuda::Module::load(compiled->cubin);
        if (!module) {
            fail(module.error().message);
            continue;
        }
        auto kernel = module->kernel(compiled->loweredName);
        if (!kernel) {
            fail(kernel.error().message);
            continue;
        }
        int shapeIndex = 0;
        for (const auto& shape : spec.autotune->shapes) {
            AutotuneSample s{meta, shape, 0, false, {}};
            problem::Case c;
            c.name = "autotune shape " + std::to_string(shapeIndex + 1);
            c.sizes = shape;
            auto pc = PerfCase::create(measurer, spec, meta, c, 1000 + shapeIndex++);
            if (!pc) {
                s.error = pc.error().message;
                out.samples.push_back(std::move(s));
                continue;
            }
            auto w = (*pc)->workload(*kernel, (*pc)->instance().launch, spec.kernel);
            if (!w) {
                s.error = w.error().message;
                out.samples.push_back(std::move(s));
                continue;
            }
            auto t = measurer.time(*w, stream, timing);
            if (!t) {
                // A launch failure may be sticky (a fault): stop, the context is unusable.
                return t.error();
            }
            s.medianMs = t->samples.medianMs;
            s.settled = t->settled;
            out.samples.push_back(std::move(s));
        }
    }
    out.winners = pickWinners(out.samples, spec.autotune->key);
    return out;
}

} // namespace tkm::measure
