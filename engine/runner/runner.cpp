#include "engine/runner/runner.h"
#include "engine/common/clock.h"

#include "engine/check/compare.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/driver.h"
#include "engine/problem/generate.h"
#include "engine/report/convert.h"
#include "engine/runner/case_run.h"
#include "engine/runner/check_case.h"
#include "engine/runner/device_print.h"
#include "engine/runner/diagnose.h"
#include "engine/runner/session.h"
#include "engine/runner/subprocess.h"
#include "engine/runner/triton_job.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>

namespace tkm::runner {
namespace {

using engine::Clock;
using engine::msSince;

using report::errorReport;

} // namespace

namespace detail {

engine::Expected<const Loaded*> load(std::map<std::string, std::unique_ptr<Loaded>>& cache,
                                     const compile::CompileResult& c)
{
    if (auto it = cache.find(c.cacheKey); it != cache.end()) {
        return static_cast<const Loaded*>(it->second.get());
    }
    auto module = cuda::Module::load(c.cubin);
    if (!module) {
        return module.error();
    }
    auto kernel = module->kernel(c.loweredName);
    if (!kernel) {
        return kernel.error();
    }
    if (cache.size() >= 64) {
        cache.clear(); // a simple bound: learners rarely cycle through more than a few versions
    }
    auto entry = std::make_unique<Loaded>(Loaded{std::move(*module), *kernel});
    const Loaded* raw = entry.get();
    cache[c.cacheKey] = std::move(entry);
    return raw;
}

} // namespace detail

report::DeviceInfo toReportDevice(const cuda::DeviceInfo& info)
{
    report::DeviceInfo d;
    d.name = info.name;
    d.cc = info.ccString();
    d.sms = info.sms;
    d.l2Bytes = info.l2Bytes;
    d.memoryBytes = info.memoryBytes;
    d.driver = cuda::versionString(info.driverVersion);
    d.theoreticalGbps = info.theoreticalGbps();
    return d;
}

Runner::Runner(RunnerOptions options) : m_options(std::move(options))
{
    if (m_options.probeExecutable.empty()) {
        m_options.probeExecutable = defaultTkmRunPath();
    }
}

Runner::~Runner() = default;

bool Runner::mustExit() const
{
    return (m_session && m_session->broken) || cuda::stickyFailure().has_value();
}

std::optional<report::DeviceInfo> Runner::device(std::string* why)
{
    if (!m_session) {
        const cuda::Driver& d = cuda::Driver::instance();
        if (!d.ready()) {
            if (why != nullptr) {
                *why = d.message();
            }
            return std::nullopt;
        }
        auto ctx = cuda::Context::create(m_options.deviceOrdinal);
        if (!ctx) {
            if (why != nullptr) {
                *why = ctx.error().message;
            }
            return std::nullopt;
        }
        auto stream = cuda::Stream::create();
        if (!stream) {
            if (why != nullptr) {
                *why = stream.error().message;
            }
            return std::nullopt;
        }
        m_session = std::make_unique<Session>();
        m_session->context = std::move(*ctx);
        m_session->stream = std::move(*stream);
    }
    return toReportDevice(m_session->context.info());
}

namespace {

std::string caseListText(const std::vector<report::CaseInfo>& cases)
{
    int failed = 0;
    const report::CaseInfo* firstFail = nullptr;
    for (const auto& c : cases) {
        if (c.verdict == report::CaseVerdict::Fail) {
            ++failed;
            if (firstFail == nullptr) {
                firstFail = &c;
            }
        }
    }
    if (firstFail == nullptr) {
        return fmt::format("All {} cases pass.", cases.size());
    }
    return fmt::format("{} of {} cases fail; first “{}”: {}", failed, cases.size(), firstFail->name,
                       firstFail->message.empty() ? "wrong values." : firstFail->message);
}

} // namespace

report::RunReport Runner::run(const Job& job, const ProgressFn& progress)
{
    // A Triton kernel's own @triton.autotune configurations tune it, as the real autotuner would.
    if (isTritonSource(job.sourceName)) {
        if (auto tuned = detail::tritonAutotuneJob(job)) {
            return runTuning(*tuned, progress);
        }
    }
    return job.configs.empty() ? runOne(job, progress, false) : runTuning(job, progress);
}

const cuda::Context* Runner::context() const
{
    return m_session ? &m_session->context : nullptr;
}

const cuda::Stream* Runner::stream() const
{
    return m_session ? &m_session->stream : nullptr;
}

report::RunReport Runner::runOne(const Job& job, const ProgressFn& progressIn, bool tuning)
{
    const auto t0 = Clock::now();
    const ProgressFn progress = progressIn ? progressIn : [](const Progress&) {};
    report::RunReport r;
    r.engineVersion = TKM_ENGINE_VERSION;
    r.created = report::utcNow();

    auto spec = problem::loadSpec(job.exercise);
    if (!spec) {
        return errorReport(std::move(r), spec.error());
    }
    r.exercise = report::ExerciseInfo{spec->id, spec->title, spec->kernel};
    auto repeat = detail::applyResetToZero(job, tuning, *spec);
    if (!repeat) {
        return errorReport(std::move(r), repeat.error());
    }
    auto meta = problem::resolveMeta(*spec, job.meta);
    if (!meta) {
        return errorReport(std::move(r), meta.error());
    }
    r.meta = *meta;

    if (isTritonSource(job.sourceName)) {
        if (spec->triton && !spec->triton->tolerance.empty()) {
            spec->tolerance = spec->triton->tolerance; // the track's own tolerance (problem/spec.h, TritonTrack)
        }
        // auto: the GPU when one is usable, else the CPU interpreter; a compile-only auto job is checked only.
        const bool cpu = job.device == Device::Cpu ||
                         (job.device == Device::Auto && (job.mode == Mode::CompileOnly || !device().has_value()));
        if (cpu) {
            return detail::runTritonOnCpu(job, *spec, *meta, *repeat, progress, std::move(r));
        }
        return runTritonGpu(job, *spec, *meta, *repeat, progress, std::move(r), t0);
    }
    r.language = "cuda";
    if (job.device == Device::Cpu) {
        return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                           "The CPU interpreter runs Triton kernels (.py files); a "
                                                           "CUDA C++ kernel needs an NVIDIA GPU. Use --device gpu "
                                                           "(or auto), or write the kernel in Triton."));
    }
    GpuTarget target = gpuTarget(job, r);
    if (target.unusable) {
        return errorReport(std::move(r), *target.unusable);
    }
    if (target.fresh && job.measure && spec->performance) {
        startBackgroundWarm(*spec, *meta); // CUPTI set-up and the performance case beside the compile and cases
    }

    progress({"compile", 0, 0, "compiling " + job.sourceName, ""});
    const auto tc = Clock::now();
    auto compiled =
        compile::compileKernel(compile::learnerRequest(*spec, *meta, job.source, job.sourceName, target.cc));
    if (!compiled) {
        return errorReport(std::move(r), compiled.error());
    }
    r.compile = report::toCompileInfo(*compiled);
    r.stagesMs["compile"] = msSince(tc);
    if (!compiled->ok) {
        r.verdict = report::Verdict::CompileError;
        const std::string first = compiled->firstError();
        r.summary = first.empty() ? "The kernel does not compile; see the compiler log."
                                  : "The kernel does not compile: " + first;
        r.stagesMs["total"] = msSince(t0);
        return r;
    }
    if (job.mode == Mode::CompileOnly || target.noGpu) {
        return compiledOnly(std::move(r), fmt::format("The kernel compiles for {}.", compiled->arch), target, t0);
    }
    auto reference = referenceKernel(*spec, target.cc);
    if (!reference) {
        return errorReport(std::move(r), reference.error());
    }
    auto learner = detail::load(m_session->modules, *compiled);
    if (!learner) {
        return errorReport(std::move(r), learner.error());
    }
    if (r.compile->resources) {
        r.compile->resources->maxThreadsPerBlock = (*learner)->kernel.maxThreadsPerBlock();
    }
    const cuda::Kernel& kernel = (*learner)->kernel;
    const CaseKernel one{&kernel, detail::usesDevicePrintf(compiled->cubin)};
    CaseKernelFn kernelFor = [one](problem::ProblemInstance&) -> engine::Expected<CaseKernel> { return one; };
    CasesResult cases;
    r = runCases(job, *spec, *meta, *repeat, progress, std::move(r), kernelFor, **reference, cases);
    if (cases.allPass) {
        measurePassing(job, *spec, *meta, *compiled, kernel, std::nullopt, progress, r);
    }
    addDeepCheck(job, *spec, *meta, job.cases.empty() ? allCases(*spec) : job.cases, progress, r);
    r.stagesMs["total"] = msSince(t0);
    return r;
}

Runner::GpuTarget Runner::gpuTarget(const Job& job, report::RunReport& r)
{
    // The device decides the architecture; without one we still compile (for the default) and say why.
    GpuTarget t;
    t.cc = compile::kDefaultCc;
    if (job.mode == Mode::Run) {
        if (mustExit()) {
            t.unusable = engine::makeError(engine::ErrorKind::Internal,
                                           "The GPU context is unusable after a kernel fault; start a fresh worker.");
            return t;
        }
        std::string why;
        const bool fresh = !m_session;
        if (auto dev = device(&why)) {
            if (fresh) {
                r.stagesMs["context"] = m_session->context.createMs();
            }
            r.device = *dev;
            t.cc = m_session->context.info().cc();
            t.fresh = fresh;
        } else {
            const cuda::Driver& d = cuda::Driver::instance();
            t.noGpu = d.ready() ? engine::makeError(engine::ErrorKind::Cuda, why) : d.unavailableError();
        }
    }
    if (job.computeCapability) {
        t.cc = *job.computeCapability;
    }
    return t;
}

report::RunReport Runner::compiledOnly(report::RunReport r, std::string summary, const GpuTarget& target, TimePoint t0)
{
    r.verdict = report::Verdict::Compiled;
    r.summary = std::move(summary);
    if (target.noGpu) {
        r.summary += " It was not run: " + target.noGpu->message;
        r.error = report::ErrorInfo{std::string(engine::errorKindName(target.noGpu->kind)), target.noGpu->message};
    }
    r.stagesMs["total"] = msSince(t0);
    return r;
}

engine::Expected<const cuda::Kernel*> Runner::referenceKernel(const problem::ExerciseSpec& spec, int cc)
{
    auto refReq = compile::referenceRequest(spec, cc);
    if (!refReq) {
        return refReq.error();
    }
    auto refCompiled = compile::compileKernel(*refReq);
    if (!refCompiled) {
        return refCompiled.error();
    }
    if (!refCompiled->ok) {
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "The exercise's reference kernel does not compile: " + refCompiled->firstError());
    }
    auto reference = detail::load(m_session->modules, *refCompiled);
    if (!reference) {
        return reference.error();
    }
    return &(*reference)->kernel;
}

report::RunReport Runner::runCases(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                                   const detail::RepeatPlan& repeat, const ProgressFn& progress, report::RunReport r,
                                   const CaseKernelFn& learnerFor, const cuda::Kernel& reference, CasesResult& out)
{
    out = CasesResult{};
    Session& s = *m_session;
    std::vector<int> indices = job.cases;
    if (indices.empty()) {
        for (int i = 0; i < static_cast<int>(spec.cases.size()); ++i) {
            indices.push_back(i);
        }
    }
    r.executor = "gpu";
    const auto tk = Clock::now();
    const int n = static_cast<int>(indices.size());
    // Reference outputs and inputs are held per case; the loaded reference's handle names its CUBIN here.
    const std::string refKey = fmt::format("{}", static_cast<const void*>(reference.handle()));
    s.cases.prefetch(detail::caseList(spec, meta, indices, refKey));
    for (int k = 0; k < n; ++k) {
        const int ci = indices[k];
        if (ci < 0 || ci >= static_cast<int>(spec.cases.size())) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                               fmt::format("case {} does not exist (the exercise has "
                                                                           "{} cases)",
                                                                           ci, spec.cases.size())));
        }
        const problem::Case& c = spec.cases[ci];
        progress({"case", k + 1, n, fmt::format("checking case {} of {}: {}", k + 1, n, c.name), c.name});
        auto inst = problem::instantiate(spec, c, meta, ci);
        if (!inst) {
            return errorReport(std::move(r), inst.error());
        }
        auto learner = learnerFor(*inst);
        if (!learner) {
            return errorReport(std::move(r), learner.error());
        }
        // A launch of a kernel that prints from many threads can take seconds: each launch says so first, and the
        // client allows a "print" stage the diagnosis grace (worker::allowedSilence).
        std::function<void()> announce;
        if (learner->prints) {
            announce = [&progress, k, n, &c] {
                progress(
                    {"print", k + 1, n,
                     fmt::format("case {} of {}: {} — the kernel prints (device printf is slow)", k + 1, n, c.name),
                     c.name});
            };
        }
        const detail::CaseResources res{&s.cases, detail::CaseCache::caseKey(*inst, refKey), &s.pool};
        detail::CaseOutcome co =
            detail::runCase(s.context, s.stream, *learner->kernel, reference, *inst, repeat, announce, res);
        for (const auto& [stage, ms] : co.stageMs) {
            r.stagesMs["cases_" + stage] += ms;
        }
        detail::keepPrinted(r, co.printed, co.printedDropped);
        if (co.fault) {
            s.broken = true;
        }
        if (co.engineError && !co.fault) {
            return errorReport(std::move(r), *co.engineError);
        }
        if (co.fault && co.faultLaunch == 0) {
            return errorReport(std::move(r), *co.engineError);
        }
        if (co.fault) {
            r.stagesMs["cases"] = msSince(tk);
            const auto td = Clock::now();
            FaultContext fc{
                job,     ci, *inst, *co.fault, co.faultLaunch, m_options.probeExecutable, m_options.probeTimeoutS,
                progress};
            fc.printed = co.printed;
            report::FaultInfo fault = diagnoseFault(fc);
            co.info.message = fault.message;
            r.cases.push_back(std::move(co.info));
            for (int rest = k + 1; rest < n; ++rest) {
                report::CaseInfo skipped;
                skipped.name = spec.cases[indices[rest]].name;
                skipped.sizes = spec.cases[indices[rest]].sizes;
                skipped.verdict = report::CaseVerdict::Skipped;
                r.cases.push_back(std::move(skipped));
            }
            r.verdict = report::Verdict::Fault;
            r.summary = fault.message;
            r.fault = std::move(fault);
            out.faultCase = ci;
            r.stagesMs["diagnose"] = msSince(td);
            addDeepCheck(job, spec, meta, indices, progress, r);
            return r;
        }
        r.cases.push_back(std::move(co.info));
    }
    r.stagesMs["cases"] = msSince(tk);

    out.allPass = true;
    for (const auto& c : r.cases) {
        out.allPass = out.allPass && c.verdict == report::CaseVerdict::Pass;
    }
    r.verdict = out.allPass ? report::Verdict::Pass : report::Verdict::Fail;
    r.summary = caseListText(r.cases);
    return r;
}

void Runner::measurePassing(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                            const compile::CompileResult& compiled, const cuda::Kernel& kernel,
                            std::optional<problem::LaunchDims> launch, const ProgressFn& progress, report::RunReport& r)
{
    // Measure phase: only for a correct kernel, and only when one is installed (engine/measure).
    if (!job.measure || !m_options.measure) {
        return;
    }
    if (!r.printed.empty() || r.printedDropped > 0) {
        // Device printf dominates such a kernel's time, and every timed launch would print again.
        r.summary += " Not timed: the kernel prints (device printf); remove the prints to time it.";
        return;
    }
    Session& s = *m_session;
    if (s.warming.valid()) {
        waitForWarm(r);
    }
    const auto tm = Clock::now();
    MeasureInput in{s.context, s.stream, kernel, spec, meta, compiled, progress, launch};
    if (auto st = m_options.measure(in, r); !st) {
        r.summary += " Measuring failed: " + st.error().message;
    }
    if (cuda::stickyFailure()) {
        s.broken = true;
    }
    r.stagesMs["measure"] = msSince(tm);
}

std::vector<int> Runner::allCases(const problem::ExerciseSpec& spec)
{
    std::vector<int> all;
    for (int i = 0; i < static_cast<int>(spec.cases.size()); ++i) {
        all.push_back(i);
    }
    return all;
}

} // namespace tkm::runner
