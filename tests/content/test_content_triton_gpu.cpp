// On a GPU (label gpu): the Triton track of every built-in exercise through the GPU path (parse, check, lower
// to CUDA C++, NVRTC, guarded run, float64 reference): every solution passes, every bug variant gets the
// diagnosis its exercise.json declares — the verdict test_content_triton asserts on the CPU interpreter — and
// every starter ends in fail, fault or compile_error. Also: a missing-mask kernel reports the buffer, the direction and
// the .py line, program and lane; kernels that print (tl.device_print, CUDA printf) pass with their output captured,
// bounded. Jobs go through the worker (tkm-run --serve) as the app runs them. Without a GPU: prints "SKIPPED: …" and
// exits 77.
#include "engine/common/paths.h"
#include "engine/problem/spec.h"
#include "engine/worker/client.h"
#include "modules/packs/exercise_check.h"
#include "tests/content/content_files.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>

namespace report = tkm::report;

namespace {

namespace fs = std::filesystem;
using tkm::report::RunReport;
using tkm::runner::Device;

std::unique_ptr<tkm::worker::Client> g_client;
std::vector<std::string> g_table; // one line per job, printed at the end

fs::path workerPath()
{
    if (const char* env = std::getenv("TKM_RUN"); env && *env) {
        return env;
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const fs::path sibling = self.parent_path().parent_path() / "bin" / "tkm-run";
    return !ec && fs::exists(sibling) ? sibling : fs::path();
}

RunReport runText(const fs::path& folder, std::string source, const std::string& name, Device device,
                  std::optional<std::vector<std::string>> resetToZero = std::nullopt, bool measure = false)
{
    tkm::runner::Job job;
    job.exercise = folder;
    job.source = std::move(source);
    job.sourceName = name;
    job.mode = tkm::runner::Mode::Run;
    job.device = device;
    job.measure = measure;
    job.resetToZero = std::move(resetToZero);
    return g_client->run(job).report;
}

RunReport runFile(const fs::path& folder, const tkm::problem::ExerciseSpec& spec, const std::string& rel, Device device,
                  std::optional<std::vector<std::string>> resetToZero = std::nullopt)
{
    std::ifstream in(spec.path(rel));
    std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return runText(folder, std::move(source), fs::path(rel).filename().string(), device, std::move(resetToZero));
}

void record(const std::string& exercise, const std::string& source, const std::string& expected, const RunReport& gpu,
            const std::string& problem)
{
    char line[512];
    std::snprintf(line, sizeof line, "%-40s %-28s %-22s %-14s %s", exercise.c_str(), source.c_str(), expected.c_str(),
                  std::string(report::verdictName(gpu.verdict)).c_str(), problem.empty() ? "ok" : "MISMATCH");
    g_table.emplace_back(line);
}

fs::path vectorAdd()
{
    return tkm::test::contentRoot() / "02-vector-add/exercises/vector-add";
}

TEST(ContentTritonGpu, SolutionsPassBugsGetTheirDiagnosis)
{
    const fs::path root = tkm::test::contentRoot();
    int rows = 0;
    for (const fs::path& folder : tkm::test::exerciseFolders(root)) {
        const std::string name = tkm::test::shortName(folder, root);
        const auto spec = tkm::problem::loadSpec(folder);
        ASSERT_TRUE(spec.ok()) << name << ": " << spec.error().message;
        if (!spec->triton) {
            continue;
        }
        const auto& track = *spec->triton;
        const RunReport sol = runFile(folder, *spec, track.solution, Device::Gpu);
        EXPECT_EQ(sol.verdict, report::Verdict::Pass) << name << ": " << track.solution << ": " << sol.summary;
        EXPECT_EQ(sol.executor, "gpu") << name;
        EXPECT_TRUE(sol.compile && !sol.compile->generatedSource.empty()) << name;
        record(name, track.solution, "pass", sol, sol.verdict == report::Verdict::Pass ? "" : sol.summary);
        ++rows;
        for (const auto& bug : track.bugs) {
            const RunReport gpu = runFile(folder, *spec, bug.file, Device::Gpu, bug.resetToZero);
            const std::string problem = tkm::packs::expectationMismatch(bug.expect, gpu);
            EXPECT_EQ(problem, "") << name << ": bug " << bug.file << " on the GPU: " << gpu.summary;
            std::string expected(report::verdictName(bug.expect.verdict));
            if (!bug.expect.fault.empty()) {
                expected += "/" + bug.expect.fault;
            } else if (!bug.expect.reason.empty()) {
                expected += "/" + bug.expect.reason;
            }
            record(name, bug.file, expected, gpu, problem);
            ++rows;
        }
        const RunReport starter = runFile(folder, *spec, track.starter, Device::Gpu);
        const bool starterOk =
            starter.verdict == report::Verdict::Fail || starter.verdict == report::Verdict::Fault || starter.verdict == report::Verdict::CompileError;
        EXPECT_TRUE(starterOk) << name << ": starter " << starter.verdict << ": " << starter.summary;
    }
    EXPECT_GE(rows, 30);
}

TEST(ContentTritonGpu, MissingMaskNamesBufferDirectionLineProgramAndLane)
{
    const std::string src = "import triton\n"
                            "import triton.language as tl\n"
                            "\n"
                            "@triton.jit\n"
                            "def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
                            "    pid = tl.program_id(0)\n"
                            "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                            "    x = tl.load(x_ptr + offsets)\n"
                            "    y = tl.load(y_ptr + offsets)\n"
                            "    tl.store(out_ptr + offsets, x + y)\n";
    const RunReport r = runText(vectorAdd(), src, "add.py", Device::Gpu);
    ASSERT_EQ(r.verdict, report::Verdict::Fault) << r.summary;
    EXPECT_EQ(r.executor, "gpu");
    ASSERT_TRUE(r.fault);
    EXPECT_EQ(r.fault->kind, "read-past-end") << r.fault->message;
    EXPECT_EQ(r.fault->buffer, "x") << r.fault->message;
    EXPECT_EQ(r.fault->line, 8) << r.fault->message;
    EXPECT_EQ(r.fault->programId.size(), 3U) << r.fault->message;
    EXPECT_FALSE(r.fault->lane.empty()) << r.fault->message;
    EXPECT_EQ(r.fault->interpreter, "agrees") << r.fault->message;
    EXPECT_NE(r.fault->message.find("lane"), std::string::npos) << r.fault->message;
    std::printf("[missing mask on the GPU] %s\n", r.fault->message.c_str());
}

TEST(ContentTritonGpu, DevicePrintIsCapturedBounded)
{
    // Every program prints its whole tile: far more lines than a report keeps.
    const std::string src = "import triton\n"
                            "import triton.language as tl\n"
                            "\n"
                            "@triton.jit\n"
                            "def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
                            "    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                            "    mask = offsets < n\n"
                            "    x = tl.load(x_ptr + offsets, mask=mask)\n"
                            "    tl.device_print(\"x\", x)\n"
                            "    tl.store(out_ptr + offsets, x + tl.load(y_ptr + offsets, mask=mask), mask=mask)\n";
    const RunReport r = runText(vectorAdd(), src, "printing.py", Device::Gpu, std::nullopt, true);
    EXPECT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    ASSERT_FALSE(r.printed.empty()) << r.summary;
    EXPECT_LE(r.printed.size(), 200U);
    EXPECT_NE(r.printed.front().find("x"), std::string::npos) << r.printed.front();
    EXPECT_FALSE(r.timing.has_value()) << "a printing kernel is not timed";
    std::printf("[tl.device_print] %zu lines kept, %lld dropped; first: %s\n", r.printed.size(),
                static_cast<long long>(r.printedDropped), r.printed.front().c_str());
}

TEST(ContentTritonGpu, CudaPrintfFromEveryThreadIsCapturedNotATimeout)
{
    const std::string src = "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, "
                            "int n)\n"
                            "{\n"
                            "    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {\n"
                            "        const long long o = (long long)blockIdx.x * BLOCK_SIZE + i;\n"
                            "        printf(\"thread %d of block %d\\n\", (int)threadIdx.x, (int)blockIdx.x);\n"
                            "        if (o < n) out[o] = x[o] + y[o];\n"
                            "    }\n"
                            "}\n";
    const RunReport r = runText(vectorAdd(), src, "printing.cu", Device::Gpu, std::nullopt, true);
    EXPECT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    ASSERT_FALSE(r.printed.empty()) << r.summary;
    EXPECT_NE(r.printed.front().find("thread "), std::string::npos) << r.printed.front();
    EXPECT_GT(r.printedDropped, 0);
    std::printf("[CUDA printf] %zu lines kept, %lld dropped, total %.0f ms\n", r.printed.size(),
                static_cast<long long>(r.printedDropped), r.stagesMs.count("total") ? r.stagesMs.at("total") : -1.0);
}

TEST(ContentTritonGpu, VectorAddIsTimedOnTheGpu)
{
    const auto spec = tkm::problem::loadSpec(vectorAdd());
    ASSERT_TRUE(spec.ok());
    std::ifstream in(spec->path(spec->triton->solution));
    std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const RunReport r = runText(vectorAdd(), source, "solution.py", Device::Gpu, std::nullopt, true);
    ASSERT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    ASSERT_TRUE(r.timing.has_value()) << r.summary;
    EXPECT_GT(r.timing->medianMs, 0);
    std::printf("[vector add, Triton on the GPU] median %.4f ms, %.0f GB/s\n", r.timing->medianMs,
                r.timing->achievedGbps.value_or(0));
}

} // namespace

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    tkm::worker::ClientOptions options;
    options.workerPath = workerPath();
    options.deadline = std::chrono::milliseconds(10000); // the app's default: a printing kernel must fit it
    g_client = std::make_unique<tkm::worker::Client>(options);
    const auto devices = g_client->devices();
    if (!devices) {
        std::printf("SKIPPED: the engine worker could not list devices: %s\n", devices.error().message.c_str());
        return 77;
    }
    if (!devices->contains("devices") || (*devices)["devices"].empty()) {
        const nlohmann::json error = devices->value("error", nlohmann::json::object());
        const std::string why = error.contains("message") ? error["message"].get<std::string>() : "no NVIDIA GPU found";
        std::printf("SKIPPED: %s\n", why.c_str());
        return 77;
    }
    const int status = RUN_ALL_TESTS();
    std::printf("\n%-40s %-28s %-22s %-14s %s\n", "exercise", "source", "expected", "gpu verdict", "result");
    for (const std::string& line : g_table) {
        std::printf("%s\n", line.c_str());
    }
    g_client.reset();
    return status;
}
