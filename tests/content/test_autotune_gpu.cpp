// On a GPU (label gpu): tuning jobs of module 5 through the worker, as the app and `tkm-run run --config` send
// them. The autotune-row-sum solution passes with every one of four configurations and gets a winner per shape;
// the histogram solution tuned without declaring reset_to_zero fails with the accumulation diagnosis, and passes
// with hist declared. Without a GPU: prints "SKIPPED: …" and exits 77.
#include "engine/problem/spec.h"
#include "engine/worker/client.h"
#include "tests/content/content_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>

namespace report = tkm::report;

namespace {

namespace fs = std::filesystem;
using tkm::report::RunReport;

std::unique_ptr<tkm::worker::Client> g_client;

fs::path workerPath()
{
    if (const char* env = std::getenv("TKM_RUN"); env && *env)
        return env;
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    const fs::path sibling = self.parent_path().parent_path() / "bin" / "tkm-run";
    return !ec && fs::exists(sibling) ? sibling : fs::path();
}

RunReport tune(const char* rel, std::vector<tkm::problem::MetaValues> configs,
               std::optional<std::vector<std::string>> resetToZero = std::nullopt)
{
    const fs::path folder = tkm::test::contentRoot() / rel;
    auto spec = tkm::problem::loadSpec(folder);
    EXPECT_TRUE(spec);
    std::ifstream in(spec->path(spec->solution));
    tkm::runner::Job job;
    job.exercise = folder;
    job.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    job.configs = std::move(configs);
    job.resetToZero = std::move(resetToZero);
    RunReport r = g_client->run(job).report;
    std::printf("--- %s%s\n%s  verdict %s: %s\n", rel, job.resetToZero ? " (reset_to_zero declared)" : "",
                r.autotune ? tkm::report::formatAutotuneText(*r.autotune).c_str() : "(no autotune section)\n",
                std::string(report::verdictName(r.verdict)).c_str(), r.summary.c_str());
    return r;
}

TEST(AutotuneGpu, RowSumSolutionPassesEveryConfigAndNamesAWinnerPerShape)
{
    const RunReport r = tune("05-autotuning/exercises/autotune-row-sum",
                             {{{"BLOCK_SIZE", 128}, {"NUM_WARPS", 1}},
                              {{"BLOCK_SIZE", 512}, {"NUM_WARPS", 4}},
                              {{"BLOCK_SIZE", 2048}, {"NUM_WARPS", 8}},
                              {{"BLOCK_SIZE", 8192}, {"NUM_WARPS", 32}}});
    EXPECT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    ASSERT_TRUE(r.autotune);
    const auto& at = *r.autotune;
    ASSERT_EQ(at.configs.size(), 4u);
    for (const auto& c : at.configs)
        EXPECT_EQ(c.verdict, report::ConfigVerdict::Pass) << c.summary;
    EXPECT_EQ(at.launchesPerCheck, 3);
    ASSERT_EQ(at.samples.size(), 4u * at.shapes.size());
    for (const auto& s : at.samples) {
        ASSERT_TRUE(s.medianMs) << s.error;
        EXPECT_GT(*s.medianMs, 0);
    }
    ASSERT_EQ(at.winners.size(), at.shapes.size());
    for (int shape = 0; shape < static_cast<int>(at.shapes.size()); ++shape) {
        const int w = at.winnerForShape(shape);
        ASSERT_GE(w, 0);
        // The winner is the fastest sample of its shape.
        for (int c = 0; c < 4; ++c)
            EXPECT_LE(*at.sample(w, shape)->medianMs, *at.sample(c, shape)->medianMs);
    }
    for (const auto& w : at.winners)
        EXPECT_GE(w.speedupOverSlowest, 1.0);
    EXPECT_TRUE(r.stagesMs.count("autotune"));
}

TEST(AutotuneGpu, HistogramTunedWithoutDeclaredResetFailsWithTheAccumulationDiagnosis)
{
    const RunReport r = tune("05-autotuning/exercises/histogram-reset",
                             {{{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}}, {{"BLOCK_SIZE", 8192}, {"NUM_WARPS", 8}}});
    EXPECT_EQ(r.verdict, report::Verdict::Fail) << r.summary;
    ASSERT_TRUE(r.autotune);
    for (const auto& c : r.autotune->configs)
        EXPECT_EQ(c.verdict, report::ConfigVerdict::Fail) << c.summary;
    EXPECT_TRUE(r.autotune->samples.empty());
    EXPECT_NE(r.autotune->note.find("no configuration passes"), std::string::npos) << r.autotune->note;
    ASSERT_FALSE(r.cases.empty());
    const auto& first = r.cases.front();
    EXPECT_EQ(first.verdict, report::CaseVerdict::Fail);
    EXPECT_EQ(first.accumulated, std::vector<std::string>{"hist"});
    EXPECT_FALSE(first.nondeterministic.value_or(false));
    EXPECT_NE(first.message.find("accumulated across the autotuner's repeated launches"), std::string::npos)
        << first.message;
    EXPECT_NE(first.message.find("reset_to_zero=[\"hist\"]"), std::string::npos) << first.message;
    EXPECT_NE(r.summary.find("accumulated across the autotuner's repeated launches"), std::string::npos) << r.summary;
}

TEST(AutotuneGpu, HistogramTunedWithDeclaredResetPasses)
{
    const RunReport r =
        tune("05-autotuning/exercises/histogram-reset",
             {{{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}}, {{"BLOCK_SIZE", 8192}, {"NUM_WARPS", 8}}},
             std::vector<std::string>{"hist"});
    EXPECT_EQ(r.verdict, report::Verdict::Pass) << r.summary;
    ASSERT_TRUE(r.autotune);
    EXPECT_EQ(r.autotune->resetToZero, std::vector<std::string>{"hist"});
    for (const auto& c : r.autotune->configs)
        EXPECT_EQ(c.verdict, report::ConfigVerdict::Pass) << c.summary;
    EXPECT_EQ(r.autotune->winners.size(), r.autotune->shapes.size());
}

} // namespace

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    tkm::worker::ClientOptions options;
    options.workerPath = workerPath();
    options.deadline = std::chrono::milliseconds(240000);
    g_client = std::make_unique<tkm::worker::Client>(options);
    const auto devices = g_client->devices();
    if (!devices || !devices->contains("devices") || (*devices)["devices"].empty()) {
        std::printf("SKIPPED: no NVIDIA GPU found (%s)\n",
                    devices ? devices->value("error", nlohmann::json::object()).dump().c_str()
                            : devices.error().message.c_str());
        return 77;
    }
    const int status = RUN_ALL_TESTS();
    g_client.reset();
    return status;
}
