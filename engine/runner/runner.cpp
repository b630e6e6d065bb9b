#include "engine/runner/runner.h"

#include "engine/check/compare.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/driver.h"
#include "engine/problem/generate.h"
#include "engine/report/convert.h"
#include "engine/runner/case_run.h"
#include "engine/runner/diagnose.h"
#include "engine/runner/subprocess.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>

namespace tkm::runner {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

report::RunReport errorReport(report::RunReport r, const engine::Error& e)
{
    r.verdict = "error";
    r.summary = e.message;
    r.error = report::ErrorInfo{std::string(engine::errorKindName(e.kind)), e.message};
    return r;
}

// A kernel loaded into the warm context, keyed by its CUBIN cache key.
struct Loaded
{
    cuda::Module module;
    cuda::Kernel kernel;
};

// What one case produced.
struct CaseOutcome
{
    report::CaseInfo info;
    std::optional<cuda::CudaFailure> fault; // sticky error: the process must stop
    int faultLaunch = 0;                    // 1 or 2
    std::optional<engine::Error> engineError;
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

std::string sentenceForLaunchError(const detail::LaunchOutcome& o)
{
    if (o.failure && o.failure->code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) {
        return fmt::format("The launch failed: {} ({}): the block needs more registers than an SM has; use "
                           "fewer warps or fewer registers.",
                           o.failure->text, o.failure->name);
    }
    return "The launch failed: " + o.error.message;
}

// Runs one case: first launch (end guards), reference, check, second launch (start guards), bitwise compare.
CaseOutcome runCase(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& learner,
                    const cuda::Kernel& reference, const problem::ProblemInstance& inst)
{
    CaseOutcome out;
    report::CaseInfo& ci = out.info;
    ci.name = inst.caseName;
    ci.sizes = inst.sizes;
    ci.grid.assign(inst.launch.grid.begin(), inst.launch.grid.end());
    ci.block.assign(inst.launch.block.begin(), inst.launch.block.end());

    auto images = problem::generateInputs(inst, true);
    if (!images) {
        out.engineError = images.error();
        return out;
    }
    // Launch 1: every buffer ends flush against an unmapped granule; canaries before.
    detail::GuardPlan endPlan;
    auto first = detail::prepareArgs(ctx, stream, inst, *images, detail::Side::Learner, endPlan);
    if (!first) {
        out.engineError = first.error();
        return out;
    }
    const detail::LaunchOutcome l1 = detail::launchAndWait(learner, inst.launch, *first, stream);
    if (!l1.ok) {
        if (l1.sticky()) {
            out.fault = l1.failure;
            out.faultLaunch = 1;
            ci.verdict = "fault";
            return out;
        }
        ci.verdict = "fail";
        ci.message = sentenceForLaunchError(l1);
        return out;
    }

    // Reference on the same rounded inputs, in float64.
    auto ref = detail::prepareArgs(ctx, stream, inst, *images, detail::Side::Reference, endPlan);
    if (!ref) {
        out.engineError = ref.error();
        return out;
    }
    const detail::LaunchOutcome lr = detail::launchAndWait(reference, inst.referenceLaunch, *ref, stream);
    if (!lr.ok) {
        out.engineError =
            engine::makeError(engine::ErrorKind::Internal,
                              "The exercise's reference kernel failed: " + lr.error.message, lr.error.detail);
        if (lr.sticky()) {
            out.fault = lr.failure;
            out.faultLaunch = 0;
        }
        return out;
    }

    std::vector<check::OutputCheck> checks;
    std::vector<std::vector<std::byte>> firstImages(inst.args.size());
    std::vector<std::vector<std::byte>> refImages(inst.args.size());
    std::vector<std::string> extra;
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind != problem::ParamKind::Buffer) {
            continue;
        }
        auto got = detail::download(*first, i, stream);
        if (!got) {
            out.engineError = got.error();
            return out;
        }
        auto damage = first->buffers[i]->checkCanaries(stream);
        if (!damage) {
            out.engineError = damage.error();
            return out;
        }
        if (arg.role == problem::Role::In) {
            const auto* img = images->find(arg.name);
            if (img != nullptr && std::memcmp(img->learner.data(), got->data(), got->size()) != 0) {
                extra.push_back(
                    fmt::format("The kernel wrote into the input `{}`, which must stay unchanged.", arg.name));
            }
            if (damage->beforeBytes > 0) {
                extra.push_back(fmt::format("{} bytes just before the input `{}` were overwritten (the nearest {} "
                                            "bytes before its start): a write before the start?",
                                            damage->beforeBytes, arg.name, damage->nearestBefore));
            }
            continue;
        }
        auto refOut = detail::download(*ref, i, stream);
        if (!refOut) {
            out.engineError = refOut.error();
            return out;
        }
        check::OutputCheck oc = check::compareOutput(arg, *got, *refOut, inst.toleranceFor(arg.dtype));
        oc.canaryBeforeStart = damage->beforeBytes;
        oc.firstCanaryOffset = damage->nearestBefore;
        checks.push_back(std::move(oc));
        firstImages[i] = std::move(*got);
        refImages[i] = std::move(*refOut);
    }
    first = engine::Error{}; // release launch 1's buffers before the second launch
    ref = engine::Error{};

    // Launch 2: fresh buffers, each starting flush after an unmapped granule (reads before the start fault).
    detail::GuardPlan startPlan;
    startPlan.fallback.guard = memory::Guard::StartFlush;
    auto second = detail::prepareArgs(ctx, stream, inst, *images, detail::Side::Learner, startPlan);
    if (!second) {
        out.engineError = second.error();
        return out;
    }
    const detail::LaunchOutcome l2 = detail::launchAndWait(learner, inst.launch, *second, stream);
    if (!l2.ok) {
        if (l2.sticky()) {
            out.fault = l2.failure;
            out.faultLaunch = 2;
            ci.verdict = "fault";
            return out;
        }
        ci.verdict = "fail";
        ci.message = "The second launch failed: " + l2.error.message;
        return out;
    }
    // docs/exercise-spec.md "Second launch": a difference beyond the tolerance fails the case as
    // nondeterministic; a bitwise difference within it (float atomics in another order) is only reported.
    std::vector<check::DeterminismCheck> determinism; // the failing ones
    std::vector<std::string> bitwiseOnly;
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind != problem::ParamKind::Buffer || arg.role == problem::Role::In) {
            continue;
        }
        auto got = detail::download(*second, i, stream);
        if (!got) {
            out.engineError = got.error();
            return out;
        }
        check::DeterminismCheck det = check::compareLaunches(arg, firstImages[i], *got);
        if (!det.identical()) {
            const check::OutputCheck again =
                check::compareOutput(arg, *got, refImages[i], inst.toleranceFor(arg.dtype));
            if (again.mismatches > 0) {
                determinism.push_back(std::move(det));
            } else {
                bitwiseOnly.push_back(fmt::format(
                    "The second launch gave other bits in {} elements of `{}` (first at {}), all within the "
                    "tolerance: reported, not a failure.",
                    det.differing, arg.name, check::formatIndex(det.firstCoords)));
            }
        }
        auto damage = second->buffers[i]->checkCanaries(stream);
        if (damage && damage->afterBytes > 0) {
            extra.push_back(fmt::format("{} bytes just past the end of `{}` were overwritten: a write past the end?",
                                        damage->afterBytes, arg.name));
        }
    }

    bool pass = extra.empty();
    for (const auto& c : checks) {
        pass = pass && c.pass();
        ci.outputs.push_back(report::toOutputInfo(c));
    }
    const bool nondeterministic = !determinism.empty();
    ci.nondeterministic = nondeterministic;
    pass = pass && !nondeterministic;
    ci.verdict = pass ? "pass" : "fail";
    std::string msg = check::caseMessage(inst, checks, determinism);
    for (const auto& e : extra) {
        msg += (msg.empty() ? "" : " ") + e;
    }
    for (const auto& e : bitwiseOnly) {
        msg += (msg.empty() ? "" : " ") + e;
    }
    ci.message = msg;
    return out;
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

report::RunReport Runner::run(const Job& job, const ProgressFn& progressIn)
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
    if (job.resetToZero) {
        spec->resetToZero = *job.resetToZero;
    }
    auto meta = problem::resolveMeta(*spec, job.meta);
    if (!meta) {
        return errorReport(std::move(r), meta.error());
    }
    r.meta = *meta;

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
        CaseOutcome co = runCase(s.context, s.stream, (*learner)->kernel, (*reference)->kernel, *inst);
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
