#include "engine/runner/triton_gpu.h"

#include "engine/common/clock.h"
#include "engine/report/convert.h"
#include "engine/runner/check_case.h"
#include "engine/runner/runner.h"
#include "engine/runner/session.h"

#include <fmt/format.h>

#include <algorithm>

namespace tkm::runner {
namespace detail {
namespace {

namespace ir = triton::ir;
namespace lower = triton::lower;

std::string scalarCType(engine::DType t)
{
    switch (t) {
    case engine::DType::I64:
        return "long long";
    case engine::DType::F32:
        return "float";
    case engine::DType::F64:
        return "double";
    default:
        return "int";
    }
}

// The internal error of a kernel whose generated code NVRTC or ptxas refused, on the Triton line it came from.
// The Triton line whose generated code is longest (0 when there is none).
int heaviestLine(const lower::Lowered& l)
{
    std::map<int, int> count;
    for (const lower::LineMap& m : l.lines) {
        count[m.tritonLine] += m.lastCudaLine - m.firstCudaLine + 1;
    }
    const auto it =
        std::max_element(count.begin(), count.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return it == count.end() ? 0 : it->first;
}

report::DiagnosticInfo nvrtcInternalError(const compile::CompileResult& c, const lower::Lowered& l,
                                          const std::string& file)
{
    report::DiagnosticInfo d;
    d.file = file;
    d.severity = "error";
    const auto e = std::find_if(c.diagnostics.begin(), c.diagnostics.end(),
                                [](const compile::Diagnostic& x) { return x.severity == "error"; });
    if (e == c.diagnostics.end()) {
        d.message = "internal error of the Triton compiler: NVRTC refused the generated CUDA C++ without a message";
        return d;
    }
    if (e->file == file) {
        d.line = e->line;
        d.message = fmt::format("internal error of the Triton compiler: the CUDA C++ generated for line {} does not "
                                "compile (NVRTC: {})",
                                e->line, e->message);
    } else {
        // Not on a line of the kernel (a limit of the whole translation unit): blame the line that made most of it.
        d.line = heaviestLine(l);
        d.message = fmt::format("internal error of the Triton compiler: the CUDA C++ generated for this kernel does "
                                "not compile ({}){}",
                                e->message,
                                d.line > 0 ? fmt::format("; most of it comes from line {}", d.line) : std::string());
    }
    return d;
}

} // namespace

TritonGpuCompiler::TritonGpuCompiler(const Job& job, const problem::ExerciseSpec& spec, int cc)
    : m_job(job), m_spec(spec), m_cc(cc), m_checked(parseTritonSource(job.sourceName, job.source))
{
    m_diags = m_checked.source().parsed.diagnostics;
}

engine::Expected<const TritonGpuKernel*> TritonGpuCompiler::forCase(problem::ProblemInstance& inst)
{
    if (triton::hasErrors(m_checked.source().parsed.diagnostics)) {
        return static_cast<const TritonGpuKernel*>(nullptr);
    }
    std::vector<triton::Diagnostic> bindDiags;
    auto b = bindTriton(m_checked.source(), learnerTarget(*m_spec.triton), m_spec, inst, bindDiags);
    if (!b) {
        return b.error();
    }
    if (!b->has_value()) {
        if (m_diags.empty() || !triton::hasErrors(m_diags)) {
            m_diags.insert(m_diags.end(), bindDiags.begin(), bindDiags.end());
        }
        return static_cast<const TritonGpuKernel*>(nullptr);
    }
    const TritonBinding& bound = **b;
    if (auto it = m_kernels.find(bound.key); it != m_kernels.end()) {
        inst.launch = it->second->launch;
        inst.launch.grid = bound.grid; // the grid is the case's, the kernel the specialisation's
        return static_cast<const TritonGpuKernel*>(it->second.get());
    }
    const ir::Function* fn = m_checked.get(bound, m_diags);
    if (fn == nullptr) {
        return static_cast<const TritonGpuKernel*>(nullptr);
    }
    auto k = std::make_unique<TritonGpuKernel>();
    k->binding = bound;
    lower::LowerOptions o;
    o.kernelName = kTritonEntry;
    o.abi = tritonAbi(inst);
    o.paramToAbi = bound.argIndex;
    o.fileName = m_job.sourceName;
    k->lowered = lower::lower(*fn, o);
    k->launch.grid = bound.grid;
    k->launch.block = {32 * static_cast<int64_t>(fn->numWarps), 1, 1};
    k->launch.sharedBytes = 0; // the lowering's staging buffer is static shared memory
    if (!k->lowered.diagnostics.empty()) {
        const triton::Diagnostic& d = k->lowered.diagnostics.front();
        k->internalError =
            report::DiagnosticInfo{m_job.sourceName, d.range.begin.line, d.range.begin.column, "error", d.message};
    } else {
        compile::CompileRequest req;
        req.source = k->lowered.source;
        req.sourceName = m_job.sourceName + ".cu";
        req.kernel = kTritonEntry;
        req.computeCapability = m_cc;
        auto c = compile::compileKernel(req);
        if (!c) {
            return c.error();
        }
        k->compiled = std::move(*c);
        if (!k->compiled.ok) {
            k->internalError = nvrtcInternalError(k->compiled, k->lowered, m_job.sourceName);
        }
    }
    inst.launch = k->launch;
    const TritonGpuKernel* raw = k.get();
    m_kernels[bound.key] = std::move(k);
    return raw;
}

std::vector<lower::AbiParam> tritonAbi(const problem::ProblemInstance& inst)
{
    std::vector<lower::AbiParam> abi;
    for (const problem::ArgInstance& a : inst.args) {
        if (a.kind == problem::ParamKind::Buffer) {
            abi.push_back({lower::cElemType(tritonElem(a.dtype)) + "*", "tkm_arg_" + a.name});
        } else {
            abi.push_back({scalarCType(a.dtype), "tkm_arg_" + a.name});
        }
    }
    return abi;
}

void addGeneratedSource(report::CompileInfo& ci, const lower::Lowered& lowered)
{
    ci.generatedLines.clear();
    if (lowered.source.size() > compile::kMaxSourceBytes) {
        ci.generatedSource.clear(); // too large to compile, and to carry in every report
        return;
    }
    ci.generatedSource = lowered.source;
    std::map<int, std::vector<std::array<int, 2>>> byLine;
    for (const lower::LineMap& m : lowered.lines) {
        auto& runs = byLine[m.tritonLine];
        if (!runs.empty() && runs.back()[1] + 1 >= m.firstCudaLine) {
            runs.back()[1] = std::max(runs.back()[1], m.lastCudaLine); // adjacent runs read as one
        } else {
            runs.push_back({m.firstCudaLine, m.lastCudaLine});
        }
    }
    for (auto& [line, runs] : byLine) {
        ci.generatedLines.push_back(report::GeneratedLinesInfo{line, std::move(runs)});
    }
}

std::string internalErrorSentence(const report::DiagnosticInfo& d)
{
    const std::string where = d.line > 0 ? fmt::format("{}:{}: ", d.file, d.line) : std::string();
    std::string what = d.message;
    if (!what.empty()) {
        what[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(what[0])));
    }
    return where + what +
           ". This is a bug in our compiler, not in your kernel: run it on the CPU interpreter "
           "(--device cpu) meanwhile, and report the kernel.";
}

void locateFault(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                 const RepeatPlan& repeat, int caseIndex, report::FaultInfo& fault)
{
    Job replay = job;
    replay.device = Device::Cpu;
    replay.mode = Mode::Run;
    replay.measure = false;
    replay.cases = {caseIndex};
    report::RunReport base;
    base.exercise = report::ExerciseInfo{spec.id, spec.title, spec.kernel};
    const report::RunReport cpu = runTritonOnCpu(
        replay, spec, meta, repeat, [](const Progress&) {}, base);
    if (cpu.fault) {
        const report::FaultInfo& c = *cpu.fault;
        fault.line = c.line;
        fault.column = c.column;
        fault.programId = c.programId;
        fault.lane = c.lane;
        fault.offset = c.offset;
        fault.bufferElements = c.bufferElements;
        fault.masked = c.masked;
        const bool agree = c.kind == fault.kind && c.buffer == fault.buffer;
        fault.interpreter = agree ? "agrees" : "disagrees";
        if (agree) {
            fault.message += " The CPU interpreter replayed the case and locates it: " + c.message;
        } else {
            fault.message += fmt::format(" The CPU interpreter disagrees with the GPU: replaying the case it finds "
                                         "“{}” instead ({}). One of the two is wrong — possibly our lowering of "
                                         "Triton to CUDA; trust the interpreter's line and report the kernel.",
                                         c.message, c.kind);
        }
        return;
    }
    if (cpu.verdict == report::Verdict::Pass || cpu.verdict == report::Verdict::Fail) {
        fault.interpreter = "no-fault";
        fault.message += " The CPU interpreter runs the same case without any fault, so the GPU and the interpreter "
                         "disagree: this may be a bug in our lowering of Triton to CUDA rather than in your kernel; "
                         "please report the kernel.";
        return;
    }
    fault.interpreter = "not-run";
    if (!cpu.summary.empty()) {
        fault.message += " (The CPU interpreter could not replay the case: " + cpu.summary + ")";
    }
}

} // namespace detail

namespace {

using engine::Clock;
using engine::msSince;
using report::errorReport;

} // namespace

report::RunReport Runner::runTritonGpu(const Job& job, const problem::ExerciseSpec& spec,
                                       const problem::MetaValues& meta, const detail::RepeatPlan& repeat,
                                       const ProgressFn& progress, report::RunReport r, TimePoint t0)
{
    r.language = "triton";
    if (!spec.triton) {
        return errorReport(std::move(r), detail::noTritonTrack(spec));
    }
    r.exercise->kernel = spec.triton->kernel;
    GpuTarget target = gpuTarget(job, r);
    if (target.unusable) {
        return errorReport(std::move(r), *target.unusable);
    }

    const auto tc = Clock::now();
    detail::TritonGpuCompiler compiler(job, spec, target.cc);
    std::vector<int> indices = job.cases;
    if (indices.empty()) {
        for (int i = 0; i < static_cast<int>(spec.cases.size()); ++i) {
            indices.push_back(i);
        }
    }
    // Every specialisation up front, so a compile error is one whatever case would show it first.
    const detail::TritonGpuKernel* first = nullptr;
    const detail::TritonGpuKernel* broken = nullptr;
    for (size_t i = 0; i < indices.size(); ++i) {
        const int ci = indices[i];
        if (ci < 0 || ci >= static_cast<int>(spec.cases.size())) {
            return errorReport(std::move(r), engine::makeError(engine::ErrorKind::BadInput,
                                                               fmt::format("case {} does not exist (the exercise has "
                                                                           "{} cases)",
                                                                           ci, spec.cases.size())));
        }
        auto inst = problem::instantiate(spec, spec.cases[static_cast<size_t>(ci)], meta, ci);
        if (!inst) {
            return errorReport(std::move(r), inst.error());
        }
        // Each case may need its own specialisation, and each NVRTC compile takes a while: a message per case keeps
        // the job from reading as silent (worker::allowedSilence).
        progress({"compile", static_cast<int>(i) + 1, static_cast<int>(indices.size()),
                  fmt::format("compiling {} for the GPU: case {} of {}", job.sourceName, i + 1, indices.size()), ""});
        auto k = compiler.forCase(*inst);
        if (!k) {
            return errorReport(std::move(r), k.error());
        }
        if (*k == nullptr) {
            first = nullptr;
            break;
        }
        first = first ? first : *k;
        if (!(*k)->ok()) {
            broken = *k;
            break;
        }
    }
    const detail::TritonGpuKernel* shown = broken ? broken : first;
    report::CompileInfo info = shown ? report::toCompileInfo(shown->compiled) : report::CompileInfo{};
    info.arch = shown ? info.arch : fmt::format("sm_{}", target.cc);
    std::vector<report::DiagnosticInfo> diags;
    std::string log;
    for (const auto& d : detail::distinctDiagnostics(compiler.diagnostics())) {
        diags.push_back(detail::toDiagnosticInfo(d, job.sourceName));
        log += triton::formatDiagnostic(d, job.sourceName) + "\n";
    }
    if (broken) {
        diags.push_back(*broken->internalError);
    }
    info.diagnostics = std::move(diags);
    info.log = log + info.log;
    if (shown) {
        detail::addGeneratedSource(info, shown->lowered);
    }
    info.ok = shown != nullptr && broken == nullptr;
    info.compileMs = msSince(tc);
    r.compile = info;
    r.stagesMs["compile"] = info.compileMs;
    if (broken) {
        return errorReport(std::move(r), engine::makeError(engine::ErrorKind::Internal,
                                                           detail::internalErrorSentence(*broken->internalError)));
    }
    if (!shown) {
        r.verdict = report::Verdict::CompileError;
        const std::string err = detail::firstTritonError(compiler.diagnostics(), job.sourceName);
        r.summary = err.empty() ? "The kernel does not compile; see the diagnostics."
                                : "The kernel does not "
                                  "compile: " +
                                      err;
        r.stagesMs["total"] = msSince(t0);
        return r;
    }
    if (job.mode == Mode::CompileOnly || target.noGpu) {
        return compiledOnly(
            std::move(r), fmt::format("The Triton kernel compiles to CUDA for {}.", shown->compiled.arch), target, t0);
    }

    auto reference = referenceKernel(spec, target.cc);
    if (!reference) {
        return errorReport(std::move(r), reference.error());
    }
    Session& s = *m_session;
    CaseKernelFn kernelFor = [&](problem::ProblemInstance& inst) -> engine::Expected<CaseKernel> {
        auto k = compiler.forCase(inst);
        if (!k) {
            return k.error();
        }
        if (*k == nullptr || !(*k)->ok()) {
            return engine::makeError(engine::ErrorKind::Internal, "a Triton specialisation checked before the cases "
                                                                  "no longer compiles");
        }
        auto loaded = detail::load(s.modules, (*k)->compiled);
        if (!loaded) {
            return loaded.error();
        }
        return CaseKernel{&(*loaded)->kernel, detail::usesDevicePrintf((*k)->compiled.cubin)};
    };
    if (r.compile->resources) {
        if (auto l = detail::load(s.modules, shown->compiled)) {
            r.compile->resources->maxThreadsPerBlock = (*l)->kernel.maxThreadsPerBlock();
        }
    }
    CasesResult cases;
    r = runCases(job, spec, meta, repeat, progress, std::move(r), kernelFor, **reference, cases);
    if (r.fault && cases.faultCase >= 0) {
        progress({"diagnose", 0, 0, "replaying the faulting case in the CPU interpreter", ""});
        const auto tl = Clock::now();
        detail::locateFault(job, spec, meta, repeat, cases.faultCase, *r.fault);
        r.summary = r.fault->message;
        if (!r.cases.empty()) {
            for (auto& c : r.cases) {
                if (c.verdict == report::CaseVerdict::Fault) {
                    c.message = r.fault->message;
                }
            }
        }
        r.stagesMs["locate"] = msSince(tl);
    }
    if (cases.allPass && spec.performance && job.measure && m_options.measure) {
        auto perf = problem::instantiate(spec, *spec.performance, meta, -1);
        auto k = perf ? compiler.forCase(*perf) : engine::Expected<const detail::TritonGpuKernel*>(perf.error());
        if (!k || *k == nullptr || !(*k)->ok()) {
            r.summary += " Not timed: the kernel's specialisation for the performance case does not compile" +
                         (k ? std::string(".") : ": " + k.error().message);
        } else if (auto loaded = detail::load(s.modules, (*k)->compiled)) {
            measurePassing(job, spec, meta, (*k)->compiled, (*loaded)->kernel, perf->launch, progress, r);
        } else {
            r.summary += " Not timed: " + loaded.error().message;
        }
    }
    r.stagesMs["total"] = msSince(t0);
    return r;
}

} // namespace tkm::runner
