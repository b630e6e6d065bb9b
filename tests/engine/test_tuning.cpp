// Tuning jobs without a GPU: the worker protocol's "configs" and "reset_to_zero", --config text, the
// min_configs and autotune-block errors of the runner, the reset plan of a tuning job, the report's autotune
// section (JSON round trip and terminal text) from a synthetic autotune result, and the built-in exercises'
// autotune blocks.
#include "engine/cuda/driver.h"
#include "engine/measure/autotune_phase.h"
#include "engine/problem/meta_text.h"
#include "engine/runner/check_case.h"
#include "engine/runner/runner.h"
#include "engine/worker/protocol.h"
#include "tests/content/content_files.h"
#include "tests/engine/test_util.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace {

using namespace tkm;
using nlohmann::json;

std::filesystem::path exercise(const char* rel)
{
    return tkm::test::contentRoot() / rel;
}

const char* kRowSum = "05-autotuning/exercises/autotune-row-sum";
const char* kHistogram = "05-autotuning/exercises/histogram-reset";

TEST(TuningProtocol, ConfigsAndResetToZeroRoundTrip)
{
    runner::Job job;
    job.exercise = "/x/autotune-row-sum";
    job.source = "__global__ void row_sum() {}";
    job.configs = {{{"BLOCK_SIZE", 256}, {"NUM_WARPS", 2}}, {{"BLOCK_SIZE", 4096}, {"NUM_WARPS", 16}}};
    job.resetToZero = std::vector<std::string>{"hist"};
    const json request = worker::jobRequest(job, 7);
    EXPECT_EQ(request["configs"], json::parse(R"([{"BLOCK_SIZE": 256, "NUM_WARPS": 2},
                                                  {"BLOCK_SIZE": 4096, "NUM_WARPS": 16}])"));
    EXPECT_EQ(request["reset_to_zero"], json::array({"hist"}));
    auto back = worker::jobFromRequest(request);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->configs, job.configs);
    EXPECT_EQ(back->resetToZero, job.resetToZero);

    runner::Job plain = job;
    plain.configs.clear();
    EXPECT_FALSE(worker::jobRequest(plain, 8).contains("configs")); // a plain job stays as it was
}

TEST(TuningProtocol, MalformedConfigsNameTheEntry)
{
    json request = {{"op", "run"}, {"exercise", "/x"}, {"source", ""}};
    request["configs"] = {{{"BLOCK_SIZE", 256}}, {{"NUM_WARPS", "four"}}};
    auto job = worker::jobFromRequest(request);
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("entry 1: NUM_WARPS must be an integer"), std::string::npos)
        << job.error().message;
    request["configs"] = json::object();
    job = worker::jobFromRequest(request);
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("must be an array of objects of integers"), std::string::npos);
    request["configs"] = {256};
    job = worker::jobFromRequest(request);
    ASSERT_FALSE(job);
    EXPECT_NE(job.error().message.find("entry 0 is not an object"), std::string::npos);
}

TEST(MetaText, ParsesConfigAndSaysWhatIsWrong)
{
    auto c = problem::parseMetaAssignments("BLOCK_SIZE=256, NUM_WARPS = 2");
    ASSERT_TRUE(c) << c.error().message;
    EXPECT_EQ(*c, (problem::MetaValues{{"BLOCK_SIZE", 256}, {"NUM_WARPS", 2}}));
    EXPECT_EQ(problem::formatMetaAssignments(*c), "BLOCK_SIZE=256,NUM_WARPS=2");
    EXPECT_EQ(*problem::parseMetaAssignments(problem::formatMetaAssignments(*c)), *c);

    const std::pair<const char*, const char*> bad[] = {
        {"", "it is empty"},
        {"BLOCK_SIZE", "\"BLOCK_SIZE\" has no \"=\""},
        {"=4", "has no name before"},
        {"BLOCK_SIZE=2x", "the value of BLOCK_SIZE (\"2x\") is not an integer"},
        {"BLOCK_SIZE=256,", "\"\" has no \"=\""},
        {"NUM_WARPS=2,NUM_WARPS=4", "NUM_WARPS is given twice"},
    };
    for (const auto& [text, why] : bad) {
        auto r = problem::parseMetaAssignments(text);
        ASSERT_FALSE(r) << text;
        EXPECT_NE(r.error().message.find(why), std::string::npos) << r.error().message;
        EXPECT_NE(r.error().message.find("e.g. BLOCK_SIZE=256,NUM_WARPS=2"), std::string::npos);
    }
}

TEST(TuningRunner, FewerConfigsThanMinConfigsSaysHowManyAreNeeded)
{
    runner::Runner runner;
    runner::Job job;
    job.exercise = exercise(kRowSum);
    job.source = "irrelevant: the count is checked first";
    job.configs = {{{"BLOCK_SIZE", 256}}, {{"BLOCK_SIZE", 1024}}};
    const report::RunReport r = runner.run(job);
    EXPECT_EQ(r.verdict, report::Verdict::Error);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->kind, "bad-input");
    EXPECT_NE(r.summary.find("needs at least 3 configurations to autotune; 2 were given. Add 1 more"),
              std::string::npos)
        << r.summary;
}

TEST(TuningRunner, ConfigsOnAnExerciseWithoutAutotuneAndUnknownMetaAreErrors)
{
    runner::Runner runner;
    runner::Job job;
    job.exercise = tkm::test::contentRoot() / "02-vector-add/exercises/vector-add";
    job.source = "";
    job.configs = {{{"BLOCK_SIZE", 256}}};
    report::RunReport r = runner.run(job);
    EXPECT_EQ(r.verdict, report::Verdict::Error);
    EXPECT_NE(r.summary.find("has no autotune block"), std::string::npos) << r.summary;

    job.exercise = exercise(kRowSum);
    job.configs = {{{"BLOCK_SIZE", 256}}, {{"BLOCK_SIZE", 1024}}, {{"BLOCK", 64}}};
    r = runner.run(job);
    EXPECT_EQ(r.verdict, report::Verdict::Error);
    EXPECT_NE(r.summary.find("Configuration 3 (BLOCK=64)"), std::string::npos) << r.summary;
}

TEST(TuningRunner, ResetToZeroMustNameAnOutput)
{
    runner::Runner runner;
    runner::Job job;
    job.exercise = exercise(kHistogram);
    job.source = "";
    job.configs = {{{"BLOCK_SIZE", 256}}, {{"BLOCK_SIZE", 1024}}};
    job.resetToZero = std::vector<std::string>{"x"};
    const report::RunReport r = runner.run(job);
    EXPECT_EQ(r.verdict, report::Verdict::Error);
    EXPECT_NE(r.summary.find("reset_to_zero names `x`, which is not an output buffer of `histogram` (its outputs: "
                             "hist)"),
              std::string::npos)
        << r.summary;
}

// @triton.autotune's reset_to_zero names the kernel's own argument (`hist_ptr`), as Triton's autotuner takes it;
// the engine maps it to the spec's buffer through the positional binding.
TEST(TuningRunner, DecoratorResetToZeroNamesTheKernelArgument)
{
    const std::filesystem::path dir = exercise(kHistogram);
    std::ifstream in(dir / "solution.py");
    std::string source{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::string jit = "@triton.jit";
    const auto at = source.find(jit);
    ASSERT_NE(at, std::string::npos);
    auto withDecorator = [&](const std::string& reset) {
        return source.substr(0, at) +
               "@triton.autotune(configs=[triton.Config({'BLOCK_SIZE': 256}), triton.Config({'BLOCK_SIZE': 1024})], "
               "key=['n']" + reset + ")\n" + source.substr(at);
    };
    runner::Runner runner;
    runner::Job job;
    job.exercise = dir;
    job.sourceName = "solution.py";
    job.device = runner::Device::Cpu;
    job.source = withDecorator(", reset_to_zero=['hist_ptr']");
    const report::RunReport declared = runner.run(job);
    EXPECT_EQ(declared.verdict, report::Verdict::Pass) << declared.summary;
    job.source = withDecorator("");
    const report::RunReport undeclared = runner.run(job);
    EXPECT_NE(undeclared.verdict, report::Verdict::Pass) << undeclared.summary;
    EXPECT_NE(undeclared.summary.find("reset_to_zero"), std::string::npos) << undeclared.summary;
}

TEST(TuningRunner, ResetPlanFollowsTheDeclaration)
{
    auto spec = problem::loadSpec(exercise(kHistogram));
    ASSERT_TRUE(spec) << spec.error().message;
    runner::Job job;
    // Tuning, nothing declared: hist starts at zero but is not zeroed between launches; it must be declared.
    auto s1 = *spec;
    auto plan = runner::detail::applyResetToZero(job, true, s1);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->launches, runner::detail::kTuningLaunches);
    EXPECT_TRUE(plan->resetBetween.empty());
    EXPECT_EQ(plan->mustDeclare, std::vector<std::string>{"hist"});
    EXPECT_EQ(s1.resetToZero, std::vector<std::string>{"hist"});
    EXPECT_NE(runner::detail::accumulationMessage({"hist"}, *plan)
                  .find("`hist` accumulated across the autotuner's repeated launches"),
              std::string::npos);
    EXPECT_NE(runner::detail::accumulationMessage({"hist"}, *plan).find("Declare reset_to_zero=[\"hist\"]"),
              std::string::npos);
    // Declared: zeroed before every launch.
    job.resetToZero = std::vector<std::string>{"hist"};
    auto s2 = *spec;
    plan = runner::detail::applyResetToZero(job, true, s2);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->resetBetween, std::vector<std::string>{"hist"});
    EXPECT_TRUE(plan->mustDeclare.empty());
    // A plain job with the bug variant's empty list: one launch, the spec's list replaced (hist poisoned).
    job.resetToZero = std::vector<std::string>{};
    auto s3 = *spec;
    plan = runner::detail::applyResetToZero(job, false, s3);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->launches, 1);
    EXPECT_TRUE(s3.resetToZero.empty());
    // Without declare_reset_to_zero the engine zeroes the spec's list between launches itself.
    auto s4 = *spec;
    s4.autotune->declareResetToZero = false;
    job.resetToZero.reset();
    plan = runner::detail::applyResetToZero(job, true, s4);
    ASSERT_TRUE(plan);
    EXPECT_EQ(plan->resetBetween, std::vector<std::string>{"hist"});
    EXPECT_TRUE(plan->mustDeclare.empty());
}

TEST(TuningRunner, WithoutAGpuEveryConfigurationIsCompiled)
{
    if (cuda::Driver::instance().ready()) {
        GTEST_SKIP() << "a GPU is present: this test covers the compile-only path";
    }
    auto spec = problem::loadSpec(exercise(kRowSum));
    ASSERT_TRUE(spec);
    std::ifstream in(spec->path(spec->solution));
    runner::Runner runner;
    runner::Job job;
    job.exercise = exercise(kRowSum);
    job.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    job.configs = {{{"BLOCK_SIZE", 128}, {"NUM_WARPS", 1}},
                   {{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}},
                   {{"BLOCK_SIZE", 4096}, {"NUM_WARPS", 16}}};
    const report::RunReport r = runner.run(job);
    EXPECT_EQ(r.verdict, report::Verdict::Compiled) << r.summary;
    ASSERT_TRUE(r.autotune);
    ASSERT_EQ(r.autotune->configs.size(), 3u);
    for (const auto& c : r.autotune->configs)
        EXPECT_EQ(c.verdict, report::ConfigVerdict::Compiled);
    EXPECT_EQ(r.autotune->configs[2].meta.at("NUM_WARPS"), 16);
    EXPECT_NE(r.autotune->note.find("no GPU"), std::string::npos);
    EXPECT_TRUE(r.autotune->samples.empty());
}

// A synthetic result as measure::autotune would return it: 3 configurations × 2 shapes, one sample failed.
measure::AutotuneResult syntheticResult(std::vector<problem::MetaValues>& configs)
{
    configs = {{{"BLOCK_SIZE", 128}, {"NUM_WARPS", 1}},
               {{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}},
               {{"BLOCK_SIZE", 4096}, {"NUM_WARPS", 16}}};
    const std::map<std::string, int64_t> shortRows{{"M", 262144}, {"N", 128}};
    const std::map<std::string, int64_t> longRows{{"M", 256}, {"N", 131072}};
    measure::AutotuneResult r;
    const double ms[3][2] = {{0.080, 0.900}, {0.120, 0.300}, {0.200, 0.0}};
    for (int c = 0; c < 3; ++c)
        for (int s = 0; s < 2; ++s) {
            measure::AutotuneSample sample{configs[c], s == 0 ? shortRows : longRows, ms[c][s], true, {}};
            if (ms[c][s] == 0)
                sample.error = "The launch failed: too many resources requested";
            r.samples.push_back(sample);
        }
    r.winners = measure::pickWinners(r.samples, {"M", "N"});
    return r;
}

TEST(TuningReport, AutotuneSectionFromASyntheticResult)
{
    std::vector<problem::MetaValues> timed;
    const measure::AutotuneResult result = syntheticResult(timed);
    report::AutotuneInfo info;
    info.key = {"M", "N"};
    info.shapes = {{{"M", 262144}, {"N", 128}}, {{"M", 256}, {"N", 131072}}};
    info.launchesPerCheck = 3;
    // Configuration 1 of 4 failed the cases and was not timed: the timed ones are 0, 2, 3.
    using report::ConfigVerdict;
    info.configs = {{timed[0], ConfigVerdict::Pass, ""},
                    {{{"BLOCK_SIZE", 64}, {"NUM_WARPS", 32}}, ConfigVerdict::Fail, "wrong"},
                    {timed[1], ConfigVerdict::Pass, ""},
                    {timed[2], ConfigVerdict::Pass, ""}};
    measure::fillAutotuneReport(result, timed, {0, 2, 3}, info);
    ASSERT_EQ(info.samples.size(), 6u);
    EXPECT_EQ(info.samples[2].config, 2);
    EXPECT_EQ(info.samples[3].shape, 1);
    EXPECT_FALSE(info.samples[5].medianMs);
    EXPECT_EQ(info.samples[5].config, 3);
    ASSERT_EQ(info.winners.size(), 2u);
    EXPECT_EQ(info.winners[0].config, 0);
    EXPECT_EQ(info.winners[0].shapes, std::vector<int>{0});
    EXPECT_DOUBLE_EQ(info.winners[0].speedupOverSlowest, 0.200 / 0.080);
    EXPECT_EQ(info.winners[1].config, 2);
    EXPECT_DOUBLE_EQ(info.winners[1].speedupOverSlowest, 0.900 / 0.300);
    EXPECT_EQ(info.winnerForShape(1), 2);

    report::RunReport r;
    r.verdict = report::Verdict::Fail;
    r.autotune = info;
    const json j = r;
    EXPECT_EQ(j["schema"], "tkm-run-report/1");
    const json& a = j["autotune"];
    EXPECT_EQ(a["key"], json::array({"M", "N"}));
    EXPECT_EQ(a["launches_per_check"], 3);
    EXPECT_EQ(a["configs"][1]["verdict"], "fail");
    EXPECT_EQ(a["samples"][0], json::parse(R"({"config": 0, "shape": 0, "median_ms": 0.08, "settled": true})"));
    EXPECT_FALSE(a["samples"][5].contains("median_ms"));
    EXPECT_EQ(a["samples"][5]["error"], "The launch failed: too many resources requested");
    EXPECT_EQ(a["winners"][1]["key"], json::parse(R"({"M": 256, "N": 131072})"));
    EXPECT_FALSE(a.contains("note"));
    EXPECT_FALSE(a.contains("reset_to_zero"));
    const report::RunReport back = j.get<report::RunReport>();
    ASSERT_TRUE(back.autotune);
    EXPECT_EQ(json(*back.autotune), a);

    const std::string text = report::formatAutotuneText(info);
    const auto failLine = text.substr(text.find("#2 BLOCK_SIZE=64, NUM_WARPS=32"), 60);
    EXPECT_NE(failLine.find(" fail "), std::string::npos) << text;
    EXPECT_EQ(text.find(" \n"), std::string::npos) << "no trailing blanks:\n" << text;
    EXPECT_NE(text.find("0.0800*"), std::string::npos) << text;
    EXPECT_NE(text.find("0.3000*"), std::string::npos) << text;
    EXPECT_NE(text.find("winner    M=256,N=131072: #3 BLOCK_SIZE=1024, NUM_WARPS=4 — 0.3000 ms, 3.00× faster"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("#4 on M=256,N=131072: The launch failed"), std::string::npos) << text;
}

TEST(TuningContent, BuiltInExercisesDeclareTheirTuning)
{
    auto rowSum = problem::loadSpec(exercise(kRowSum));
    ASSERT_TRUE(rowSum) << rowSum.error().message;
    ASSERT_TRUE(rowSum->autotune);
    EXPECT_EQ(rowSum->autotune->minConfigs, 3);
    EXPECT_FALSE(rowSum->autotune->declareResetToZero);
    auto histogram = problem::loadSpec(exercise(kHistogram));
    ASSERT_TRUE(histogram) << histogram.error().message;
    ASSERT_TRUE(histogram->autotune);
    EXPECT_TRUE(histogram->autotune->declareResetToZero);
    EXPECT_EQ(histogram->resetToZero, std::vector<std::string>{"hist"});
    EXPECT_GE(histogram->autotune->minConfigs, 2);
    // The bug variant still replaces the list for a plain run.
    bool found = false;
    for (const auto& bug : histogram->bugs)
        found = found || (bug.resetToZero && bug.resetToZero->empty());
    EXPECT_TRUE(found);
}

TEST(TuningSpec, DeclareResetToZeroNeedsAResetList)
{
    json j = tkm::test::vectorAddJson();
    j["autotune"] = {{"key", {"n"}}, {"shapes", {{{"n", 4096}}}}, {"declare_reset_to_zero", true}};
    auto r = tkm::test::parseIn(j);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("no reset_to_zero outputs for the learner to declare"), std::string::npos)
        << r.error().message;
    j["autotune"]["declare_reset_to_zero"] = "yes";
    r = tkm::test::parseIn(j);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("must be true or false"), std::string::npos) << r.error().message;
}

} // namespace
