// Runner::warm (the worker's warm-up request), the measure phase's warm-up beside a fresh worker's first job, and
// the deep check hook (runner.h, deep_check.h).
#include "engine/common/clock.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/driver.h"
#include "engine/report/convert.h"
#include "engine/runner/check_case.h"
#include "engine/runner/deep_check.h"
#include "engine/runner/runner.h"
#include "engine/runner/session.h"

#include <fmt/format.h>

#include <future>

namespace tkm::runner {

using engine::Clock;
using engine::msSince;
using report::errorReport;

report::RunReport Runner::warm(const std::filesystem::path& exercise, const ProgressFn& progressIn)
{
    const auto t0 = Clock::now();
    const ProgressFn progress = progressIn ? progressIn : [](const Progress&) {};
    report::RunReport r;
    r.engineVersion = TKM_ENGINE_VERSION;
    r.created = report::utcNow();
    std::optional<problem::ExerciseSpec> spec;
    std::optional<problem::MetaValues> meta;
    if (!exercise.empty()) {
        auto loaded = problem::loadSpec(exercise);
        if (!loaded) {
            return errorReport(std::move(r), loaded.error());
        }
        spec = std::move(*loaded);
        r.exercise = report::ExerciseInfo{spec->id, spec->title, spec->kernel};
        auto m = problem::resolveMeta(*spec, {});
        if (!m) {
            return errorReport(std::move(r), m.error());
        }
        meta = std::move(*m);
    }
    progress({"warm", 0, 0, "starting the GPU", ""});
    const bool fresh = !m_session;
    std::string why;
    auto dev = device(&why);
    if (!dev) {
        const cuda::Driver& d = cuda::Driver::instance();
        return errorReport(std::move(r), d.ready() ? engine::makeError(engine::ErrorKind::Cuda, why)
                                                   : d.unavailableError());
    }
    r.device = *dev;
    if (fresh) {
        r.stagesMs["context"] = m_session->context.createMs();
    }
    Session& s = *m_session;
    if (s.warming.valid()) {
        waitForWarm(r);
    }
    if (spec) {
        const auto tc = Clock::now();
        if (auto req = compile::referenceRequest(*spec, s.context.info().cc())) {
            if (auto c = compile::compileKernel(*req); c && c->ok) {
                if (auto loaded = detail::load(s.modules, *c)) {
                    warmCases(*spec, *meta, (*loaded)->kernel);
                }
            }
        }
        r.stagesMs["compile"] = msSince(tc);
    }
    if (m_options.warm) {
        WarmInput in{s.context, s.stream, spec ? &*spec : nullptr, meta ? &*meta : nullptr, true, progress};
        if (auto st = m_options.warm(in, r.stagesMs); !st) {
            r.summary = "The measure phase could not be prepared: " + st.error().message;
        }
    }
    r.verdict = report::Verdict::Pass;
    if (r.summary.empty()) {
        r.summary = "The worker is warm: the GPU context, the measurement set-up and the ceilings are ready.";
    }
    r.stagesMs["total"] = msSince(t0);
    return r;
}

void Runner::warmCases(const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                       const cuda::Kernel& reference)
{
    // The first Run's case inputs (with their float64 images) and the reference's outputs on them, held under
    // the key that Run looks them up by (runCases: the loaded reference's handle), so that Run launches only
    // the learner's kernel. A case that cannot be prepared is left to the Run, which reports it.
    Session& s = *m_session;
    const std::vector<int> all = allCases(spec);
    const std::string refKey = fmt::format("{}", static_cast<const void*>(reference.handle()));
    s.cases.prefetch(detail::caseList(spec, meta, all, refKey));
    for (const int ci : all) {
        auto inst = problem::instantiate(spec, spec.cases[static_cast<std::size_t>(ci)], meta, ci);
        if (!inst) {
            continue;
        }
        const detail::CaseResources res{&s.cases, detail::CaseCache::caseKey(*inst, refKey), &s.pool};
        if (!detail::warmCase(s.context, s.stream, reference, *inst, res)) {
            return;
        }
    }
}

void Runner::startBackgroundWarm(const problem::ExerciseSpec& spec, const problem::MetaValues& meta)
{
    Session& s = *m_session;
    if (!m_options.warm || !m_options.warmInBackground || s.warming.valid()) {
        return;
    }
    // Beside the first job's compile and cases: the CUPTI set-up and the performance case's inputs (seconds of
    // host work on a cold worker). The ceilings wait for the measure phase, which times a copy on an idle GPU.
    s.warming = std::async(std::launch::async, [&s, warmFn = m_options.warm, spec, meta]() -> engine::Status {
        if (auto st = s.context.makeCurrent(); !st) {
            return st;
        }
        const ProgressFn none;
        WarmInput in{s.context, s.stream, &spec, &meta, false, none};
        return warmFn(in, s.warmStages);
    });
}

void Runner::waitForWarm(report::RunReport& r)
{
    Session& s = *m_session;
    const auto tw = Clock::now();
    const engine::Status st = s.warming.get();
    r.stagesMs["warm_wait"] = msSince(tw);
    for (const auto& [stage, ms] : s.warmStages) {
        r.stagesMs["warm_" + stage] = ms;
    }
    s.warmStages.clear();
    (void)st; // a failed warm-up is repeated, and reported, by the measure phase itself
}

void Runner::addDeepCheck(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                          const std::vector<int>& indices, const ProgressFn& progress, report::RunReport& r) const
{
    if (!job.deepCheck || r.deepCheck) {
        return;
    }
    const auto td = Clock::now();
    const int ci = chooseDeepCheckCase(job, spec, meta, indices, r.cases);
    r.deepCheck = deepCheck(job, ci, spec.cases[ci].name, m_options.probeExecutable, 120, progress);
    r.stagesMs["deep_check"] = msSince(td);
}

} // namespace tkm::runner
