#include "engine/runner/runner.h"
#include "engine/common/clock.h"

#include "engine/check/compare.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/driver.h"
#include "engine/problem/generate.h"
#include "engine/report/convert.h"
#include "engine/runner/case_run.h"
#include "engine/runner/check_case.h"
#include "engine/runner/diagnose.h"
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

// A kernel loaded into the warm context, keyed by its CUBIN cache key.
struct Loaded
{
    cuda::Module module;
    cuda::Kernel kernel;
};

} // namespace

struct Runner::Session
{
    cuda::Context context;
    cuda::Stream stream;
    std::map<std::string, std::unique_ptr<Loaded>> modules;
    bool broken = false; // a sticky error happened
};

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

std::string caseListText(const std::vector<report::CaseInfo>& cases)
{
    int failed = 0;
    const report::CaseInfo* firstFail = nullptr;
    for (const auto& c : cases) {
        if (c.verdict == "fail") {
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
        // Triton kernels run on the CPU interpreter; their GPU lowering is not part of this engine yet.
        if (job.device == Device::Gpu) {
            return errorReport(std::move(r),
                               engine::makeError(engine::ErrorKind::BadInput,
                                                 "Triton kernels run on the CPU interpreter in this version: the "
                                                 "lowering of Triton to the GPU is not built yet. Use --device cpu "
                                                 "(or auto)."));
        }
        return detail::runTritonOnCpu(job, *spec, *meta, *repeat, progress, std::move(r));
    }
    r.language = "cuda";
    if (job.device == Device::Cpu) {
        return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                           "The CPU interpreter runs Triton kernels (.py files); a "
                                                           "CUDA C++ kernel needs an NVIDIA GPU. Use --device gpu "
                                                           "(or auto), or write the kernel in Triton."));
    }

    // The device decides the architecture; without one we still compile (for the default) and say why.
    std::optional<engine::Error> noGpu;
    int cc = compile::kDefaultCc;
    if (job.mode == Mode::Run) {
        if (mustExit()) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::Internal,
                                                               "The GPU context is unusable after a kernel fault; "
                                                               "start a fresh worker."));
        }
        std::string why;
        const bool fresh = !m_session;
        if (auto dev = device(&why)) {
            if (fresh) {
                r.stagesMs["context"] = m_session->context.createMs();
            }
            r.device = *dev;
            cc = m_session->context.info().cc();
        } else {
            const cuda::Driver& d = cuda::Driver::instance();
            noGpu = d.ready() ? engine::makeError(engine::ErrorKind::Cuda, why) : d.unavailableError();
        }
    }
    if (job.computeCapability) {
        cc = *job.computeCapability;
    }

    progress({"compile", 0, 0, "compiling " + job.sourceName, ""});
    const auto tc = Clock::now();
    auto compiled = compile::compileKernel(compile::learnerRequest(*spec, *meta, job.source, job.sourceName, cc));
    if (!compiled) {
        return errorReport(std::move(r), compiled.error());
    }
    r.compile = report::toCompileInfo(*compiled);
    r.stagesMs["compile"] = msSince(tc);
    if (!compiled->ok) {
        r.verdict = "compile_error";
        const std::string first = compiled->firstError();
        r.summary = first.empty() ? "The kernel does not compile; see the compiler log."
                                  : "The kernel does not compile: " + first;
        r.stagesMs["total"] = msSince(t0);
        return r;
    }
    if (job.mode == Mode::CompileOnly || noGpu) {
        r.verdict = "compiled";
        r.summary = fmt::format("The kernel compiles for {}.", compiled->arch);
        if (noGpu) {
            r.summary += " It was not run: " + noGpu->message;
            r.error = report::ErrorInfo{std::string(engine::errorKindName(noGpu->kind)), noGpu->message};
        }
        r.stagesMs["total"] = msSince(t0);
        return r;
    }

    auto refReq = compile::referenceRequest(*spec, cc);
    if (!refReq) {
        return errorReport(std::move(r), refReq.error());
    }
    auto refCompiled = compile::compileKernel(*refReq);
    if (!refCompiled) {
        return errorReport(std::move(r), refCompiled.error());
    }
    if (!refCompiled->ok) {
        return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadSpec,
                                                           "The exercise's reference kernel does not compile: " +
                                                               refCompiled->firstError()));
    }
    Session& s = *m_session;
    auto learner = load(s.modules, *compiled);
    if (!learner) {
        return errorReport(std::move(r), learner.error());
    }
    auto reference = load(s.modules, *refCompiled);
    if (!reference) {
        return errorReport(std::move(r), reference.error());
    }
    if (r.compile->resources) {
        r.compile->resources->maxThreadsPerBlock = (*learner)->kernel.maxThreadsPerBlock();
    }

    std::vector<int> indices = job.cases;
    if (indices.empty()) {
        for (int i = 0; i < static_cast<int>(spec->cases.size()); ++i) {
            indices.push_back(i);
        }
    }
    r.executor = "gpu";
    const auto tk = Clock::now();
    const int n = static_cast<int>(indices.size());
    for (int k = 0; k < n; ++k) {
        const int ci = indices[k];
        if (ci < 0 || ci >= static_cast<int>(spec->cases.size())) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                               fmt::format("case {} does not exist (the exercise has "
                                                                           "{} cases)",
                                                                           ci, spec->cases.size())));
        }
        const problem::Case& c = spec->cases[ci];
        progress({"case", k + 1, n, fmt::format("checking case {} of {}: {}", k + 1, n, c.name), c.name});
        auto inst = problem::instantiate(*spec, c, *meta, ci);
        if (!inst) {
            return errorReport(std::move(r), inst.error());
        }
        detail::CaseOutcome co =
            detail::runCase(s.context, s.stream, (*learner)->kernel, (*reference)->kernel, *inst, *repeat);
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
            report::FaultInfo fault = diagnoseFault(fc);
            co.info.message = fault.message;
            r.cases.push_back(std::move(co.info));
            for (int rest = k + 1; rest < n; ++rest) {
                report::CaseInfo skipped;
                skipped.name = spec->cases[indices[rest]].name;
                skipped.sizes = spec->cases[indices[rest]].sizes;
                skipped.verdict = "skipped";
                r.cases.push_back(std::move(skipped));
            }
            r.verdict = "fault";
            r.summary = fault.message;
            r.fault = std::move(fault);
            r.stagesMs["diagnose"] = msSince(td);
            r.stagesMs["total"] = msSince(t0);
            return r;
        }
        r.cases.push_back(std::move(co.info));
    }
    r.stagesMs["cases"] = msSince(tk);

    bool allPass = true;
    for (const auto& c : r.cases) {
        allPass = allPass && c.verdict == "pass";
    }
    r.verdict = allPass ? "pass" : "fail";
    r.summary = caseListText(r.cases);

    // Measure phase: only for a correct kernel, and only when one is installed (engine/measure).
    if (allPass && job.measure && m_options.measure) {
        const auto tm = Clock::now();
        MeasureInput in{s.context, s.stream, (*learner)->kernel, *spec, *meta, *compiled, progress};
        if (auto st = m_options.measure(in, r); !st) {
            r.summary += " Measuring failed: " + st.error().message;
        }
        if (cuda::stickyFailure()) {
            s.broken = true;
        }
        r.stagesMs["measure"] = msSince(tm);
    }
    r.stagesMs["total"] = msSince(t0);
    return r;
}

} // namespace tkm::runner
