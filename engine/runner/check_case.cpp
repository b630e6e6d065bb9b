#include "engine/runner/check_case.h"

#include "engine/check/compare.h"
#include "engine/common/clock.h"
#include "engine/problem/generate.h"
#include "engine/report/convert.h"
#include "engine/runner/case_run.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>

namespace tkm::runner::detail {
namespace {

using engine::Clock;
using engine::msSince;

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

std::string quotedList(const std::vector<std::string>& names, const char* quote)
{
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + std::string(quote) + n + quote;
    return out;
}

// An output that is wrong after the repeated launches but right after the single launch on fresh buffers
// accumulated across launches; it is reported as that, not as nondeterminism.
void diagnoseAccumulation(const problem::ProblemInstance& inst, const std::vector<check::OutputCheck>& checks,
                          const std::vector<std::vector<std::byte>>& secondImages,
                          const std::vector<std::vector<std::byte>>& refImages,
                          std::vector<check::DeterminismCheck>& determinism, report::CaseInfo& ci)
{
    for (const check::OutputCheck& c : checks) {
        if (c.mismatches == 0)
            continue;
        for (size_t i = 0; i < inst.args.size(); ++i) {
            const problem::ArgInstance& arg = inst.args[i];
            if (arg.name != c.buffer || secondImages[i].empty())
                continue;
            const check::OutputCheck once =
                check::compareOutput(arg, secondImages[i], refImages[i], inst.toleranceFor(arg.dtype));
            if (once.mismatches == 0 && once.unwritten == 0)
                ci.accumulated.push_back(arg.name);
        }
    }
    std::erase_if(determinism, [&](const check::DeterminismCheck& d) { return contains(ci.accumulated, d.buffer); });
}

engine::Expected<SharedInputs> generateShared(const problem::ProblemInstance& inst)
{
    auto images = problem::generateInputs(inst, true);
    if (!images) {
        return images.error();
    }
    return SharedInputs(std::make_shared<const problem::GeneratedInputs>(std::move(*images)));
}

// The float64 reference's outputs by argument index: held ones, or one launch of the reference on the same
// rounded inputs (then held). On failure `out` carries the engine error (and the fault) and nullopt is returned.
std::optional<std::shared_ptr<const ReferenceOutputs>>
referenceOutputs(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& reference,
                 const problem::ProblemInstance& inst, const problem::GeneratedInputs& images,
                 const CaseResources& res, CaseOutcome& out)
{
    if (res.cache != nullptr) {
        if (auto held = res.cache->reference(res.key)) {
            return held;
        }
    }
    GuardPlan plan;
    auto ref = prepareArgs(ctx, stream, inst, images, Side::Reference, plan, res.pool);
    if (!ref) {
        out.engineError = ref.error();
        return std::nullopt;
    }
    const LaunchOutcome lr = launchAndWait(reference, inst.referenceLaunch, *ref, stream);
    if (!lr.ok) {
        out.engineError =
            engine::makeError(engine::ErrorKind::Internal,
                              "The exercise's reference kernel failed: " + lr.error.message, lr.error.detail);
        if (lr.sticky()) {
            out.fault = lr.failure;
            out.faultLaunch = 0;
        }
        return std::nullopt;
    }
    ReferenceOutputs outputs(inst.args.size());
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind != problem::ParamKind::Buffer || arg.role == problem::Role::In) {
            continue;
        }
        auto got = download(*ref, i, stream);
        if (!got) {
            out.engineError = got.error();
            return std::nullopt;
        }
        outputs[i] = std::move(*got);
    }
    if (res.cache != nullptr) {
        res.cache->storeReference(res.key, outputs);
    }
    return std::make_shared<const ReferenceOutputs>(std::move(outputs));
}

std::string sentenceForLaunchError(const LaunchOutcome& o)
{
    if (o.failure && o.failure->code == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) {
        return fmt::format("The launch failed: {} ({}): the block needs more registers than an SM has; use "
                           "fewer warps or fewer registers.",
                           o.failure->text, o.failure->name);
    }
    return "The launch failed: " + o.error.message;
}

} // namespace

std::string accumulationMessage(const std::vector<std::string>& accumulated, const RepeatPlan& repeat)
{
    std::vector<std::string> undeclared;
    for (const auto& name : accumulated)
        if (contains(repeat.mustDeclare, name))
            undeclared.push_back(name);
    if (!undeclared.empty()) {
        const std::string names = quotedList(undeclared, "`");
        const std::string declared = quotedList(undeclared, "\"");
        return fmt::format(
            "{} accumulated across the autotuner's repeated launches: one launch on a zeroed buffer gives the right "
            "values, but after {} launches of this configuration on the same buffer (the autotuner's warm-up and "
            "timed runs) it holds the sum of all of them. Declare reset_to_zero=[{}], as "
            "@triton.autotune(…, reset_to_zero=[…]) does, so that it is zeroed before every launch.",
            names, repeat.launches, declared);
    }
    return fmt::format("{} is right after one launch but wrong after {} launches on the same buffer: the kernel "
                       "builds on what a previous launch left there, which the autotuner's repeated launches expose. "
                       "Write every element instead of adding to it.",
                       quotedList(accumulated, "`"), repeat.launches);
}

bool usesDevicePrintf(const std::vector<char>& cubin)
{
    static constexpr std::string_view kName = "vprintf";
    return std::search(cubin.begin(), cubin.end(), kName.begin(), kName.end()) != cubin.end();
}

engine::Status warmCase(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& reference,
                        const problem::ProblemInstance& inst, const CaseResources& res)
{
    if (res.cache == nullptr) {
        return {};
    }
    auto images = res.cache->inputs(inst, res.key);
    if (!images) {
        return images.error();
    }
    CaseOutcome scratch;
    if (!referenceOutputs(ctx, stream, reference, inst, **images, res, scratch)) {
        return scratch.engineError ? *scratch.engineError
                                   : engine::makeError(engine::ErrorKind::Internal, "the reference did not run");
    }
    return {};
}

CaseOutcome runCase(const cuda::Context& ctx, const cuda::Stream& stream, const cuda::Kernel& learner,
                    const cuda::Kernel& reference, const problem::ProblemInstance& inst, const RepeatPlan& repeat,
                    const std::function<void()>& beforeLaunch, const CaseResources& res)
{
    const auto announce = [&] {
        if (beforeLaunch) {
            beforeLaunch();
        }
    };
    CaseOutcome out;
    report::CaseInfo& ci = out.info;
    ci.name = inst.caseName;
    ci.sizes = inst.sizes;
    ci.grid.assign(inst.launch.grid.begin(), inst.launch.grid.end());
    ci.block.assign(inst.launch.block.begin(), inst.launch.block.end());

    auto lap = Clock::now();
    auto mark = [&](const char* stage) {
        out.stageMs[stage] += msSince(lap);
        lap = Clock::now();
    };
    auto sharedImages = res.cache != nullptr ? res.cache->inputs(inst, res.key) : generateShared(inst);
    if (!sharedImages) {
        out.engineError = sharedImages.error();
        return out;
    }
    const problem::GeneratedInputs* images = sharedImages->get();
    mark("inputs");
    // Launch 1: every buffer ends flush against an unmapped granule; canaries before.
    GuardPlan endPlan;
    auto first = prepareArgs(ctx, stream, inst, *images, Side::Learner, endPlan, res.pool);
    if (!first) {
        out.engineError = first.error();
        return out;
    }
    mark("buffers");
    announce();
    LaunchOutcome l1 = launchAndWait(learner, inst.launch, *first, stream);
    out.printed = l1.printed; // what the learner sees: one launch's output (repeats print the same again)
    out.printedDropped = l1.printedDropped;
    // A tuning job launches again on the same buffers, as the autotuner's warm-up and timed runs do; only the
    // declared outputs are zeroed in between.
    for (int k = 1; k < repeat.launches && l1.ok; ++k) {
        for (size_t i = 0; i < inst.args.size(); ++i) {
            const bool reset = std::find(repeat.resetBetween.begin(), repeat.resetBetween.end(), inst.args[i].name) !=
                               repeat.resetBetween.end();
            if (reset && first->buffers[i]) {
                if (auto z = first->buffers[i]->zero(stream); !z) {
                    out.engineError = z.error();
                    return out;
                }
            }
        }
        announce();
        l1 = launchAndWait(learner, inst.launch, *first, stream);
    }
    if (!l1.ok) {
        if (!l1.printed.empty()) { // a repeat that failed: its output names why (an assert's line)
            out.printed = l1.printed;
            out.printedDropped = l1.printedDropped;
        }
        if (l1.sticky()) {
            out.fault = l1.failure;
            out.faultLaunch = 1;
            ci.verdict = report::CaseVerdict::Fault;
            return out;
        }
        ci.verdict = report::CaseVerdict::Fail;
        ci.message = sentenceForLaunchError(l1);
        return out;
    }

    mark("launch");
    // Reference on the same rounded inputs, in float64 (held from an earlier job when the worker is warm).
    auto refOutputs = referenceOutputs(ctx, stream, reference, inst, *images, res, out);
    if (!refOutputs) {
        return out;
    }
    mark("reference");

    std::vector<check::OutputCheck> checks;
    std::vector<std::vector<std::byte>> firstImages(inst.args.size());
    std::vector<std::vector<std::byte>> refImages(inst.args.size());
    std::vector<std::string> extra;
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind != problem::ParamKind::Buffer) {
            continue;
        }
        auto got = download(*first, i, stream);
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
        const std::vector<std::byte>& refOut = (**refOutputs)[i];
        check::OutputCheck oc = check::compareOutput(arg, *got, refOut, inst.toleranceFor(arg.dtype));
        oc.canaryBeforeStart = damage->beforeBytes;
        oc.firstCanaryOffset = damage->nearestBefore;
        checks.push_back(std::move(oc));
        firstImages[i] = std::move(*got);
        refImages[i] = refOut;
    }
    first = engine::Error{}; // release launch 1's buffers before the second launch
    mark("check");

    // Launch 2: fresh buffers, each starting flush after an unmapped granule (reads before the start fault).
    GuardPlan startPlan;
    startPlan.fallback.guard = memory::Guard::StartFlush;
    auto second = prepareArgs(ctx, stream, inst, *images, Side::Learner, startPlan, res.pool);
    if (!second) {
        out.engineError = second.error();
        return out;
    }
    mark("buffers");
    announce();
    const LaunchOutcome l2 = launchAndWait(learner, inst.launch, *second, stream);
    mark("launch");
    if (!l2.ok) {
        if (l2.sticky()) {
            out.fault = l2.failure;
            out.faultLaunch = 2;
            ci.verdict = report::CaseVerdict::Fault;
            return out;
        }
        ci.verdict = report::CaseVerdict::Fail;
        ci.message = "The second launch failed: " + l2.error.message;
        return out;
    }
    // docs/exercise-spec.md "Second launch": a difference beyond the tolerance fails the case as
    // nondeterministic; a bitwise difference within it (float atomics in another order) is only reported.
    std::vector<check::DeterminismCheck> determinism; // the failing ones
    std::vector<std::vector<std::byte>> secondImages(inst.args.size());
    std::vector<std::string> bitwiseOnly;
    for (size_t i = 0; i < inst.args.size(); ++i) {
        const problem::ArgInstance& arg = inst.args[i];
        if (arg.kind != problem::ParamKind::Buffer || arg.role == problem::Role::In) {
            continue;
        }
        auto got = download(*second, i, stream);
        if (!got) {
            out.engineError = got.error();
            return out;
        }
        check::DeterminismCheck det = check::compareLaunches(arg, firstImages[i], *got);
        secondImages[i] = *got;
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

    if (repeat.launches > 1) {
        diagnoseAccumulation(inst, checks, secondImages, refImages, determinism, ci);
    }
    bool pass = extra.empty() && ci.accumulated.empty();
    for (const auto& c : checks) {
        pass = pass && c.pass();
        ci.outputs.push_back(report::toOutputInfo(c));
    }
    const bool nondeterministic = !determinism.empty();
    ci.nondeterministic = nondeterministic;
    pass = pass && !nondeterministic;
    ci.verdict = pass ? report::CaseVerdict::Pass : report::CaseVerdict::Fail;
    std::string msg = ci.accumulated.empty() ? check::caseMessage(inst, checks, determinism)
                                             : accumulationMessage(ci.accumulated, repeat);
    for (const auto& e : extra) {
        msg += (msg.empty() ? "" : " ") + e;
    }
    for (const auto& e : ci.accumulated.empty() ? bitwiseOnly : std::vector<std::string>{}) {
        msg += (msg.empty() ? "" : " ") + e;
    }
    ci.message = msg;
    mark("check");
    return out;
}

} // namespace tkm::runner::detail
