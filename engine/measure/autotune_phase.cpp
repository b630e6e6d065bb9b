#include "engine/measure/autotune_phase.h"

#include "engine/problem/meta_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

namespace tkm::measure {
namespace {

int indexOf(const std::vector<problem::MetaValues>& configs, const std::vector<int>& indices,
            const problem::MetaValues& config)
{
    const auto it = std::find(configs.begin(), configs.end(), config);
    return it == configs.end() ? -1 : indices[static_cast<size_t>(it - configs.begin())];
}

int shapeIndex(const report::AutotuneInfo& info, const std::map<std::string, int64_t>& shape)
{
    const auto it = std::find(info.shapes.begin(), info.shapes.end(), shape);
    return it == info.shapes.end() ? -1 : static_cast<int>(it - info.shapes.begin());
}

// The shapes whose key sizes equal `key`.
std::vector<int> shapesWithKey(const report::AutotuneInfo& info, const std::map<std::string, int64_t>& key)
{
    std::vector<int> out;
    for (size_t i = 0; i < info.shapes.size(); ++i) {
        bool same = true;
        for (const auto& [name, value] : key) {
            const auto it = info.shapes[i].find(name);
            same = same && it != info.shapes[i].end() && it->second == value;
        }
        if (same)
            out.push_back(static_cast<int>(i));
    }
    return out;
}

struct PhaseState
{
    TimingOptions timing;
    std::unique_ptr<Measurer> measurer;
    CUcontext context = nullptr;
};

} // namespace

TimingOptions autotuneTiming()
{
    TimingOptions t;
    t.stop.minSamples = 10;
    t.stop.maxRelativeSpread = 0.02;
    t.stop.budgetMs = 300;
    return t;
}

void fillAutotuneReport(const AutotuneResult& result, const std::vector<problem::MetaValues>& configs,
                        const std::vector<int>& configIndices, report::AutotuneInfo& info)
{
    info.samples.clear();
    info.winners.clear();
    for (const AutotuneSample& s : result.samples) {
        report::AutotuneSampleInfo out;
        out.config = indexOf(configs, configIndices, s.config);
        out.shape = shapeIndex(info, s.shape);
        if (s.error.empty() && s.medianMs > 0)
            out.medianMs = s.medianMs;
        out.settled = s.settled;
        out.error = s.error;
        info.samples.push_back(std::move(out));
    }
    for (const AutotuneWinner& w : result.winners) {
        report::AutotuneWinnerInfo out;
        out.key = w.key;
        out.shapes = shapesWithKey(info, w.key);
        out.config = indexOf(configs, configIndices, w.config);
        out.medianMs = w.medianMs;
        out.speedupOverSlowest = w.speedupOverSlowest;
        info.winners.push_back(std::move(out));
    }
}

runner::AutotuneFn makeAutotunePhase(TimingOptions timing)
{
    auto state = std::make_shared<PhaseState>();
    state->timing = timing;
    return [state](const runner::AutotuneInput& in, report::AutotuneInfo& info) -> engine::Status {
        if (!state->measurer || state->context != in.context.handle()) {
            auto m = Measurer::create(in.context, false);
            if (!m)
                return m.error();
            state->measurer = std::move(*m);
            state->context = in.context.handle();
        }
        const AutotuneProgress progress = [&](int done, int total, const AutotuneSample& s) {
            if (!in.progress)
                return;
            std::string shape;
            for (const auto& [name, value] : s.shape)
                shape += (shape.empty() ? "" : ", ") + name + " = " + std::to_string(value);
            in.progress(runner::Progress{"autotune", done, total,
                                         fmt::format("timing {} of {}: {} on {}", done, total,
                                                     problem::formatMetaAssignments(s.config), shape),
                                         ""});
        };
        auto result =
            autotune(*state->measurer, in.stream.handle(), in.spec, in.source, in.configs, in.cc, state->timing, progress);
        if (!result)
            return result.error();
        fillAutotuneReport(*result, in.configs, in.configIndices, info);
        return {};
    };
}

} // namespace tkm::measure
