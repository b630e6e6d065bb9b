#include "engine/runner/triton_job.h"

#include "engine/check/compare.h"
#include "engine/common/clock.h"
#include "engine/common/paths.h"
#include "engine/problem/generate.h"
#include "engine/report/convert.h"
#include "engine/runner/device_print.h"
#include "engine/runner/triton_binding.h"
#include "engine/triton/interp/interpreter.h"
#include "engine/triton/meta/decorators.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

namespace tkm::runner {

const char* deviceName(Device d)
{
    switch (d) {
    case Device::Auto:
        return "auto";
    case Device::Cpu:
        return "cpu";
    case Device::Gpu:
        return "gpu";
    }
    return "auto";
}

std::optional<Device> parseDevice(const std::string& text)
{
    if (text == "auto") {
        return Device::Auto;
    }
    if (text == "cpu") {
        return Device::Cpu;
    }
    if (text == "gpu") {
        return Device::Gpu;
    }
    return std::nullopt;
}

bool isTritonSource(const std::string& sourceName)
{
    return sourceName.size() >= 3 && sourceName.compare(sourceName.size() - 3, 3, ".py") == 0;
}

} // namespace tkm::runner

namespace tkm::runner::detail {
namespace {

using engine::Clock;
using engine::msSince;
namespace interp = triton::interp;
namespace ir = triton::ir;

using report::errorReport;

// Host copies of a case's buffers, in argument order (empty vectors for scalars).
struct HostImages
{
    std::vector<std::vector<std::byte>> bytes;
};

HostImages copyImages(const problem::ProblemInstance& inst, const problem::GeneratedInputs& images, bool reference)
{
    HostImages h;
    h.bytes.resize(inst.args.size());
    for (size_t i = 0; i < inst.args.size(); ++i) {
        if (inst.args[i].kind != problem::ParamKind::Buffer) {
            continue;
        }
        const problem::BufferImage* img = images.find(inst.args[i].name);
        h.bytes[i] = reference ? img->reference : img->learner;
    }
    return h;
}

// One interpreted launch of `f` bound by `b` on `h`.
interp::RunResult launch(const ir::Function& f, const TritonBinding& b, const problem::ProblemInstance& inst,
                         HostImages& h, bool reference)
{
    std::vector<interp::HostBuffer> buffers;
    std::vector<interp::ArgValue> args;
    for (int ai : b.argIndex) {
        const problem::ArgInstance& a = inst.args[static_cast<size_t>(ai)];
        interp::ArgValue v;
        if (a.kind == problem::ParamKind::Buffer) {
            const engine::DType dt = reference ? engine::referenceDType(a.dtype) : a.dtype;
            v.buffer = static_cast<int>(buffers.size());
            buffers.push_back(
                interp::HostBuffer{a.name, tritonElem(dt), h.bytes[static_cast<size_t>(ai)].data(), a.storageElements});
        } else if (engine::isFloating(a.dtype)) {
            v.floatValue = a.floatValue;
        } else {
            v.intValue = a.intValue;
        }
        args.push_back(v);
    }
    interp::RunOptions opt;
    opt.grid = b.grid;
    opt.deadline = Clock::now() + std::chrono::milliseconds(static_cast<int64_t>(kCpuLaunchLimitS * 1000));
    return interp::run(f, args, buffers, opt);
}

report::FaultInfo toFaultInfo(const interp::Fault& f, const std::string& caseName)
{
    report::FaultInfo fi;
    fi.kind = interp::faultKindName(f.kind);
    fi.buffer = f.buffer;
    fi.caseName = caseName;
    fi.message = f.message;
    fi.line = f.range.begin.line;
    fi.column = f.range.begin.column;
    if (f.kind != interp::FaultKind::Timeout && f.kind != interp::FaultKind::Unsupported) {
        fi.programId.assign(f.programId.begin(), f.programId.end());
        fi.lane = f.laneIndex;
    }
    if (!f.buffer.empty()) {
        fi.offset = f.offset;
        fi.bufferElements = f.bufferElements;
        fi.masked = f.masked;
    }
    return fi;
}

bool contains(const std::vector<std::string>& list, const std::string& name)
{
    return std::find(list.begin(), list.end(), name) != list.end();
}

} // namespace

Specialisations::Specialisations(std::shared_ptr<TritonSource> src) : m_src(std::move(src)) {}

const ir::Function* Specialisations::get(const TritonBinding& b, std::vector<triton::Diagnostic>& diags)
{
    auto it = m_cache.find(b.key);
    if (it == m_cache.end()) {
        it = m_cache.emplace(b.key, triton::check(b.input)).first;
        for (const auto& d : it->second.diagnostics) {
            diags.push_back(d);
        }
    }
    return it->second.function ? &*it->second.function : nullptr;
}

std::vector<triton::Diagnostic> distinctDiagnostics(const std::vector<triton::Diagnostic>& diags)
{
    std::vector<triton::Diagnostic> out;
    for (const auto& d : diags) {
        const bool seen = std::any_of(out.begin(), out.end(), [&](const triton::Diagnostic& o) {
            return o.range.begin.line == d.range.begin.line && o.range.begin.column == d.range.begin.column &&
                   o.severity == d.severity && o.message == d.message;
        });
        if (!seen) {
            out.push_back(d);
        }
    }
    return out;
}

report::DiagnosticInfo toDiagnosticInfo(const triton::Diagnostic& d, const std::string& file)
{
    report::DiagnosticInfo i;
    i.file = file;
    i.line = d.range.begin.line;
    i.column = d.range.begin.column;
    i.severity = d.severity == triton::Severity::Error     ? "error"
                 : d.severity == triton::Severity::Warning ? "warning"
                                                           : "note";
    i.message = d.message;
    for (const auto& n : d.notes) {
        i.message += fmt::format(" (note: {}{})",
                                 n.range.begin.line > 0 ? fmt::format("line {}: ", n.range.begin.line) : std::string(),
                                 n.message);
    }
    return i;
}

engine::Error noTritonTrack(const problem::ExerciseSpec& spec)
{
    return engine::makeError(engine::ErrorKind::BadInput,
                             fmt::format("The exercise “{}” has no Triton track: write this one in CUDA C++ (a .cu "
                                         "file).",
                                         spec.title));
}

std::string firstTritonError(const std::vector<triton::Diagnostic>& diags, const std::string& file)
{
    for (const auto& d : diags) {
        if (d.severity == triton::Severity::Error) {
            return fmt::format("{}:{}:{}: {}", file, d.range.begin.line, d.range.begin.column, d.message);
        }
    }
    return {};
}

// The spec's names for `names`, which a @triton.autotune decorator writes as the kernel's own arguments
// (`reset_to_zero=["hist_ptr"]`, as Triton's autotuner takes them), through the learner's positional binding
// (triton_binding.h). A name that is no kernel argument is kept as it is (a spec name, or an error the tuning plan
// reports).
static std::vector<std::string> specNamesOf(const problem::ExerciseSpec& spec, const triton::ast::FunctionDef& fn,
                                            const std::vector<std::string>& names)
{
    const std::vector<int> bound = boundSpecParams(spec, learnerTarget(*spec.triton));
    const std::vector<std::string> runtime = runtimeParams(fn);
    std::vector<std::string> out;
    for (const std::string& name : names) {
        const auto it = std::find(runtime.begin(), runtime.end(), name);
        const auto i = static_cast<std::size_t>(it - runtime.begin());
        out.push_back(it != runtime.end() && i < bound.size() ? spec.params[static_cast<std::size_t>(bound[i])].name
                                                              : name);
    }
    return out;
}

std::optional<Job> tritonAutotuneJob(const Job& job)
{
    if (job.mode != Mode::Run || !job.configs.empty()) {
        return std::nullopt;
    }
    auto spec = problem::loadSpec(job.exercise);
    if (!spec || !spec->autotune || !spec->triton) {
        return std::nullopt;
    }
    const triton::ParseResult parsed = triton::parse(job.source);
    const triton::ast::FunctionDef* fn = parsed.module.function(spec->triton->kernel);
    if (fn == nullptr) {
        return std::nullopt;
    }
    std::vector<triton::Diagnostic> diags;
    const auto decl = triton::readAutotune(*fn, diags);
    if (!decl || decl->configs.empty()) {
        return std::nullopt; // a malformed decorator is reported by the plain run's checker
    }
    auto hasMeta = [&](const char* name) {
        return std::any_of(spec->meta.begin(), spec->meta.end(),
                           [&](const problem::Meta& m) { return m.name == name; });
    };
    Job tuned = job;
    for (const triton::AutotuneConfig& c : decl->configs) {
        problem::MetaValues m;
        for (const auto& [name, v] : c.kwargs) {
            if (v.kind == triton::ConstexprValue::Kind::Int) {
                m[name] = v.intValue;
            } else if (v.kind == triton::ConstexprValue::Kind::Bool) {
                m[name] = v.boolValue ? 1 : 0;
            }
        }
        if (c.numWarps && hasMeta("NUM_WARPS")) {
            m["NUM_WARPS"] = *c.numWarps;
        }
        if (c.numStages && hasMeta("NUM_STAGES")) {
            m["NUM_STAGES"] = *c.numStages;
        }
        tuned.configs.push_back(std::move(m));
    }
    if (!tuned.resetToZero) {
        tuned.resetToZero = specNamesOf(*spec, *fn, decl->resetToZero);
    }
    return tuned;
}

report::RunReport runTritonOnCpu(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                                 const RepeatPlan& repeat, const ProgressFn& progress, report::RunReport r)
{
    const auto t0 = Clock::now();
    r.language = "triton";
    r.executor = "cpu-interpreter";
    if (!spec.triton) {
        return errorReport(std::move(r), noTritonTrack(spec));
    }
    const problem::TritonTrack& track = *spec.triton;
    r.exercise->kernel = track.kernel;

    progress({"compile", 0, 0, "checking " + job.sourceName, ""});
    const auto tc = Clock::now();
    Specialisations learner(parseTritonSource(job.sourceName, job.source));
    report::CompileInfo ci;
    ci.arch = "cpu-interpreter";
    std::vector<triton::Diagnostic> diags = learner.source().parsed.diagnostics;
    auto finishCompile = [&](bool ok) {
        ci.ok = ok;
        ci.diagnostics.clear();
        ci.log.clear();
        for (const auto& d : distinctDiagnostics(diags)) {
            ci.diagnostics.push_back(toDiagnosticInfo(d, job.sourceName));
            ci.log += triton::formatDiagnostic(d, job.sourceName) + "\n";
        }
        ci.compileMs = msSince(tc);
        r.compile = ci;
        r.stagesMs["compile"] = ci.compileMs;
    };
    auto compileError = [&]() {
        finishCompile(false);
        r.verdict = report::Verdict::CompileError;
        const std::string first = firstTritonError(diags, job.sourceName);
        r.summary = first.empty() ? "The kernel does not compile; see the diagnostics."
                                  : "The kernel does not "
                                    "compile: " +
                                        first;
        r.stagesMs["total"] = msSince(t0);
        return r;
    };
    if (triton::hasErrors(diags)) {
        return compileError();
    }

    std::vector<int> indices = job.cases;
    if (indices.empty()) {
        for (int i = 0; i < static_cast<int>(spec.cases.size()); ++i) {
            indices.push_back(i);
        }
    }
    for (int ci2 : indices) {
        if (ci2 < 0 || ci2 >= static_cast<int>(spec.cases.size())) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                               fmt::format("case {} does not exist (the exercise has "
                                                                           "{} cases)",
                                                                           ci2, spec.cases.size())));
        }
    }

    // Check every specialisation up front (one per distinct constexpr set), so a compile error is a compile
    // error whatever case it would first show in.
    struct Prepared
    {
        problem::ProblemInstance inst;
        TritonBinding binding;
        const ir::Function* fn = nullptr;
    };
    std::vector<Prepared> prepared;
    for (int ciIndex : indices) {
        auto inst = problem::instantiate(spec, spec.cases[static_cast<size_t>(ciIndex)], meta, ciIndex);
        if (!inst) {
            return errorReport(std::move(r), inst.error());
        }
        auto b = bindTriton(learner.source(), learnerTarget(track), spec, *inst, diags);
        if (!b) {
            return errorReport(std::move(r), b.error());
        }
        if (!b->has_value()) {
            return compileError();
        }
        const ir::Function* fn = learner.get(**b, diags);
        if (fn == nullptr) {
            return compileError();
        }
        prepared.push_back(Prepared{std::move(*inst), std::move(**b), fn});
    }
    finishCompile(true);
    if (job.mode == Mode::CompileOnly) {
        r.verdict = report::Verdict::Compiled;
        r.summary = "The Triton kernel parses and checks; run it to test it on the CPU interpreter.";
        r.stagesMs["total"] = msSince(t0);
        return r;
    }

    // The reference: the track's Triton kernel at float64.
    auto refText = engine::readTextFile(spec.path(track.reference.file));
    if (!refText) {
        return errorReport(std::move(r), refText.error());
    }
    Specialisations reference(parseTritonSource(track.reference.file, std::move(*refText)));

    const auto tk = Clock::now();
    const int n = static_cast<int>(prepared.size());
    for (int k = 0; k < n; ++k) {
        Prepared& p = prepared[static_cast<size_t>(k)];
        const problem::ProblemInstance& inst = p.inst;
        progress({"case", k + 1, n, fmt::format("checking case {} of {}: {}", k + 1, n, inst.caseName), inst.caseName});
        report::CaseInfo info;
        info.name = inst.caseName;
        info.sizes = inst.sizes;
        info.grid.assign(p.binding.grid.begin(), p.binding.grid.end());

        auto images = problem::generateInputs(inst, true);
        if (!images) {
            return errorReport(std::move(r), images.error());
        }
        // The reference first: a broken exercise is an exercise error, not the learner's.
        std::vector<triton::Diagnostic> refDiags = reference.source().parsed.diagnostics;
        auto rb = bindTriton(reference.source(), referenceTarget(track), spec, inst, refDiags);
        if (!rb) {
            return errorReport(std::move(r), rb.error());
        }
        const ir::Function* rf = rb->has_value() ? reference.get(**rb, refDiags) : nullptr;
        if (rf == nullptr) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadSpec,
                                                               "The exercise's Triton reference does not check: " +
                                                                   firstTritonError(refDiags, track.reference.file)));
        }
        HostImages refImages = copyImages(inst, *images, true);
        const interp::RunResult rr = launch(*rf, **rb, inst, refImages, true);
        if (rr.fault) {
            return errorReport(std::move(r),
                               engine::makeError(engine::ErrorKind::BadSpec,
                                                 "The exercise's Triton reference failed: " + rr.fault->message));
        }

        // The learner's kernel, launched `repeat.launches` times on the same buffers (tuning jobs).
        HostImages got = copyImages(inst, *images, false);
        interp::RunResult lr;
        for (int l = 0; l < repeat.launches; ++l) {
            if (l > 0) {
                for (size_t i = 0; i < inst.args.size(); ++i) {
                    if (contains(repeat.resetBetween, inst.args[i].name)) {
                        std::fill(got.bytes[i].begin(), got.bytes[i].end(), std::byte{0});
                    }
                }
            }
            lr = launch(*p.fn, p.binding, inst, got, false);
            keepPrinted(r, lr.printed, lr.printedDropped);
            if (lr.fault) {
                break;
            }
        }
        if (lr.fault) {
            const interp::Fault& f = *lr.fault;
            if (f.kind == interp::FaultKind::Unsupported) {
                return errorReport(std::move(r),
                                   engine::makeError(engine::ErrorKind::Internal,
                                                     "Internal error of the Triton interpreter: " + f.message));
            }
            info.verdict = f.kind == interp::FaultKind::Timeout ? report::CaseVerdict::Fail : report::CaseVerdict::Fault;
            info.message = f.message;
            r.cases.push_back(std::move(info));
            for (int rest = k + 1; rest < n; ++rest) {
                report::CaseInfo skipped;
                skipped.name = prepared[static_cast<size_t>(rest)].inst.caseName;
                skipped.sizes = prepared[static_cast<size_t>(rest)].inst.sizes;
                skipped.verdict = report::CaseVerdict::Skipped;
                r.cases.push_back(std::move(skipped));
            }
            if (f.kind == interp::FaultKind::Timeout) {
                r.verdict = report::Verdict::Timeout;
                r.summary = fmt::format("TIMEOUT — {} (case {} of {}, on the CPU interpreter)", f.message, k + 1, n);
            } else {
                r.verdict = report::Verdict::Fault;
                r.summary = f.message;
                r.fault = toFaultInfo(f, inst.caseName);
            }
            r.stagesMs["cases"] = msSince(tk);
            r.stagesMs["total"] = msSince(t0);
            return r;
        }

        std::vector<check::OutputCheck> checks;
        std::vector<std::string> extra;
        for (size_t i = 0; i < inst.args.size(); ++i) {
            const problem::ArgInstance& arg = inst.args[i];
            if (arg.kind != problem::ParamKind::Buffer) {
                continue;
            }
            if (arg.role == problem::Role::In) {
                const auto* img = images->find(arg.name);
                if (img != nullptr && std::memcmp(img->learner.data(), got.bytes[i].data(), got.bytes[i].size()) != 0) {
                    extra.push_back(
                        fmt::format("The kernel wrote into the input `{}`, which must stay unchanged.", arg.name));
                }
                continue;
            }
            checks.push_back(check::compareOutput(arg, got.bytes[i], refImages.bytes[i], inst.toleranceFor(arg.dtype)));
        }
        // Outputs wrong after the autotuner's repeated launches but right after one accumulated across them.
        if (repeat.launches > 1) {
            bool anyBad = std::any_of(checks.begin(), checks.end(), [](const auto& c) { return c.mismatches > 0; });
            if (anyBad) {
                HostImages once = copyImages(inst, *images, false);
                const interp::RunResult single = launch(*p.fn, p.binding, inst, once, false);
                for (const auto& c : checks) {
                    if (c.mismatches == 0 || single.fault) {
                        continue;
                    }
                    const int ai = spec.paramIndex(c.buffer);
                    const problem::ArgInstance& arg = inst.args[static_cast<size_t>(ai)];
                    const check::OutputCheck again =
                        check::compareOutput(arg, once.bytes[static_cast<size_t>(ai)],
                                             refImages.bytes[static_cast<size_t>(ai)], inst.toleranceFor(arg.dtype));
                    if (again.mismatches == 0) {
                        info.accumulated.push_back(arg.name);
                    }
                }
            }
        }
        bool pass = extra.empty() && info.accumulated.empty();
        for (const auto& c : checks) {
            pass = pass && c.pass();
            info.outputs.push_back(report::toOutputInfo(c));
        }
        info.verdict = pass ? report::CaseVerdict::Pass : report::CaseVerdict::Fail;
        std::string msg =
            info.accumulated.empty() ? check::caseMessage(inst, checks) : accumulationMessage(info.accumulated, repeat);
        for (const auto& e : extra) {
            msg += (msg.empty() ? "" : " ") + e;
        }
        info.message = msg;
        r.cases.push_back(std::move(info));
    }
    r.stagesMs["cases"] = msSince(tk);

    int failed = 0;
    const report::CaseInfo* firstFail = nullptr;
    for (const auto& c : r.cases) {
        if (c.verdict != report::CaseVerdict::Pass) {
            ++failed;
            firstFail = firstFail ? firstFail : &c;
        }
    }
    r.verdict = failed == 0 ? report::Verdict::Pass : report::Verdict::Fail;
    r.summary = failed == 0
                    ? fmt::format("All {} cases pass on the CPU interpreter (correctness only: timing and "
                                  "DRAM traffic need an NVIDIA GPU).",
                                  r.cases.size())
                    : fmt::format("{} of {} cases fail; first “{}”: {}", failed, r.cases.size(), firstFail->name,
                                  firstFail->message.empty() ? "wrong values." : firstFail->message);
    r.stagesMs["total"] = msSince(t0);
    return r;
}

} // namespace tkm::runner::detail
