#include "engine/runner/diagnose.h"

#include "engine/compile/compiler.h"
#include "engine/cuda/context.h"
#include "engine/cuda/module.h"
#include "engine/problem/generate.h"
#include "engine/problem/spec.h"
#include "engine/runner/case_run.h"
#include "engine/runner/device_assert.h"
#include "engine/runner/subprocess.h"
#include "engine/runner/triton_gpu.h"

#include <fmt/format.h>

#include <chrono>
#include <istream>
#include <ostream>

namespace tkm::runner {
namespace {

using nlohmann::json;

memory::Guard guardFromName(const std::string& name)
{
    if (name == "start-flush") {
        return memory::Guard::StartFlush;
    }
    if (name == "padded") {
        return memory::Guard::Padded;
    }
    if (name == "plain") {
        return memory::Guard::Plain;
    }
    return memory::Guard::EndFlush;
}

ProbeResult notRun(std::string why)
{
    ProbeResult r;
    r.message = std::move(why);
    return r;
}

ProbeResult runProbeHere(const ProbeRequest& req)
{
    auto spec = problem::loadSpec(req.job.exercise);
    if (!spec) {
        return notRun(spec.error().message);
    }
    if (req.job.resetToZero) {
        spec->resetToZero = *req.job.resetToZero;
    }
    if (req.caseIndex < 0 || req.caseIndex >= static_cast<int>(spec->cases.size())) {
        return notRun(fmt::format("case index {} is out of range", req.caseIndex));
    }
    auto meta = problem::resolveMeta(*spec, req.job.meta);
    if (!meta) {
        return notRun(meta.error().message);
    }
    auto ctx = cuda::Context::create(0);
    if (!ctx) {
        return notRun(ctx.error().message);
    }
    const int cc = req.job.computeCapability.value_or(ctx->info().cc());
    auto inst = problem::instantiate(*spec, spec->cases[req.caseIndex], *meta, req.caseIndex);
    if (!inst) {
        return notRun(inst.error().message);
    }
    compile::CompileResult compiled;
    if (isTritonSource(req.job.sourceName)) {
        // The same lowering as the job's: the specialisation of this case, with its launch.
        if (!spec->triton) {
            return notRun("the exercise has no Triton track");
        }
        detail::TritonGpuCompiler triton(req.job, *spec, cc);
        auto k = triton.forCase(*inst);
        if (!k) {
            return notRun(k.error().message);
        }
        if (*k == nullptr || !(*k)->ok()) {
            return notRun("the Triton kernel does not compile for this case");
        }
        compiled = (*k)->compiled;
    } else {
        auto c = compile::compileKernel(compile::learnerRequest(*spec, *meta, req.job.source, req.job.sourceName, cc));
        if (!c) {
            return notRun(c.error().message);
        }
        compiled = std::move(*c);
    }
    if (!compiled.ok) {
        return notRun("the kernel does not compile: " + compiled.firstError());
    }
    auto module = cuda::Module::load(compiled.cubin);
    if (!module) {
        return notRun(module.error().message);
    }
    auto kernel = module->kernel(compiled.loweredName);
    if (!kernel) {
        return notRun(kernel.error().message);
    }
    auto images = problem::generateInputs(*inst, false);
    if (!images) {
        return notRun(images.error().message);
    }
    auto stream = cuda::Stream::create();
    if (!stream) {
        return notRun(stream.error().message);
    }
    detail::GuardPlan plan;
    plan.fallback.guard = req.plain ? memory::Guard::Plain : memory::Guard::Padded;
    plan.perBuffer = req.guards;
    auto args = detail::prepareArgs(*ctx, *stream, *inst, *images, detail::Side::Learner, plan);
    if (!args) {
        return notRun(args.error().message);
    }
    const detail::LaunchOutcome o = detail::launchAndWait(*kernel, inst->launch, *args, *stream);
    ProbeResult r;
    r.ran = true;
    if (!o.ok) {
        r.faulted = o.sticky();
        if (o.failure) {
            r.code = o.failure->code;
            r.cudaError = o.failure->name;
        }
        r.message = o.error.message;
        if (!r.faulted) {
            r.ran = false; // a non-fault error (argument check, launch limits): the probe tells nothing
        }
    }
    return r;
}

// A guard layout with exactly one buffer guarded.
std::map<std::string, memory::GuardOptions> single(const std::string& buffer, memory::Guard g, bool readable)
{
    memory::GuardOptions o;
    o.guard = g;
    o.readableGuard = readable;
    return {{buffer, o}};
}

// "your grid covers 1024 elements" when programs own BLOCK_SIZE elements along one axis, else the launch shape.
std::string coverageText(const problem::ProblemInstance& inst)
{
    const auto& g = inst.launch.grid;
    const auto& b = inst.launch.block;
    const auto bs = inst.meta.find("BLOCK_SIZE");
    if (bs != inst.meta.end() && g[1] == 1 && g[2] == 1) {
        return fmt::format("your grid covers {} elements", g[0] * bs->second);
    }
    if (g[1] == 1 && g[2] == 1 && b[1] == 1 && b[2] == 1) {
        return fmt::format("your launch has {} programs of {} threads", g[0], b[0]);
    }
    return fmt::format("your launch is grid [{}, {}, {}] × block [{}, {}, {}]", g[0], g[1], g[2], b[0], b[1], b[2]);
}

std::string shapeText(const problem::ArgInstance& arg)
{
    std::string s;
    for (size_t i = 0; i < arg.shape.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(arg.shape[i]);
    }
    return "[" + s + "]";
}

} // namespace

std::string sizesText(const std::map<std::string, int64_t>& sizes)
{
    std::string s;
    for (const auto& [name, value] : sizes) {
        s += fmt::format("{}{} = {}", s.empty() ? "" : ", ", name, value);
    }
    return s;
}

json toJson(const ProbeRequest& r)
{
    json guards = json::object();
    for (const auto& [name, o] : r.guards) {
        guards[name] = {
            {"guard", memory::guardName(o.guard)}, {"readable_guard", o.readableGuard}, {"alignment", o.alignment}};
    }
    json j = {{"exercise", r.job.exercise.string()},
              {"source", r.job.source},
              {"source_name", r.job.sourceName},
              {"meta", r.job.meta},
              {"case", r.caseIndex},
              {"guards", guards}};
    if (r.job.computeCapability) {
        j["cc"] = *r.job.computeCapability;
    }
    if (r.job.resetToZero) {
        j["reset_to_zero"] = *r.job.resetToZero;
    }
    if (r.plain) {
        j["plain"] = true;
    }
    return j;
}

engine::Expected<ProbeRequest> probeRequestFromJson(const json& j)
{
    auto bad = [](const char* field) {
        return engine::makeError(engine::ErrorKind::BadInput,
                                 fmt::format("probe request: field \"{}\" is missing or has the wrong type", field));
    };
    if (!j.is_object()) {
        return engine::makeError(engine::ErrorKind::BadInput, "probe request: not a JSON object");
    }
    ProbeRequest r;
    if (!j.contains("exercise") || !j["exercise"].is_string()) {
        return bad("exercise");
    }
    if (!j.contains("source") || !j["source"].is_string()) {
        return bad("source");
    }
    if (!j.contains("case") || !j["case"].is_number_integer()) {
        return bad("case");
    }
    r.job.exercise = j["exercise"].get<std::string>();
    r.job.source = j["source"].get<std::string>();
    r.job.sourceName = j.value("source_name", std::string("kernel.cu"));
    r.caseIndex = j["case"].get<int>();
    if (j.contains("meta")) {
        if (!j["meta"].is_object()) {
            return bad("meta");
        }
        for (const auto& [k, v] : j["meta"].items()) {
            if (!v.is_number_integer()) {
                return bad("meta");
            }
            r.job.meta[k] = v.get<int64_t>();
        }
    }
    if (j.contains("cc") && j["cc"].is_number_integer()) {
        r.job.computeCapability = j["cc"].get<int>();
    }
    if (j.contains("reset_to_zero") && j["reset_to_zero"].is_array()) {
        r.job.resetToZero = j["reset_to_zero"].get<std::vector<std::string>>();
    }
    r.plain = j.contains("plain") && j["plain"].is_boolean() && j["plain"].get<bool>();
    if (j.contains("guards") && j["guards"].is_object()) {
        for (const auto& [name, g] : j["guards"].items()) {
            memory::GuardOptions o;
            o.guard = guardFromName(g.value("guard", std::string("end-flush")));
            o.readableGuard = g.value("readable_guard", false);
            o.alignment = g.value("alignment", size_t{0});
            r.guards[name] = o;
        }
    }
    return r;
}

json toJson(const ProbeResult& r)
{
    return {
        {"ran", r.ran}, {"faulted", r.faulted}, {"code", r.code}, {"cuda_error", r.cudaError}, {"message", r.message}};
}

ProbeResult probeResultFromJson(const json& j)
{
    ProbeResult r;
    if (!j.is_object()) {
        r.message = "the probe answered something that is not a JSON object";
        return r;
    }
    r.ran = j.value("ran", false);
    r.faulted = j.value("faulted", false);
    r.code = j.value("code", 0);
    r.cudaError = j.value("cuda_error", std::string());
    r.message = j.value("message", std::string());
    return r;
}

int probeMain(std::istream& in, std::ostream& out)
{
    std::string line;
    std::getline(in, line);
    ProbeResult r;
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) {
        r.message = "probe request is not valid JSON";
    } else if (auto req = probeRequestFromJson(j); !req) {
        r.message = req.error().message;
    } else {
        r = runProbeHere(*req);
    }
    out << toJson(r).dump() << '\n';
    out.flush();
    return 0;
}

ProbeResult runProbe(const std::filesystem::path& exe, const ProbeRequest& request, double timeoutS)
{
    // Same process group as the worker: a client that kills the worker at its deadline kills the probes too.
    auto proc = Subprocess::spawn(exe, {"--probe"}, false);
    if (!proc) {
        return notRun(proc.error().message);
    }
    if (auto s = proc->write(toJson(request).dump() + "\n"); !s) {
        return notRun(s.error().message);
    }
    proc->closeStdin();
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<int64_t>(timeoutS * 1000));
    std::string line;
    const ReadResult rr = proc->readLine(line, deadline);
    if (rr == ReadResult::Timeout) {
        proc->kill();
        proc->wait();
        return notRun(fmt::format("the probe did not finish in {:.0f} s", timeoutS));
    }
    if (rr != ReadResult::Line) {
        const ExitInfo e = proc->wait();
        return notRun("the probe process ended without an answer (" + e.describe() + ")");
    }
    // The probe may now be tearing down a faulted context; do not wait long for it.
    ExitInfo e;
    if (!proc->waitFor(std::chrono::milliseconds(2000), e)) {
        proc->kill();
        proc->wait();
    }
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) {
        return notRun("the probe answered invalid JSON: " + line.substr(0, 200));
    }
    return probeResultFromJson(j);
}

report::FaultInfo diagnoseFault(const FaultContext& f)
{
    const problem::ProblemInstance& inst = f.instance;
    report::FaultInfo out;
    out.caseName = inst.caseName;
    out.cudaError = f.failure.name;
    const std::string where = fmt::format("case “{}” ({})", inst.caseName, sizesText(inst.sizes));

    switch (f.failure.code) {
    case CUDA_ERROR_MISALIGNED_ADDRESS:
        out.kind = "misaligned";
        out.message = fmt::format(
            "Misaligned memory access in {} ({}): a vector load or store (float2, float4, …) on an address that "
            "is not a multiple of its size? Buffers start 16-byte aligned, as cudaMalloc and PyTorch tensors do, "
            "so a float4 access is legal only at an index that is a multiple of 4 from the buffer's start.",
            where, f.failure.name);
        return out;
    case CUDA_ERROR_ASSERT:
        out.kind = "assert";
        if (const auto a = findDeviceAssert(f.printed)) {
            out.line = a->line;
            out.programId.assign(a->block.begin(), a->block.end());
            out.lane.assign(a->thread.begin(), a->thread.end());
            out.message = fmt::format("assert({}) failed at line {} of {}, in block ({}, {}, {}), thread ({}, {}, {}), "
                                      "{} ({}).",
                                      a->condition, a->line, a->file, a->block[0], a->block[1], a->block[2],
                                      a->thread[0], a->thread[1], a->thread[2], where, f.failure.name);
        } else {
            out.message = fmt::format("A device-side assert failed in {} ({}); the device did not print which "
                                      "one (its printf buffer was full?).",
                                      where, f.failure.name);
        }
        return out;
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
        out.kind = "stack-overflow";
        out.message = fmt::format("The kernel overflowed its call stack in {} ({}): a device function that recurses "
                                  "too deep, or very large local arrays? Make the recursion a loop.",
                                  where, f.failure.name);
        return out;
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_INVALID_PC:
        out.kind = "illegal-instruction";
        out.message = fmt::format("The kernel executed an illegal instruction in {} ({}: {}): a jump through a "
                                  "corrupted return address (a stack overflow, or a write over local memory)?",
                                  where, f.failure.name, f.failure.text);
        return out;
    default:
        break;
    }

    std::vector<const problem::ArgInstance*> buffers;
    for (const auto& a : inst.args) {
        if (a.kind == problem::ParamKind::Buffer) {
            buffers.push_back(&a);
        }
    }
    int probes = 0;
    auto probe = [&](const std::map<std::string, memory::GuardOptions>& guards, const std::string& what) {
        ++probes;
        if (f.progress) {
            f.progress({"diagnose", probes, 0, fmt::format("re-running {} in a fresh process: {}", where, what), ""});
        }
        ProbeRequest req{f.job, f.caseIndex, guards};
        return runProbe(f.probeExecutable, req, f.probeTimeoutS);
    };

    // A control run with room around every buffer first: a fault that repeats there is not about bounds (a
    // __trap(), a stack overflow, an access far away), and no buffer is blamed for it.
    const ProbeResult control = probe({}, "every buffer padded (control)");
    if (control.ran && control.faulted && control.code != CUDA_ERROR_ILLEGAL_ADDRESS) {
        out.kind = "trap";
        out.message = fmt::format("The kernel stopped in {} with {} ({}), also with room around every buffer: a "
                                  "__trap(), a failed check of the hardware, or a stack overflow — not an "
                                  "out-of-bounds access of a buffer.",
                                  where, control.cudaError.empty() ? f.failure.name : control.cudaError,
                                  f.failure.text);
        return out;
    }
    if (control.ran && control.faulted) {
        out.kind = "unknown";
        out.message = fmt::format("The kernel faulted ({}) in {}, even with room around every buffer: an access "
                                  "far out of bounds (a wrong stride, a wrong buffer, or an index overflow?), or "
                                  "a stack overflow in deep recursion. {}.",
                                  f.failure.name, where, coverageText(inst));
        return out;
    }

    const problem::ArgInstance* found = nullptr;
    bool pastEnd = true;
    std::string probeTrouble;
    for (int pass = 0; pass < 2 && found == nullptr; ++pass) {
        const memory::Guard g = pass == 0 ? memory::Guard::EndFlush : memory::Guard::StartFlush;
        for (const auto* b : buffers) {
            const ProbeResult r = probe(single(b->name, g, false),
                                        fmt::format("`{}` guarded at its {}", b->name, pass == 0 ? "end" : "start"));
            if (!r.ran) {
                probeTrouble = r.message;
                continue;
            }
            if (r.faulted) {
                found = b;
                pastEnd = pass == 0;
                break;
            }
        }
    }

    if (found == nullptr) {
        out.kind = "unknown";
        const ProbeResult& all = control;
        if (all.ran && all.faulted) {
            out.message = fmt::format("The kernel faulted ({}) in {}, even with room around every buffer: an "
                                      "access far out of bounds (a wrong stride, a wrong buffer, or an index "
                                      "overflow?). {}.",
                                      f.failure.name, where, coverageText(inst));
        } else if (all.ran) {
            out.message = fmt::format("The kernel faulted ({}) in {}, but not when re-run with room around every "
                                      "buffer in a fresh process: an access just outside a buffer that moves between "
                                      "runs (a race, or an uninitialised index?).",
                                      f.failure.name, where);
        } else {
            out.message = fmt::format("The kernel faulted ({}) in {}; the buffer could not be found because the "
                                      "re-runs failed: {}",
                                      f.failure.name, where, probeTrouble.empty() ? all.message : probeTrouble);
        }
        return out;
    }

    out.buffer = found->name;
    // Tell a read from a write: the guard mapped read-only faults only on writes.
    const ProbeResult ro =
        probe(single(found->name, pastEnd ? memory::Guard::EndFlush : memory::Guard::StartFlush, true),
              fmt::format("`{}` guarded read-only", found->name));
    std::string access;
    bool sure = true;
    if (ro.ran && ro.faulted && found->role == problem::Role::In) {
        // A write through a read-only guard of an input the kernel never writes does not happen in a correct
        // diagnosis: say what is known instead of blaming a write on an input.
        out.kind = "unknown";
        out.message = fmt::format("The kernel faulted ({}) in {} only while `{}` sat against an unmapped page, "
                                  "but the re-runs could not tell a read from a write, and `{}` is an input: an "
                                  "access just past it, or corrupted memory (a stack overflow?).",
                                  f.failure.name, where, found->name, found->name);
        return out;
    }
    if (ro.ran) {
        access = ro.faulted ? "write" : "read";
    } else {
        sure = false;
        access = found->role == problem::Role::Out ? "write" : "read";
    }
    const std::string side = pastEnd ? "past-end" : "before-start";
    out.kind = access + "-" + side;
    const std::string sizeNote =
        found->shape.size() == 1 && inst.sizes.size() == 1
            ? sizesText(inst.sizes)
            : fmt::format("{} has shape {}; {}", found->name, shapeText(*found), sizesText(inst.sizes));
    const std::string hint = pastEnd ? (access == "write" ? "a missing mask on the store?" : "a missing mask?")
                                     : "an index that goes below 0 (such as i − 1 at i = 0)?";
    const std::string what = sure ? access : fmt::format("access (probably a {}; the re-run could not tell)", access);
    // The grid's coverage explains an overrun past the end; before the start it is beside the point.
    out.message =
        fmt::format("Out-of-bounds {} {} `{}` ({}{}): {}", what, pastEnd ? "past the end of" : "before the start of",
                    found->name, sizeNote, pastEnd ? "; " + coverageText(inst) : std::string(), hint);
    return out;
}

} // namespace tkm::runner
