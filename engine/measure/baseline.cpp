#include "engine/measure/baseline.h"

#include "engine/common/paths.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/driver.h"
#include "engine/measure/detail/cublas_gemm.h"
#include "engine/report/figures.h"
#include "engine/problem/expr.h"

#include <cmath>
#include <memory>
#include <vector>

namespace tkm::measure {
namespace {

/// A compiled and launchable kernel baseline: modules, kernels, temps, argument packs, launch dims.
struct KernelSequence
{
    std::vector<cuda::Module> modules;
    std::vector<cuda::Kernel> kernels;
    std::vector<detail::DeviceAllocation> temps;
    std::vector<std::unique_ptr<cuda::KernelArgs>> args;
    std::vector<problem::LaunchDims> dims;
};

bool usesHalf(const problem::ExerciseSpec& spec, const problem::Baseline& b, engine::DType t)
{
    for (const problem::Param& p : spec.params)
        if (p.dtype == t)
            return true;
    for (const problem::BaselineTemp& tmp : b.temps)
        if (tmp.dtype == t)
            return true;
    return false;
}

engine::Expected<problem::LaunchDims> evalDims(const problem::LaunchSpec& l, const problem::Variables& vars,
                                               const std::string& where)
{
    problem::LaunchDims d;
    for (size_t i = 0; i < l.grid.size() && i < 3; ++i) {
        auto v = problem::evaluateCount(l.grid[i], vars, where + "/grid/" + std::to_string(i));
        if (!v)
            return v.error();
        d.grid[i] = std::max<int64_t>(1, *v);
    }
    for (size_t i = 0; i < l.block.size() && i < 3; ++i) {
        auto v = problem::evaluateCount(l.block[i], vars, where + "/block/" + std::to_string(i));
        if (!v)
            return v.error();
        d.block[i] = std::max<int64_t>(1, *v);
    }
    auto sh = problem::evaluateCount(l.sharedBytes.empty() ? "0" : l.sharedBytes, vars, where + "/shared_bytes");
    if (!sh)
        return sh.error();
    d.sharedBytes = *sh;
    return d;
}

engine::Expected<cuda::Kernel> loadKernel(KernelSequence& seq, const problem::ExerciseSpec& spec,
                                          const problem::MetaValues& meta, const problem::Baseline& b,
                                          const std::string& source, const std::string& name, int cc)
{
    // An extern "C" kernel of an already loaded module is found by its plain name: no second NVRTC run.
    for (const cuda::Module& m : seq.modules)
        if (auto k = m.kernel(name); k)
            return k;
    compile::CompileRequest req;
    req.source = source;
    req.sourceName = b.file;
    req.kernel = name;
    req.computeCapability = cc;
    req.defines = meta;
    req.includeFp16 = usesHalf(spec, b, engine::DType::F16);
    req.includeBf16 = usesHalf(spec, b, engine::DType::BF16);
    auto compiled = compile::compileKernel(req);
    if (!compiled)
        return compiled.error();
    if (!compiled->ok)
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "the baseline " + b.file + " does not compile: " + compiled->firstError());
    auto module = cuda::Module::load(compiled->cubin);
    if (!module)
        return module.error();
    auto k = module->kernel(compiled->loweredName);
    if (!k)
        return k.error();
    seq.modules.push_back(std::move(*module));
    return k;
}

/// Packs one launch's arguments: parameter names, temp names, or expressions typed by the kernel's parameter size.
engine::Expected<std::unique_ptr<cuda::KernelArgs>> packArgs(const problem::BaselineLaunch& l, const cuda::Kernel& k,
                                                             const problem::Baseline& b, const KernelSequence& seq,
                                                             const PerfCase& pc, const std::string& where)
{
    auto args = std::make_unique<cuda::KernelArgs>();
    const problem::ProblemInstance& inst = pc.instance();
    for (size_t i = 0; i < l.args.size(); ++i) {
        const std::string& a = l.args[i];
        if (const problem::ArgInstance* p = inst.find(a)) {
            if (p->kind == problem::ParamKind::Buffer) {
                args->addPointer(pc.buffer(a));
            } else if (p->dtype == engine::DType::I64) {
                args->add(static_cast<int64_t>(p->intValue));
            } else if (p->dtype == engine::DType::F32) {
                args->add(static_cast<float>(p->floatValue));
            } else if (p->dtype == engine::DType::F64) {
                args->add(p->floatValue);
            } else {
                args->add(static_cast<int32_t>(p->intValue));
            }
            continue;
        }
        bool isTemp = false;
        for (size_t t = 0; t < b.temps.size(); ++t)
            if (b.temps[t].name == a) {
                args->addPointer(seq.temps[t].ptr());
                isTemp = true;
            }
        if (isTemp)
            continue;
        auto v = problem::evaluate(a, inst.variables, where + "/args/" + std::to_string(i));
        if (!v)
            return v.error();
        const size_t size = k.paramsKnown() && i < k.params().size() ? k.params()[i].size : 4;
        const bool integral = std::abs(*v - std::round(*v)) < 1e-9;
        if (size == 8)
            integral ? args->add(static_cast<int64_t>(std::llround(*v))) : args->add(*v);
        else
            integral ? args->add(static_cast<int32_t>(std::lround(*v))) : args->add(static_cast<float>(*v));
    }
    if (auto st = cuda::checkArgs(k, *args); !st)
        return st.error();
    return args;
}

engine::Expected<std::shared_ptr<KernelSequence>> buildSequence(const problem::ExerciseSpec& spec,
                                                                const problem::MetaValues& meta,
                                                                const problem::Baseline& b, const PerfCase& pc, int cc)
{
    auto source = engine::readTextFile(spec.path(b.file));
    if (!source)
        return source.error();
    auto seq = std::make_shared<KernelSequence>();
    const problem::ProblemInstance& inst = pc.instance();
    for (size_t t = 0; t < b.temps.size(); ++t) {
        int64_t numel = 1;
        for (size_t d = 0; d < b.temps[t].shape.size(); ++d) {
            auto v = problem::evaluateCount(b.temps[t].shape[d], inst.variables,
                                            "baseline " + b.name + ": temps/" + std::to_string(t) + "/shape");
            if (!v)
                return v.error();
            numel *= std::max<int64_t>(1, *v);
        }
        auto mem = detail::DeviceAllocation::create(static_cast<size_t>(numel * engine::dtypeBytes(b.temps[t].dtype)));
        if (!mem)
            return mem.error();
        seq->temps.push_back(std::move(*mem));
    }
    for (size_t i = 0; i < b.launches.size(); ++i) {
        const problem::BaselineLaunch& l = b.launches[i];
        const std::string where = "baseline " + b.name + ": launches/" + std::to_string(i);
        auto k = loadKernel(*seq, spec, meta, b, *source, l.kernel, cc);
        if (!k)
            return k.error();
        auto dims = evalDims(l.launch, inst.variables, where);
        if (!dims)
            return dims.error();
        auto args = packArgs(l, *k, b, *seq, pc, where);
        if (!args)
            return args.error();
        seq->kernels.push_back(*k);
        seq->dims.push_back(*dims);
        seq->args.push_back(std::move(*args));
    }
    return seq;
}

} // namespace

void computeRatios(const PerformanceResult& learner, BaselineResult& b)
{
    if (learner.timing.samples.medianMs > 0 && b.timing.samples.medianMs > 0)
        b.timeRatio = learner.timing.samples.medianMs / b.timing.samples.medianMs;
    const double mine = report::bytesMoved(learner.traffic.info);
    const double theirs = report::bytesMoved(b.traffic.info);
    if (learner.traffic.info.available && b.traffic.info.available && theirs > 0)
        b.bytesRatio = mine / theirs;
}

report::BaselineInfo toBaselineInfo(const BaselineResult& r)
{
    report::BaselineInfo info;
    info.name = r.name;
    info.medianMs = r.timing.samples.medianMs;
    if (r.traffic.info.available) {
        info.dramReadBytes = r.traffic.info.dramReadBytes;
        info.storedBytes = r.traffic.info.storedBytes;
    }
    if (r.timeRatio > 0)
        info.timeRatio = r.timeRatio;
    if (r.bytesRatio > 0)
        info.bytesRatio = r.bytesRatio;
    return info;
}

BaselineResult measureBaseline(Measurer& measurer, CUstream stream, const problem::ExerciseSpec& spec,
                               const problem::MetaValues& meta, const problem::Baseline& baseline, const PerfCase& pc,
                               const PerformanceResult& learner, int computeCapability, const MeasureOptions& options)
{
    BaselineResult out;
    out.name = baseline.name;
    Workload w;
    w.label = baseline.name;
    w.resetOutputs = [&pc](CUstream s) { return pc.resetOutputs(s); };
    w.idealBytes = pc.instance().idealBytes;
    w.flops = pc.instance().flops;
    w.outputBytes = pc.outputBytes();
    std::shared_ptr<KernelSequence> seq;
    std::shared_ptr<detail::CublasGemm> gemm;
    if (baseline.kind == "kernels") {
        auto built = buildSequence(spec, meta, baseline, pc, computeCapability);
        if (!built) {
            out.error = built.error().message;
            return out;
        }
        seq = *built;
        w.launch = [seq](CUstream s) -> engine::Status {
            for (size_t i = 0; i < seq->kernels.size(); ++i)
                if (auto st = launchRaw(seq->kernels[i], seq->dims[i], *seq->args[i], s); !st)
                    return st;
            return {};
        };
    } else if (baseline.kind == "cublas_gemm") {
        auto g = detail::CublasGemm::create(baseline.gemm, pc);
        if (!g) {
            out.error = g.error().message;
            return out;
        }
        gemm = std::move(*g);
        w.launch = [gemm](CUstream s) { return gemm->enqueue(s); };
        w.usesTensorCores = true;
    } else {
        out.error = "unknown baseline kind \"" + baseline.kind + "\" (expected kernels or cublas_gemm).";
        return out;
    }
    auto timing = measurer.time(w, stream, options.timing);
    if (!timing) {
        out.error = timing.error().message;
        return out;
    }
    out.timing = std::move(*timing);
    if (options.traffic) {
        auto traffic = measurer.traffic(w, stream);
        if (!traffic) {
            out.error = traffic.error().message;
            return out;
        }
        out.traffic = std::move(*traffic);
    }
    computeRatios(learner, out);
    return out;
}

} // namespace tkm::measure
