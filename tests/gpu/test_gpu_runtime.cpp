// On a GPU (label gpu): the vector add exercise end to end through the worker client and tkm-run --serve —
// the solution passes, the bug variants and the fixtures in tests/data/gpu get the right diagnosis, an endless
// loop is stopped at the deadline and the next job succeeds. Without a GPU: "SKIPPED: …", exit 77.
#include "engine/cuda/device.h"
#include "engine/cuda/driver.h"
#include "engine/worker/client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace report = tkm::report;

namespace {

fs::path exerciseDir()
{
    return fs::path(std::getenv("TKM_CONTENT_DIR")) / "02-vector-add/exercises/vector-add";
}

fs::path fixture(const std::string& name)
{
    if (const char* d = std::getenv("TKM_TEST_DATA")) {
        return fs::path(d) / "gpu" / name;
    }
    return fs::path(TKM_SOURCE_DIR) / "tests/data/gpu" / name;
}

std::string readFile(const fs::path& p)
{
    std::ifstream in(p);
    EXPECT_TRUE(in.good()) << "cannot read " << p;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

tkm::worker::Client& client()
{
    static tkm::worker::Client c; // one warm worker, replaced after faults and time-outs
    return c;
}

tkm::worker::JobResult runFile(const fs::path& file, std::chrono::milliseconds deadline = 10s)
{
    tkm::runner::Job job;
    job.exercise = exerciseDir();
    job.source = readFile(file);
    job.sourceName = file.filename().string();
    client().setDeadline(deadline);
    const auto t0 = std::chrono::steady_clock::now();
    auto r = client().run(job);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::cout << "[figure] " << file.filename().string() << ": verdict " << r.report.verdict << ", wall " << ms
              << " ms";
    for (const auto& [stage, v] : r.report.stagesMs) {
        std::cout << ", " << stage << " " << v << " ms";
    }
    if (r.report.compile) {
        std::cout << ", compile_ms " << r.report.compile->compileMs << (r.report.compile->cached ? " (cached)" : "");
    }
    std::cout << "\n[figure]   summary: " << r.report.summary << "\n";
    return r;
}

const tkm::report::CaseInfo* firstFailing(const tkm::report::RunReport& r)
{
    for (const auto& c : r.cases) {
        if (c.verdict == report::CaseVerdict::Fail) {
            return &c;
        }
    }
    return nullptr;
}

} // namespace

TEST(GpuVectorAdd, SolutionPassesEveryCase)
{
    const auto r = runFile(exerciseDir() / "solution.cu");
    ASSERT_EQ(r.report.verdict, report::Verdict::Pass) << r.json.dump(2);
    ASSERT_EQ(r.report.cases.size(), 7u);
    for (const auto& c : r.report.cases) {
        EXPECT_EQ(c.verdict, report::CaseVerdict::Pass) << c.name << ": " << c.message;
        EXPECT_FALSE(c.nondeterministic.value_or(false)) << c.name;
        std::cout << "[figure]   case " << c.name << ": " << c.verdict << "\n";
    }
    ASSERT_TRUE(r.report.device.has_value());
    if (r.report.stagesMs.count("context") != 0) {
        std::cout << "[figure]   context creation " << r.report.stagesMs.at("context") << " ms\n";
    }
    std::cout << "[figure]   device " << r.report.device->name << " cc " << r.report.device->cc << ", "
              << r.report.device->theoreticalGbps << " GB/s theoretical\n";
}

TEST(GpuVectorAdd, NoMaskIsAReadPastTheEndOfX)
{
    const auto r = runFile(exerciseDir() / "bugs/no-mask.cu");
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.json.dump(2);
    ASSERT_TRUE(r.report.fault.has_value());
    EXPECT_EQ(r.report.fault->kind, "read-past-end") << r.report.fault->message;
    EXPECT_EQ(r.report.fault->buffer, "x");
    EXPECT_NE(r.report.fault->message.find("past the end of `x`"), std::string::npos) << r.report.fault->message;
    EXPECT_EQ(r.report.fault->cudaError, "CUDA_ERROR_ILLEGAL_ADDRESS");
    ASSERT_FALSE(r.report.cases.empty());
    EXPECT_EQ(r.report.cases.front().verdict, report::CaseVerdict::Fault);
    for (size_t i = 1; i < r.report.cases.size(); ++i) {
        EXPECT_EQ(r.report.cases[i].verdict, report::CaseVerdict::Skipped);
    }
    EXPECT_TRUE(r.workerReplaced) << "the worker exits after a sticky error";
}

TEST(GpuVectorAdd, UnmaskedStoreIsAWritePastTheEndOfOut)
{
    const auto r = runFile(fixture("write-past-end.cu"));
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.json.dump(2);
    EXPECT_EQ(r.report.fault->kind, "write-past-end") << r.report.fault->message;
    EXPECT_EQ(r.report.fault->buffer, "out");
}

TEST(GpuVectorAdd, ShiftedLoadIsAReadBeforeTheStartOfX)
{
    const auto r = runFile(fixture("read-before-start.cu"));
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.json.dump(2);
    EXPECT_EQ(r.report.fault->kind, "read-before-start") << r.report.fault->message;
    EXPECT_EQ(r.report.fault->buffer, "x");
}

TEST(GpuVectorAdd, EarlyStoreIsAWriteBeforeTheStartOfOut)
{
    const auto r = runFile(fixture("write-before-start.cu"));
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.json.dump(2);
    EXPECT_EQ(r.report.fault->kind, "write-before-start") << r.report.fault->message;
    EXPECT_EQ(r.report.fault->buffer, "out");
}

TEST(GpuVectorAdd, EndlessLoopIsStoppedAndTheNextJobSucceeds)
{
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = runFile(fixture("endless-loop.cu"), 4s);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.report.verdict, report::Verdict::Timeout) << r.json.dump(2);
    EXPECT_EQ(r.report.summary.rfind("the kernel did not finish in 4 s — endless loop?", 0), 0u) << r.report.summary;
    EXPECT_LT(s, 8.0);
    const auto next = runFile(exerciseDir() / "solution.cu");
    EXPECT_EQ(next.report.verdict, report::Verdict::Pass) << next.json.dump(2);
}

TEST(GpuVectorAdd, AccumulatingIntoTheOutputFails)
{
    const auto r = runFile(fixture("accumulate.cu"));
    ASSERT_EQ(r.report.verdict, report::Verdict::Fail) << r.json.dump(2);
    const auto* c = firstFailing(r.report);
    ASSERT_NE(c, nullptr);
    ASSERT_FALSE(c->outputs.empty());
    // Poisoned outputs turn `out += v` into NaN on every launch: never a pass, whatever the order of launches.
    EXPECT_GT(c->outputs[0].nan + c->outputs[0].mismatches, 0) << c->message;
}

TEST(GpuVectorAdd, OneThreadPerElementLeavesUnwrittenOutputs)
{
    const auto r = runFile(exerciseDir() / "bugs/one-thread-per-element.cu");
    ASSERT_EQ(r.report.verdict, report::Verdict::Fail) << r.json.dump(2);
    const auto* c = firstFailing(r.report);
    ASSERT_NE(c, nullptr);
    ASSERT_FALSE(c->outputs.empty());
    EXPECT_GT(c->outputs[0].unwritten, 0) << c->message;
    std::cout << "[figure]   first failing case " << c->name << ": " << c->outputs[0].unwritten << " unwritten; "
              << c->message << "\n";
}

// Issue 14, item 1: a legal float4 access on a ragged size passes (buffers start 16-byte aligned).
TEST(GpuRuntime, LegalFloat4OnARaggedSizePasses)
{
    const auto r = runFile(fixture("float4-ragged.cu"));
    EXPECT_EQ(r.report.verdict, report::Verdict::Pass) << r.report.summary;
}

// Issue 14, item 2: a trap and a stack overflow get their own kind; no buffer is blamed.
TEST(GpuRuntime, TrapIsNotBlamedOnABuffer)
{
    const auto r = runFile(fixture("trap.cu"), 60s);
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.report.summary;
    ASSERT_TRUE(r.report.fault.has_value());
    std::cout << "[figure] trap: kind " << r.report.fault->kind << " (" << r.report.fault->cudaError << "): "
              << r.report.fault->message << "\n";
    EXPECT_EQ(r.report.fault->kind, "trap");
    EXPECT_EQ(r.report.fault->buffer, "");
}

// Issue 14, item 2: assert() works under NVRTC (<assert.h>, <cassert>) and a failed one is named by its line.
TEST(GpuRuntime, FailedAssertIsNamedByItsLine)
{
    const auto r = runFile(fixture("assert.cu"), 60s);
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.report.summary;
    ASSERT_TRUE(r.report.fault.has_value());
    const auto& f = *r.report.fault;
    std::cout << "[figure] assert: kind " << f.kind << " (" << f.cudaError << "): " << f.message << "\n";
    EXPECT_EQ(f.kind, "assert");
    EXPECT_EQ(f.buffer, "");
    EXPECT_EQ(f.cudaError, "CUDA_ERROR_ASSERT");
    EXPECT_EQ(f.line, 9);
    EXPECT_EQ(f.programId, (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(f.lane, (std::vector<int64_t>{5, 0, 0}));
    EXPECT_NE(f.message.find("line 9"), std::string::npos) << f.message;
}

TEST(GpuRuntime, AssertUnderNdebugIsCompiledOut)
{
    const auto r = runFile(fixture("assert-ndebug.cu"), 60s);
    EXPECT_EQ(r.report.verdict, report::Verdict::Pass) << r.report.summary;
}

// tl.device_assert lowers to the device's __assertfail, as in Triton: the same kind and line as the interpreter.
TEST(GpuRuntime, FailedTritonDeviceAssertIsNamedByItsPyLine)
{
    const auto r = runFile(fixture("device-assert.py"), 60s);
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.report.summary;
    ASSERT_TRUE(r.report.fault.has_value());
    const auto& f = *r.report.fault;
    std::cout << "[figure] tl.device_assert: kind " << f.kind << " (" << f.cudaError << "), interpreter "
              << f.interpreter << ": " << f.message << "\n";
    EXPECT_EQ(r.report.executor, "gpu");
    EXPECT_EQ(f.kind, "assert");
    EXPECT_EQ(f.buffer, "");
    EXPECT_EQ(f.cudaError, "CUDA_ERROR_ASSERT");
    EXPECT_EQ(f.line, 11);
    ASSERT_EQ(f.programId.size(), 3U);
    EXPECT_EQ(f.programId[0], 0);
    EXPECT_EQ(f.interpreter, "agrees") << f.message;
}

TEST(GpuRuntime, DeepRecursionIsNotBlamedOnABuffer)
{
    const auto r = runFile(fixture("deep-recursion.cu"), 60s);
    std::cout << "[figure] deep recursion: verdict " << r.report.verdict << ", kind "
              << (r.report.fault ? r.report.fault->kind + " (" + r.report.fault->cudaError + "): " +
                                       r.report.fault->message
                                 : r.report.summary)
              << "\n";
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.report.summary;
    EXPECT_EQ(r.report.fault->buffer, "");
    EXPECT_EQ(r.report.fault->kind.find("-end"), std::string::npos);
    EXPECT_EQ(r.report.fault->kind.find("-start"), std::string::npos);
}

int main(int argc, char** argv)
{
    const auto& driver = tkm::cuda::Driver::instance();
    if (!driver.ready() || tkm::cuda::deviceCount() == 0) {
        std::cout << "SKIPPED: " << (driver.ready() ? "no NVIDIA GPU" : driver.message()) << "\n";
        return 77;
    }
    if (std::getenv("TKM_CONTENT_DIR") == nullptr || std::getenv("TKM_RUN") == nullptr) {
        std::cout << "SKIPPED: TKM_CONTENT_DIR and TKM_RUN must be set (tkm_add_test sets them)\n";
        return 77;
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
