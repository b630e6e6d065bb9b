// GPU checks of the measure phase (label gpu; prints "SKIPPED: …" and exits 77 without a GPU):
// DRAM bytes of vector add vs the ideal, a kernel that reads its input twice, repeatable timing, the unfused
// softmax baseline vs the fused solution, the cuBLAS baseline, the report fields, and autotune.
#include "engine/common/paths.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/context.h"
#include "engine/cuda/driver.h"
#include "engine/cuda/module.h"
#include "engine/measure/autotune.h"
#include "engine/measure/baseline.h"
#include "engine/measure/measure.h"
#include "engine/measure/perf_case.h"
#include "engine/measure/phase.h"
#include "engine/report/figures.h"
#include "engine/problem/spec.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <memory>

using namespace tkm;
using namespace tkm::measure;

namespace {

struct Gpu
{
    cuda::Context context;
    cuda::Stream stream;
    std::unique_ptr<Measurer> measurer;
};
Gpu* g = nullptr;

/// A compiled exercise kernel with its module.
struct Loaded
{
    cuda::Module module;
    cuda::Kernel kernel;
};

std::filesystem::path exerciseDir(const char* rel)
{
    return engine::contentDir() / rel;
}

Loaded compileSource(const problem::ExerciseSpec& spec, const problem::MetaValues& meta, const std::string& source)
{
    auto c = compile::compileKernel(compile::learnerRequest(spec, meta, source, "kernel.cu", g->context.info().cc()));
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
    EXPECT_TRUE(c->ok) << c->log;
    auto m = cuda::Module::load(c->cubin);
    EXPECT_TRUE(m.ok());
    auto k = m->kernel(c->loweredName);
    EXPECT_TRUE(k.ok());
    return Loaded{std::move(*m), *k};
}

/// An exercise with its solution loaded and its performance case on the device.
struct Prepared
{
    problem::ExerciseSpec spec;
    problem::MetaValues meta;
    Loaded solution;
    std::unique_ptr<PerfCase> pc;
    Workload work;
};

std::unique_ptr<Prepared> prepare(const char* rel)
{
    auto p = std::make_unique<Prepared>();
    auto spec = problem::loadSpec(exerciseDir(rel));
    if (!spec.ok()) {
        ADD_FAILURE() << spec.error().message;
        return nullptr;
    }
    p->spec = *spec;
    p->meta = *problem::resolveMeta(p->spec, {});
    p->solution = compileSource(p->spec, p->meta, *engine::readTextFile(p->spec.path(p->spec.solution)));
    std::fprintf(stderr, "  [%s] solution compiled and loaded\n", rel);
    auto pc = PerfCase::create(*g->measurer, p->spec, p->meta, *p->spec.performance, -1);
    if (!pc.ok()) {
        ADD_FAILURE() << pc.error().message;
        return nullptr;
    }
    p->pc = std::move(*pc);
    std::fprintf(stderr, "  [%s] performance case on the device\n", rel);
    auto w = p->pc->workload(p->solution.kernel, p->pc->instance().launch, p->spec.kernel);
    if (!w.ok()) {
        ADD_FAILURE() << w.error().message;
        return nullptr;
    }
    p->work = *w;
    return p;
}

bool noTraffic()
{
    const char* v = std::getenv("TKM_TEST_NO_TRAFFIC");
    return v && *v == '1';
}

#define REQUIRE_TRAFFIC(t)                                                                                             \
    if (noTraffic())                                                                                                   \
        GTEST_SKIP() << "TKM_TEST_NO_TRAFFIC=1";                                                                       \
    ASSERT_TRUE((t).info.available) << "counters unavailable: " << (t).info.unavailableReason

// A report byte figure as a double (0 when absent).
double bytes(const std::optional<int64_t>& v)
{
    return static_cast<double>(v.value_or(0));
}

} // namespace

TEST(MeasureGpu, VectorAddDramBytesMatchTheIdeal)
{
    auto p = prepare("02-vector-add/exercises/vector-add");
    ASSERT_TRUE(p);
    const double n = static_cast<double>(p->pc->instance().sizes.at("n"));
    ASSERT_EQ(n, 67108864.0);
    auto t1 = g->measurer->traffic(p->work, g->stream.handle());
    ASSERT_TRUE(t1.ok()) << t1.error().message;
    REQUIRE_TRAFFIC(*t1);
    auto t2 = g->measurer->traffic(p->work, g->stream.handle()); // second measurement: the counter image is reused
    ASSERT_TRUE(t2.ok()) << t2.error().message;
    std::printf("vector add n=2^26: read %.0f B (ideal %.0f), stored %.0f B (ideal %.0f, %s), dram write %.0f B, "
                "L2 hit %.3f, CUPTI duration %.4f ms, passes %d, traffic wall %.1f ms then %.1f ms, set-up %.1f ms\n",
                bytes(t1->info.dramReadBytes), 2 * n * 4, bytes(t1->info.storedBytes), n * 4,
                t1->info.storedSource.c_str(), bytes(t1->info.dramWriteBytes), t1->info.l2HitRate.value_or(0),
                t1->info.durationMs.value_or(0), t1->passes, t1->wallMs, t2->wallMs, g->measurer->profiler()->setupMs());
    EXPECT_NEAR(bytes(t1->info.dramReadBytes) / (2 * n * 4), 1.0, 0.02);
    EXPECT_NEAR(bytes(t1->info.storedBytes) / (n * 4), 1.0, 0.02);
    EXPECT_NEAR(bytes(t2->info.dramReadBytes) / (2 * n * 4), 1.0, 0.02);
    EXPECT_NEAR(t1->info.efficiency.value_or(0), 1.0, 0.03);
}

TEST(MeasureGpu, KernelReadingItsInputTwiceShowsTwiceTheReadBytes)
{
    const char* src = R"(
extern "C" __global__ void read_twice(const float* x, float* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + x[(i + n / 2) % n];   // the second read comes half a grid later: an L2 miss
}
extern "C" __global__ void read_once(const float* x, float* out, long long n) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * x[i];
})";
    compile::CompileRequest req;
    req.source = src;
    req.kernel = "read_twice";
    req.computeCapability = g->context.info().cc();
    auto c = compile::compileKernel(req);
    ASSERT_TRUE(c.ok() && c->ok) << (c.ok() ? c->log : c.error().message);
    auto m = cuda::Module::load(c->cubin);
    ASSERT_TRUE(m.ok());
    auto twice = m->kernel("read_twice");
    auto once = m->kernel("read_once");
    ASSERT_TRUE(twice.ok() && once.ok());
    const long long n = 1LL << 26;
    auto x = detail::DeviceAllocation::create(n * 4);
    auto out = detail::DeviceAllocation::create(n * 4);
    ASSERT_TRUE(x.ok() && out.ok());
    ASSERT_TRUE(cuda::check(cuda::api().cuMemsetD8(x->ptr(), 0x3c, n * 4), "cuMemsetD8").ok());
    CUdeviceptr xp = x->ptr(), op = out->ptr();
    auto make = [&](const cuda::Kernel& k) {
        Workload w;
        w.label = k.name();
        w.launch = [&k, xp, op, n](CUstream s) mutable {
            void* args[] = {&xp, &op, const_cast<long long*>(&n)};
            return cuda::check(
                cuda::api().cuLaunchKernel(k.handle(), unsigned(n / 256), 1, 1, 256, 1, 1, 0, s, args, nullptr),
                "cuLaunchKernel");
        };
        w.idealBytes = 2.0 * n * 4;
        w.outputBytes = n * 4.0;
        return w;
    };
    auto r2 = g->measurer->traffic(make(*twice), g->stream.handle());
    auto r1 = g->measurer->traffic(make(*once), g->stream.handle());
    ASSERT_TRUE(r1.ok() && r2.ok());
    REQUIRE_TRAFFIC(*r2);
    std::printf("read once: %.0f B read; read twice: %.0f B read (%.3f x the input)\n", bytes(r1->info.dramReadBytes),
                bytes(r2->info.dramReadBytes), bytes(r2->info.dramReadBytes) / (n * 4.0));
    EXPECT_NEAR(bytes(r1->info.dramReadBytes) / (n * 4.0), 1.0, 0.03);
    EXPECT_NEAR(bytes(r2->info.dramReadBytes) / (n * 4.0), 2.0, 0.1);
}

TEST(MeasureGpu, TimingOfOneKernelTwiceAgrees)
{
    auto p = prepare("02-vector-add/exercises/vector-add");
    ASSERT_TRUE(p);
    auto a = g->measurer->time(p->work, g->stream.handle());
    auto b = g->measurer->time(p->work, g->stream.handle());
    ASSERT_TRUE(a.ok() && b.ok());
    std::printf("timing: %.4f ms (%d samples, %s, spread %.2f %%, wall %.1f ms) and %.4f ms (%d samples, %s)\n",
                a->samples.medianMs, a->samples.count, a->stopReason.c_str(), 100 * a->samples.relativeSpread,
                a->wallMs, b->samples.medianMs, b->samples.count, b->stopReason.c_str());
    EXPECT_GE(a->samples.count, 10);
    EXPECT_GE(a->warmupLaunches, 3);
    EXPECT_GE(a->warmupMs, 25.0);
    EXPECT_NEAR(a->samples.medianMs / b->samples.medianMs, 1.0, 0.03);
}

TEST(MeasureGpu, PerformanceResultFillsTheReport)
{
    auto p = prepare("02-vector-add/exercises/vector-add");
    ASSERT_TRUE(p);
    auto r = measurePerformance(*g->measurer, g->stream.handle(), p->work);
    ASSERT_TRUE(r.ok()) << r.error().message;
    report::RunReport rep;
    fillReport(*r, rep);
    nlohmann::json j = rep;
    std::printf("report: %s\n", nlohmann::json{{"timing", j["timing"]},
                                               {"traffic", j["traffic"]},
                                               {"ceilings", j["ceilings"]},
                                               {"roofline", j["roofline"]},
                                               {"stages_ms", j["stages_ms"]}}
                                    .dump()
                                    .c_str());
    ASSERT_TRUE(rep.timing && rep.ceilings && rep.roofline && rep.traffic);
    EXPECT_GT(rep.ceilings->theoreticalGbps, 0);
    ASSERT_TRUE(rep.ceilings->measuredCopyGbps.has_value());
    EXPECT_GT(*rep.ceilings->measuredCopyGbps, 0.5 * rep.ceilings->theoreticalGbps);
    EXPECT_LE(*rep.ceilings->measuredCopyGbps, 1.02 * rep.ceilings->theoreticalGbps);
    EXPECT_EQ(rep.roofline->bound, "memory");
    EXPECT_GT(*rep.timing->achievedGbps, 0.5 * *rep.ceilings->measuredCopyGbps);
}

TEST(MeasureGpu, UnfusedSoftmaxBaselineMovesAtLeastThreeTimesTheBytes)
{
    auto p = prepare("04-fused-softmax/exercises/fused-softmax");
    ASSERT_TRUE(p);
    ASSERT_FALSE(p->spec.baselines.empty());
    auto learner = measurePerformance(*g->measurer, g->stream.handle(), p->work);
    ASSERT_TRUE(learner.ok()) << learner.error().message;
    REQUIRE_TRAFFIC(learner->traffic);
    BaselineResult b = measureBaseline(*g->measurer, g->stream.handle(), p->spec, p->meta, p->spec.baselines[0], *p->pc,
                                       *learner, g->context.info().cc());
    ASSERT_TRUE(b.error.empty()) << b.error;
    REQUIRE_TRAFFIC(b.traffic);
    const double fused = report::bytesMoved(learner->traffic.info);
    const double unfused = report::bytesMoved(b.traffic.info);
    std::printf("softmax: fused %.4f ms, %.0f B; unfused %.4f ms, %.0f B (%.2f x the bytes, time ratio %.3f)\n",
                learner->timing.samples.medianMs, fused, b.timing.samples.medianMs, unfused, unfused / fused,
                b.timeRatio);
    EXPECT_GE(unfused, 3.0 * fused);
    EXPECT_NEAR(b.bytesRatio, fused / unfused, 1e-9);
}

TEST(MeasureGpu, CublasGemmBaselineRuns)
{
    auto p = prepare("06-blocked-matmul/exercises/matmul-fp16");
    ASSERT_TRUE(p);
    const problem::Baseline* cub = nullptr;
    for (const auto& b : p->spec.baselines)
        if (b.kind == "cublas_gemm")
            cub = &b;
    ASSERT_NE(cub, nullptr);
    auto learner = measurePerformance(*g->measurer, g->stream.handle(), p->work);
    ASSERT_TRUE(learner.ok()) << learner.error().message;
    BaselineResult b = measureBaseline(*g->measurer, g->stream.handle(), p->spec, p->meta, *cub, *p->pc, *learner,
                                       g->context.info().cc());
    ASSERT_TRUE(b.error.empty()) << b.error;
    const double flops = p->pc->instance().flops;
    std::printf("matmul 4096^3 fp16: learner %.3f ms (%.0f GFLOP/s), cuBLAS %.3f ms (%.0f GFLOP/s), time ratio %.2f\n",
                learner->timing.samples.medianMs, flops / learner->timing.samples.medianMs / 1e6,
                b.timing.samples.medianMs, flops / b.timing.samples.medianMs / 1e6, b.timeRatio);
    EXPECT_GT(b.timing.samples.medianMs, 0);
    EXPECT_GT(flops / b.timing.samples.medianMs / 1e6, 100000.0); // tensor cores: well above 100 TFLOP/s
}

TEST(MeasureGpu, AutotuneNamesAWinnerPerShape)
{
    auto spec = problem::loadSpec(exerciseDir("05-autotuning/exercises/autotune-row-sum"));
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    auto source = engine::readTextFile(spec->path(spec->solution));
    ASSERT_TRUE(source.ok());
    std::vector<problem::MetaValues> configs{{{"BLOCK_SIZE", 256}, {"NUM_WARPS", 2}},
                                             {{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}},
                                             {{"BLOCK_SIZE", 4096}, {"NUM_WARPS", 8}}};
    TimingOptions fast;
    fast.stop.budgetMs = 200;
    auto r = autotune(*g->measurer, g->stream.handle(), *spec, *source, configs, g->context.info().cc(), fast);
    ASSERT_TRUE(r.ok()) << r.error().message;
    for (const auto& s : r->samples)
        EXPECT_TRUE(s.error.empty()) << s.error;
    ASSERT_EQ(r->winners.size(), spec->autotune->shapes.size());
    for (const auto& w : r->winners)
        std::printf("autotune: M=%lld N=%lld -> BLOCK_SIZE=%lld NUM_WARPS=%lld, %.4f ms (%.2fx over the slowest)\n",
                    (long long)w.key.at("M"), (long long)w.key.at("N"), (long long)w.config.at("BLOCK_SIZE"),
                    (long long)w.config.at("NUM_WARPS"), w.medianMs, w.speedupOverSlowest);
}

/// Prints a raw backtrace on a crash (resolve with addr2line against the unstripped build).
void onCrash(int sig)
{
    void* frames[64];
    const int n = backtrace(frames, 64);
    std::fprintf(stderr, "CRASH: signal %d, backtrace:\n", sig);
    backtrace_symbols_fd(frames, n, 2);
    std::_Exit(128 + sig);
}

int main(int argc, char** argv)
{
    std::signal(SIGSEGV, onCrash);
    std::signal(SIGABRT, onCrash);
    ::testing::InitGoogleTest(&argc, argv);
    const cuda::Driver& drv = cuda::Driver::instance();
    if (!drv.ready() || cuda::deviceCount() == 0) {
        std::printf("SKIPPED: %s\n", drv.ready() ? "no NVIDIA GPU" : drv.message().c_str());
        return 77;
    }
    auto ctx = cuda::Context::create(0);
    if (!ctx.ok()) {
        std::printf("SKIPPED: %s\n", ctx.error().message.c_str());
        return 77;
    }
    Gpu gpu{std::move(*ctx), {}, nullptr};
    auto stream = cuda::Stream::create();
    auto m = Measurer::create(gpu.context, !noTraffic());
    if (!stream.ok() || !m.ok()) {
        std::printf("set-up failed: %s\n", (!stream.ok() ? stream.error() : m.error()).message.c_str());
        return 1;
    }
    gpu.stream = std::move(*stream);
    gpu.measurer = std::move(*m);
    g = &gpu;
    const TrafficProfiler* prof = gpu.measurer->profiler();
    std::printf("device %s (cc %s), CUPTI: %s\n", gpu.context.info().name.c_str(),
                gpu.context.info().ccString().c_str(),
                !prof               ? "off"
                : prof->available() ? ("chip " + prof->chipName()).c_str()
                                    : prof->unavailableReason().c_str());
    const int rc = RUN_ALL_TESTS();
    gpu.measurer.reset();
    g = nullptr;
    return rc;
}
