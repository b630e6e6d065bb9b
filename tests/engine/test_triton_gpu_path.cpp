// The GPU path of Triton jobs where no GPU is needed: the lowering + NVRTC compile of a .py job (device gpu)
// with the generated source and its per-line map in the report, internal errors of our compiler named on the
// Triton line, and the device printf capture (in a child process: it moves the process's stdout).
#include "engine/report/run_report.h"
#include "engine/runner/device_assert.h"
#include "engine/runner/device_print.h"
#include "engine/runner/runner.h"
#include "engine/runner/triton_gpu.h"
#include "tests/engine/test_util.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>

namespace report = tkm::report;

namespace {

using tkm::report::RunReport;
using tkm::runner::Device;

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

RunReport runTriton(std::string source, const std::string& name, Device device, tkm::runner::Mode mode)
{
    tkm::runner::Job job;
    job.exercise = tkm::test::vectorAddDir();
    job.source = std::move(source);
    job.sourceName = name;
    job.device = device;
    job.mode = mode;
    tkm::runner::Runner runner;
    return runner.run(job);
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        out.push_back(l);
    }
    return out;
}

TEST(TritonGpuPath, CompileOnlyGivesTheGeneratedSourceAndItsLineMap)
{
    const std::string src = readFile(tkm::test::vectorAddDir() / "solution.py");
    const RunReport r = runTriton(src, "solution.py", Device::Gpu, tkm::runner::Mode::CompileOnly);
    ASSERT_EQ(r.verdict, report::Verdict::Compiled) << r.summary;
    EXPECT_EQ(r.language, "triton");
    ASSERT_TRUE(r.compile);
    EXPECT_TRUE(r.compile->ok);
    EXPECT_EQ(r.compile->arch, "sm_90");
    ASSERT_TRUE(r.compile->resources) << "ptxas figures of the generated kernel";
    EXPECT_GT(r.compile->resources->registers, 0);
    const auto gen = lines(r.compile->generatedSource);
    EXPECT_NE(r.compile->generatedSource.find("tkm_triton_kernel"), std::string::npos);
    ASSERT_FALSE(r.compile->generatedLines.empty());
    // Line 15 of solution.py is `x = tl.load(x_ptr + offsets, mask=mask)`: its generated lines are a load.
    const std::vector<std::string> py = lines(src);
    ASSERT_GE(py.size(), 15U);
    ASSERT_NE(py[14].find("tl.load(x_ptr"), std::string::npos) << py[14];
    bool found = false;
    for (const auto& g : r.compile->generatedLines) {
        for (const auto& run : g.cuda) {
            ASSERT_GE(run[0], 1);
            ASSERT_LE(run[0], run[1]);
            ASSERT_LE(run[1], static_cast<int>(gen.size()));
        }
        if (g.line == 15) {
            found = true;
            std::string text;
            for (const auto& run : g.cuda) {
                for (int l = run[0]; l <= run[1]; ++l) {
                    text += gen[static_cast<size_t>(l - 1)] + "\n";
                }
            }
            EXPECT_NE(text.find("tkm::vload"), std::string::npos) << text;
        }
    }
    EXPECT_TRUE(found) << "no generated lines for line 15";
    // The JSON form carries both (docs/run-report.md, "compile").
    const nlohmann::json j = r;
    EXPECT_TRUE(j["compile"].contains("generated_source"));
    ASSERT_TRUE(j["compile"]["generated_lines"].is_array());
    const RunReport back = j.get<RunReport>();
    ASSERT_EQ(back.compile->generatedLines.size(), r.compile->generatedLines.size());
    EXPECT_EQ(back.compile->generatedLines[0].cuda, r.compile->generatedLines[0].cuda);
}

TEST(TritonGpuPath, OneSpecialisationServesCasesWithTheirOwnGrids)
{
    auto spec = tkm::problem::loadSpec(tkm::test::vectorAddDir());
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    auto meta = tkm::problem::resolveMeta(*spec, {});
    ASSERT_TRUE(meta.ok());
    tkm::runner::Job job;
    job.exercise = spec->dir;
    job.source = readFile(spec->path(spec->triton->solution));
    job.sourceName = "solution.py";
    tkm::runner::detail::TritonGpuCompiler compiler(job, *spec, 90);
    const tkm::runner::detail::TritonGpuKernel* first = nullptr;
    for (int ci = 0; ci < static_cast<int>(spec->cases.size()); ++ci) {
        auto inst = tkm::problem::instantiate(*spec, spec->cases[static_cast<size_t>(ci)], *meta, ci);
        ASSERT_TRUE(inst.ok());
        const auto n = inst->sizes.at("n");
        auto k = compiler.forCase(*inst);
        ASSERT_TRUE(k.ok()) << k.error().message;
        ASSERT_NE(*k, nullptr);
        ASSERT_TRUE((*k)->ok());
        first = first ? first : *k;
        EXPECT_EQ(*k, first) << "one BLOCK_SIZE: one specialisation";
        EXPECT_EQ(inst->launch.grid[0], (n + 1023) / 1024) << "case " << ci;
        EXPECT_EQ(inst->launch.block[0], 128) << "NUM_WARPS = 4";
    }
    auto perf = tkm::problem::instantiate(*spec, *spec->performance, *meta, -1);
    ASSERT_TRUE(perf.ok());
    ASSERT_TRUE(compiler.forCase(*perf).ok());
    EXPECT_EQ(perf->launch.grid[0], (perf->sizes.at("n") + 1023) / 1024);
}

// The GPU's diagnosis of a fault (kind and buffer) as the probes give it, then the interpreter's replay.
tkm::report::FaultInfo replayed(const std::string& file, const std::string& kind, const std::string& buffer)
{
    auto spec = tkm::problem::loadSpec(tkm::test::vectorAddDir());
    EXPECT_TRUE(spec.ok());
    auto meta = tkm::problem::resolveMeta(*spec, {});
    tkm::runner::Job job;
    job.exercise = spec->dir;
    job.source = readFile(spec->path(file));
    job.sourceName = std::filesystem::path(file).filename().string();
    tkm::report::FaultInfo f;
    f.kind = kind;
    f.buffer = buffer;
    f.message = "GPU sentence.";
    tkm::runner::detail::locateFault(job, *spec, *meta, tkm::runner::detail::RepeatPlan{}, 0, f);
    return f;
}

TEST(TritonGpuPath, AGpuFaultIsLocatedByTheInterpreterOrTheDisagreementSaid)
{
    const auto agree = replayed("bugs/no-mask.py", "read-past-end", "x");
    EXPECT_EQ(agree.interpreter, "agrees");
    EXPECT_EQ(agree.line, 12);
    EXPECT_EQ(agree.programId, (std::vector<int64_t>{0, 0, 0}));
    EXPECT_EQ(agree.lane, (std::vector<int64_t>{1}));
    EXPECT_EQ(agree.message.rfind("GPU sentence.", 0), 0U) << agree.message;
    EXPECT_NE(agree.message.find("lane 1 of 1024"), std::string::npos) << agree.message;

    const auto other = replayed("bugs/no-mask.py", "write-past-end", "out");
    EXPECT_EQ(other.interpreter, "disagrees");
    EXPECT_NE(other.message.find("disagrees with the GPU"), std::string::npos) << other.message;

    const auto clean = replayed("solution.py", "read-past-end", "x");
    EXPECT_EQ(clean.interpreter, "no-fault");
    EXPECT_EQ(clean.line, 0);
    EXPECT_NE(clean.message.find("bug in our lowering"), std::string::npos) << clean.message;
}

TEST(TritonGpuPath, CheckerErrorsStayTritonCompileErrors)
{
    const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                            "def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
                            "    offsets = tl.arange(0, 1000)\n"
                            "    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets))\n";
    const RunReport r = runTriton(src, "bad.py", Device::Gpu, tkm::runner::Mode::Run);
    EXPECT_EQ(r.verdict, report::Verdict::CompileError) << r.summary;
    EXPECT_NE(r.summary.find("bad.py:6:"), std::string::npos) << r.summary;
    ASSERT_TRUE(r.compile);
    EXPECT_TRUE(r.compile->generatedSource.empty());
}

TEST(TritonGpuPath, GeneratedCodeThatDoesNotCompileIsAnInternalErrorOnTheTritonLine)
{
    // 4000 unrolled iterations make a translation unit far over the compiler's source limit: our code
    // generator cannot emit this kernel, which Triton would compile.
    const std::string src = "import triton\n"
                            "import triton.language as tl\n"
                            "\n"
                            "@triton.jit\n"
                            "def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
                            "    o = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                            "    x = tl.load(x_ptr + o, mask=o < n)\n"
                            "    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)\n"
                            "    for i in tl.static_range(4000):\n"
                            "        acc += x * i\n"
                            "    tl.store(out_ptr + o, acc, mask=o < n)\n";
    const RunReport r = runTriton(src, "unroll.py", Device::Gpu, tkm::runner::Mode::Run);
    ASSERT_EQ(r.verdict, report::Verdict::Error) << r.summary;
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->kind, "internal");
    EXPECT_NE(r.summary.find("unroll.py:10"), std::string::npos) << r.summary;
    EXPECT_NE(r.summary.find("not in your kernel"), std::string::npos) << r.summary;
    EXPECT_EQ(r.summary.find(".cu("), std::string::npos) << "no CUDA line the learner did not write: " << r.summary;
    ASSERT_TRUE(r.compile);
    EXPECT_FALSE(r.compile->ok);
    bool onLine = false;
    for (const auto& d : r.compile->diagnostics) {
        onLine = onLine || (d.file == "unroll.py" && d.line == 10 && d.severity == "error" &&
                            d.message.find("internal error") != std::string::npos);
    }
    EXPECT_TRUE(onLine) << "the diagnostic sits on the Triton line";
}

TEST(TritonGpuPath, CpuDeviceStillRunsTheInterpreter)
{
    const std::string src = readFile(tkm::test::vectorAddDir() / "solution.py");
    const RunReport r = runTriton(src, "solution.py", Device::Cpu, tkm::runner::Mode::Run);
    EXPECT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    EXPECT_EQ(r.executor, "cpu-interpreter");
}

// In a child process: install the capture, print through C stdio and raw write(1), drain, check.
void captureChild()
{
    if (!tkm::runner::captureDevicePrintf() || !tkm::runner::devicePrintfCaptured()) {
        std::_Exit(2);
    }
    for (int i = 0; i < 250; ++i) {
        std::printf("line %d\n", i);
    }
    std::fflush(stdout); // stdio's buffer before a raw write, as the order of the lines is checked
    const char raw[] = "raw write\n";
    if (::write(STDOUT_FILENO, raw, sizeof raw - 1) < 0) {
        std::_Exit(3);
    }
    int64_t dropped = 0;
    const auto got = tkm::runner::drainDevicePrintf(200, dropped);
    if (got.size() != 200 || got[0] != "line 0" || got[199] != "line 199" || dropped != 51) {
        std::_Exit(4);
    }
    // Drained: the next drain sees only what came after, including a last line without a newline.
    std::printf("tail");
    const auto again = tkm::runner::drainDevicePrintf(200, dropped);
    if (again.size() != 1 || again[0] != "tail" || dropped != 0) {
        std::_Exit(5);
    }
    std::_Exit(0);
}

// The line CUDA's __assertfail prints (CUDA C++ Programming Guide, "Assertion"), as the runner reads it back.
TEST(TritonGpuPath, DeviceAssertLinesAreParsed)
{
    const auto a = tkm::runner::parseDeviceAssert(
        "kernel.cu:9: void vector_add(const float *, const float *, float *, int): block: [3,0,0], thread: "
        "[17,1,0] Assertion `k != 5 && \"element 5 is refused\"` failed.");
    ASSERT_TRUE(a.has_value());
    EXPECT_EQ(a->file, "kernel.cu");
    EXPECT_EQ(a->line, 9);
    EXPECT_EQ(a->function, "void vector_add(const float *, const float *, float *, int)");
    EXPECT_EQ(a->block, (std::array<int64_t, 3>{3, 0, 0}));
    EXPECT_EQ(a->thread, (std::array<int64_t, 3>{17, 1, 0}));
    EXPECT_EQ(a->condition, "k != 5 && \"element 5 is refused\"");
    // A Triton kernel's assert names the .py through the #line map; a file name may hold ':'.
    const auto py = tkm::runner::parseDeviceAssert(
        "C:/k/kernel.py:11: void tkm_triton_kernel(float *): block: [0,0,0], thread: [5,0,0] Assertion "
        "`element 5 is refused` failed.");
    ASSERT_TRUE(py.has_value());
    EXPECT_EQ(py->file, "C:/k/kernel.py");
    EXPECT_EQ(py->line, 11);
    EXPECT_FALSE(tkm::runner::parseDeviceAssert("pid (0, 0, 0) idx (5) x: 1.0").has_value());
    EXPECT_FALSE(tkm::runner::parseDeviceAssert("a.cu:x: f: block: [0,0,0], thread: [0,0,0] Assertion `a` failed.")
                     .has_value());
    const std::vector<std::string> printed = {"hello", "kernel.cu:4: void k(): block: [1,2,3], thread: [4,5,6] "
                                                       "Assertion `0` failed."};
    const auto found = tkm::runner::findDeviceAssert(printed);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->condition, "0");
}

TEST(TritonGpuPath, DevicePrintfCaptureIsBounded)
{
    EXPECT_EXIT(captureChild(), ::testing::ExitedWithCode(0), "");
}

TEST(TritonGpuPath, KeepPrintedCountsWhatItDrops)
{
    RunReport r;
    std::vector<std::string> many(150, "x");
    tkm::runner::detail::keepPrinted(r, many, 7);
    tkm::runner::detail::keepPrinted(r, many, 0);
    EXPECT_EQ(r.printed.size(), tkm::runner::kPrintedKept);
    EXPECT_EQ(r.printedDropped, 100 + 7);
}

} // namespace
