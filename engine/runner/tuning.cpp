// Tuning jobs (Job::configs): every configuration is checked on the cases as a plain job whose first launch is
// repeated on the same buffers (check_case.h), then the passing ones are timed by the autotune phase.
#include "engine/common/error.h"
#include "engine/problem/meta_text.h"
#include "engine/report/convert.h"
#include "engine/runner/check_case.h"
#include "engine/runner/runner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace tkm::runner {
namespace {

using Clock = std::chrono::steady_clock;

using report::errorReport;

std::string outputNames(const problem::ExerciseSpec& spec)
{
    std::string out;
    for (const auto& p : spec.params)
        if (p.kind == problem::ParamKind::Buffer && p.role != problem::Role::In)
            out += (out.empty() ? "" : ", ") + p.name;
    return out;
}

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

// The verdict of a tuning job from its configurations': a fault or an engine error wins, then failures.
report::Verdict overallVerdict(const std::vector<report::RunReport>& reports)
{
    using report::Verdict;
    for (Verdict v : {Verdict::Error, Verdict::Fault, Verdict::Timeout, Verdict::CompileError, Verdict::Fail,
                      Verdict::Compiled})
        for (const auto& r : reports)
            if (r.verdict == v)
                return v;
    return Verdict::Pass;
}

} // namespace

namespace detail {

engine::Expected<RepeatPlan> applyResetToZero(const Job& job, bool tuning, problem::ExerciseSpec& spec)
{
    RepeatPlan plan;
    if (job.resetToZero) {
        for (const std::string& name : *job.resetToZero) {
            const problem::Param* p = spec.findParam(name);
            if (!p || p->kind != problem::ParamKind::Buffer || p->role == problem::Role::In)
                return engine::makeError(engine::ErrorKind::BadInput,
                                         fmt::format("reset_to_zero names `{}`, which is not an output buffer of `{}` "
                                                     "(its outputs: {}).",
                                                     name, spec.kernel, outputNames(spec)));
        }
    }
    if (!tuning) {
        if (job.resetToZero)
            spec.resetToZero = *job.resetToZero;
        return plan;
    }
    const std::vector<std::string> declared = job.resetToZero.value_or(std::vector<std::string>{});
    const bool mustDeclare = spec.autotune && spec.autotune->declareResetToZero;
    plan.launches = kTuningLaunches;
    plan.resetBetween = declared;
    for (const std::string& name : spec.resetToZero) {
        if (contains(declared, name))
            continue;
        if (mustDeclare)
            plan.mustDeclare.push_back(name);
        else
            plan.resetBetween.push_back(name);
    }
    // The caller's buffers start at zero (torch.zeros) for the spec's outputs and the declared ones.
    for (const std::string& name : declared)
        if (!contains(spec.resetToZero, name))
            spec.resetToZero.push_back(name);
    return plan;
}

} // namespace detail

report::RunReport Runner::runTuning(const Job& job, const ProgressFn& progressIn)
{
    const auto t0 = Clock::now();
    const ProgressFn progress = progressIn ? progressIn : [](const Progress&) {};
    report::RunReport r;
    r.engineVersion = TKM_ENGINE_VERSION;
    r.created = report::utcNow();
    auto spec = problem::loadSpec(job.exercise);
    if (!spec)
        return errorReport(std::move(r), spec.error());
    r.exercise = report::ExerciseInfo{spec->id, spec->title, spec->kernel};
    if (!spec->autotune)
        return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                           fmt::format("The exercise \"{}\" has no autotune block: "
                                                                       "run it with one set of meta-parameters "
                                                                       "instead of a list of configurations.",
                                                                       spec->id)));
    const int need = spec->autotune->minConfigs;
    const int given = static_cast<int>(job.configs.size());
    if (given < need)
        return errorReport(std::move(r),
                           engine::makeError(engine::ErrorKind::BadInput,
                                             fmt::format("This exercise needs at least {} configurations to autotune; "
                                                         "{} {} given. Add {} more (in the app's configuration table, "
                                                         "or another --config NAME=VALUE,… to tkm-run).",
                                                         need, given, given == 1 ? "was" : "were", need - given)));
    std::vector<problem::MetaValues> resolved;
    for (int k = 0; k < given; ++k) {
        problem::MetaValues merged = job.meta;
        for (const auto& [name, value] : job.configs[k])
            merged[name] = value;
        auto m = problem::resolveMeta(*spec, merged);
        if (!m)
            return errorReport(std::move(r), engine::makeError(m.error().kind,
                                                               fmt::format("Configuration {} ({}): {}", k + 1,
                                                                           problem::formatMetaAssignments(
                                                                               job.configs[k]),
                                                                           m.error().message)));
        resolved.push_back(*m);
    }

    report::AutotuneInfo at;
    at.key = spec->autotune->key;
    at.shapes = spec->autotune->shapes;
    at.resetToZero = job.resetToZero.value_or(std::vector<std::string>{});
    at.launchesPerCheck = detail::kTuningLaunches;
    std::vector<report::RunReport> reports;
    bool contextLost = false;
    for (int k = 0; k < given; ++k) {
        const std::string label = problem::formatMetaAssignments(resolved[k]);
        if (contextLost) {
            at.configs.push_back({resolved[k], report::ConfigVerdict::Skipped, "Not checked: an earlier configuration faulted."});
            continue;
        }
        Job one = job;
        one.configs.clear();
        one.meta = resolved[k];
        one.measure = false;
        const ProgressFn tagged = [&](const Progress& p) {
            Progress q = p;
            q.text = fmt::format("configuration {} of {} ({}): {}", k + 1, given, label, p.text);
            progress(q);
        };
        report::RunReport sub = runOne(one, tagged, true);
        at.configs.push_back({resolved[k], report::toConfigVerdict(sub.verdict), sub.summary});
        contextLost = sub.verdict == report::Verdict::Fault || mustExit();
        const bool stop = sub.verdict == report::Verdict::Error;
        reports.push_back(std::move(sub));
        if (stop)
            break;
    }

    // The report shows the cases of the first configuration that does not pass (else the first one's).
    const report::Verdict verdict = overallVerdict(reports);
    auto shown = std::find_if(reports.begin(), reports.end(),
                              [&](const report::RunReport& x) { return x.verdict == verdict; });
    r = std::move(*shown);
    r.verdict = verdict;
    int passing = 0;
    for (const auto& c : at.configs)
        passing += c.verdict == report::ConfigVerdict::Pass ? 1 : 0;
    if (verdict == report::Verdict::Pass) {
        r.summary = fmt::format("All {} configurations pass every case.", given);
    } else if (verdict != report::Verdict::Error && verdict != report::Verdict::Compiled) {
        const auto firstBad = std::find_if(at.configs.begin(), at.configs.end(),
                                           [](const report::AutotuneConfigInfo& c) { return c.verdict != report::ConfigVerdict::Pass; });
        r.summary = fmt::format("{} of {} configurations pass; {}: {}", passing, given,
                                problem::formatMetaAssignments(firstBad->meta), firstBad->summary);
    }

    std::vector<problem::MetaValues> timed;
    std::vector<int> indices;
    for (int k = 0; k < static_cast<int>(at.configs.size()); ++k)
        if (at.configs[k].verdict == report::ConfigVerdict::Pass) {
            timed.push_back(at.configs[k].meta);
            indices.push_back(k);
        }
    if (timed.empty()) {
        at.note = verdict == report::Verdict::Compiled ? "Not timed: there is no GPU to run on."
                                        : "Nothing was timed: no configuration passes the cases, and the time of a "
                                          "wrong kernel means nothing. Fix the failing cases first.";
    } else if (isTritonSource(job.sourceName) && r.executor != "gpu") {
        at.note = "Not timed: the configurations ran on the CPU interpreter, which checks correctness only (timing "
                  "needs an NVIDIA GPU).";
    } else if (isTritonSource(job.sourceName)) {
        at.note = "Not timed: each configuration was checked on the GPU, but timing the configurations of a Triton "
                  "kernel is not built yet.";
    } else if (!m_options.autotune) {
        at.note = "Not timed: this engine has no autotune phase installed (run through tkm-run or the app).";
    } else if (mustExit() || !context() || !stream()) {
        at.note = "Not timed: the GPU context is unusable after a kernel fault.";
    } else {
        const auto tt = Clock::now();
        const int cc = job.computeCapability.value_or(context()->info().cc());
        AutotuneInput in{*context(), *stream(), *spec, job.source, timed, indices, cc, progress};
        if (auto st = m_options.autotune(in, at); !st)
            at.note = "Timing failed: " + st.error().message;
        r.stagesMs["autotune"] = std::chrono::duration<double, std::milli>(Clock::now() - tt).count();
        if (!at.winners.empty() && verdict == report::Verdict::Pass) {
            std::string names;
            for (const auto& w : at.winners) {
                std::string key;
                for (const auto& [n, v] : w.key)
                    key += (key.empty() ? "" : ", ") + n + "=" + std::to_string(v);
                names += fmt::format(" {}: {} ({:.3f} ms, {:.2f}× the slowest).", key, at.configLabel(w.config),
                                     w.medianMs, w.speedupOverSlowest);
            }
            r.summary += " Winners —" + names;
        }
    }
    r.autotune = std::move(at);
    r.stagesMs["total"] = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return r;
}

} // namespace tkm::runner
