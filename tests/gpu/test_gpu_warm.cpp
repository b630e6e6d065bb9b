// On a GPU (label gpu): the warm worker (issue 17 items 3-4) and the deep check (issue 14 item 5), through the
// worker client and tkm-run --serve.
//   - a `warm` request answers "pass" with the context and measurer stages, and the next job needs neither;
//   - a second job on the same exercise takes its inputs and float64 reference outputs from the worker's cache and
//     its guarded buffers from the pool, with the same verdicts;
//   - a planted shared-memory race that passes every value check is found by the deep check (racecheck), with
//     its lines; the solution's deep check finds nothing; a missing mask is named by memcheck on its line.
// Without a GPU: "SKIPPED: …", exit 77.
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

std::string readFile(const fs::path& p)
{
    std::ifstream in(p);
    EXPECT_TRUE(in.good()) << "cannot read " << p;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

tkm::runner::Job jobFor(const std::string& source, const std::string& name)
{
    tkm::runner::Job job;
    job.exercise = exerciseDir();
    job.source = source;
    job.sourceName = name;
    return job;
}

void printStages(const char* what, const tkm::report::RunReport& r)
{
    std::cout << "[figure] " << what << ": verdict " << r.verdict;
    for (const auto& [stage, v] : r.stagesMs) {
        std::cout << ", " << stage << " " << v << " ms";
    }
    std::cout << "\n";
}

// Line 11 reads a slot of the neighbouring warp, line 12 overwrites this thread's slot with no barrier in between:
// a write-after-read race. The result never uses the racy value (0 · finite), so every case passes.
const char* kPlantedRace = R"(extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    __shared__ float tile[BLOCK_SIZE];
    volatile float* slot = tile;
    const int t = threadIdx.x;
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + t;
    const float xi = i < n ? x[i] : 0.0f;
    const float yi = i < n ? y[i] : 0.0f;
    slot[t] = xi;
    __syncthreads();
    const float other = slot[t ^ 32];
    slot[t] = yi;
    if (i < n) out[i] = xi + yi + 0.0f * other;
}
)";

bool hasLine(const tkm::report::DeepCheckFinding& f, int line)
{
    return std::find(f.lines.begin(), f.lines.end(), line) != f.lines.end();
}

} // namespace

TEST(GpuWarm, WarmRequestPreparesTheWorker)
{
    tkm::worker::Client client;
    auto warm = client.warm(exerciseDir());
    ASSERT_TRUE(warm.ok()) << warm.error().message;
    printStages("warm-up", *warm);
    EXPECT_EQ(warm->verdict, report::Verdict::Pass) << warm->summary;
    EXPECT_TRUE(warm->stagesMs.count("measurer")) << warm->summary;
    EXPECT_TRUE(warm->stagesMs.count("perf_case")) << warm->summary;
    auto job = jobFor(readFile(exerciseDir() / "solution.cu"), "solution.cu");
    job.measure = true;
    const auto r = client.run(job);
    printStages("first job after the warm-up", r.report);
    ASSERT_EQ(r.report.verdict, report::Verdict::Pass) << r.report.summary;
    EXPECT_EQ(r.report.stagesMs.count("context"), 0u) << "the warm-up created the context";
    ASSERT_TRUE(r.report.timing.has_value());
}

TEST(GpuWarm, SecondJobReusesInputsReferenceAndBuffers)
{
    tkm::worker::Client client;
    const auto job = jobFor(readFile(exerciseDir() / "solution.cu"), "solution.cu");
    auto noMeasure = job;
    noMeasure.measure = false;
    const auto first = client.run(noMeasure);
    const auto second = client.run(noMeasure);
    printStages("first job", first.report);
    printStages("second job", second.report);
    ASSERT_EQ(first.report.verdict, report::Verdict::Pass) << first.report.summary;
    ASSERT_EQ(second.report.verdict, report::Verdict::Pass) << second.report.summary;
    ASSERT_EQ(first.report.cases.size(), second.report.cases.size());
    for (size_t k = 0; k < first.report.cases.size(); ++k) {
        EXPECT_EQ(first.report.cases[k].verdict, second.report.cases[k].verdict);
    }
    const auto& s1 = first.report.stagesMs;
    const auto& s2 = second.report.stagesMs;
    ASSERT_TRUE(s1.count("cases_reference") && s2.count("cases_reference"));
    // The second job neither generates nor runs the reference: its share of the cases stage all but vanishes.
    EXPECT_LT(s2.at("cases_inputs"), std::max(1.0, 0.2 * s1.at("cases_inputs")));
    EXPECT_LT(s2.at("cases_reference"), std::max(1.0, 0.2 * s1.at("cases_reference")));
    // A bug variant on the same worker still fails: the cache holds the reference, not the learner's outputs.
    const auto bug = client.run(jobFor(readFile(exerciseDir() / "bugs/one-thread-per-element.cu"), "bug.cu"));
    EXPECT_EQ(bug.report.verdict, report::Verdict::Fail) << bug.report.summary;
}

TEST(GpuDeepCheck, APlantedSharedMemoryRaceThatPassesIsFoundWithItsLines)
{
    tkm::worker::Client client;
    client.setDeadline(130s);
    auto job = jobFor(kPlantedRace, "race.cu");
    job.meta = {{"BLOCK_SIZE", 128}, {"NUM_WARPS", 4}};
    job.measure = false;
    job.deepCheck = true;
    const auto r = client.run(job);
    printStages("planted race", r.report);
    ASSERT_EQ(r.report.verdict, report::Verdict::Pass) << "the race must pass the value checks: " << r.report.summary;
    ASSERT_TRUE(r.report.deepCheck.has_value());
    const auto& d = *r.report.deepCheck;
    std::cout << "[figure]   deep check: " << d.summary << "\n";
    for (const auto& f : d.findings) {
        std::cout << "[figure]   " << f.tool << " " << f.severity << ": " << f.message << "\n" << f.raw << "\n";
    }
    ASSERT_TRUE(d.available) << d.unavailableReason;
    bool race = false;
    for (const auto& f : d.findings) {
        race = race || (f.tool == "racecheck" && (hasLine(f, 11) || hasLine(f, 12)));
    }
    EXPECT_TRUE(race) << d.summary;
}

TEST(GpuDeepCheck, TheSolutionIsClean)
{
    tkm::worker::Client client;
    client.setDeadline(130s);
    auto job = jobFor(readFile(exerciseDir() / "solution.cu"), "solution.cu");
    job.measure = false;
    job.deepCheck = true;
    const auto r = client.run(job);
    ASSERT_EQ(r.report.verdict, report::Verdict::Pass) << r.report.summary;
    ASSERT_TRUE(r.report.deepCheck.has_value());
    std::cout << "[figure]   solution deep check: " << r.report.deepCheck->summary << "\n";
    EXPECT_TRUE(r.report.deepCheck->available) << r.report.deepCheck->unavailableReason;
    EXPECT_EQ(r.report.deepCheck->tools.size(), 4u) << r.report.deepCheck->summary;
    EXPECT_TRUE(r.report.deepCheck->findings.empty()) << r.report.deepCheck->summary;
}

TEST(GpuDeepCheck, AMissingMaskIsNamedByMemcheckOnItsLine)
{
    tkm::worker::Client client;
    client.setDeadline(130s);
    auto job = jobFor(readFile(exerciseDir() / "bugs/no-mask.cu"), "no-mask.cu");
    job.measure = false;
    job.deepCheck = true;
    const auto r = client.run(job);
    ASSERT_EQ(r.report.verdict, report::Verdict::Fault) << r.report.summary;
    ASSERT_TRUE(r.report.deepCheck.has_value());
    std::cout << "[figure]   no-mask deep check: " << r.report.deepCheck->summary << "\n";
    bool memcheck = false;
    for (const auto& f : r.report.deepCheck->findings) {
        memcheck = memcheck || (f.tool == "memcheck" && !f.lines.empty());
    }
    EXPECT_TRUE(memcheck) << r.report.deepCheck->summary;
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
