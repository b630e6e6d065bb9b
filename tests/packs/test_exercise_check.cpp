// checkExercise without a GPU: each weak-case warning fires on a crafted weak spec (and only there), none fires on
// the built-in exercises but the documented ones, spec errors keep their JSON pointer, every source compiles, the
// expected-vs-got wording, and `tkm-run validate` exit codes and JSON.
#include "engine/common/paths.h"
#include "modules/packs/exercise_check.h"
#include "modules/packs/validate.h"
#include "test_helpers.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace fs = std::filesystem;
using namespace tkm;
using nlohmann::json;
using tkm::test::TempDir;

namespace {

fs::path weakFolder()
{
    return test::dataDir() / "weak" / "weak-vector-add";
}

fs::path contentExercise(const std::string& rel)
{
    return engine::contentDir() / rel;
}

json readJson(const fs::path& file)
{
    return json::parse(test::readAll(file));
}

// Parses `spec` as if it were the exercise.json of `folder` (its files are checked there).
problem::ExerciseSpec parse(const json& spec, const fs::path& folder)
{
    auto parsed = problem::parseSpec(spec.dump(), fs::absolute(folder));
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    return parsed ? std::move(parsed).value() : problem::ExerciseSpec{};
}

std::vector<std::string> describe(const std::vector<packs::SpecWarning>& warnings)
{
    std::vector<std::string> out;
    for (const auto& w : warnings) {
        out.push_back(packs::weakKindName(w.kind) + " " + w.pointer);
    }
    return out;
}

std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& i : items) {
        s += i + "\n";
    }
    return s;
}

// The warnings of `folder`'s exercise.json after `edit`.
std::vector<std::string> warningsAfter(const fs::path& folder, const std::function<void(json&)>& edit)
{
    json spec = readJson(folder / "exercise.json");
    edit(spec);
    return describe(packs::weakCaseWarnings(parse(spec, folder)));
}

using Strings = std::vector<std::string>;

// Replaces the cases; bug expectations that name a case no longer there are dropped.
void setCases(json& spec, const json& cases)
{
    spec["cases"] = cases;
    for (auto& bug : spec["bugs"]) {
        bug["expect"].erase("case");
    }
    if (spec.contains("triton")) {
        for (auto& bug : spec["triton"]["bugs"]) {
            bug["expect"].erase("case");
        }
    }
}

} // namespace

TEST(WeakCases, TheWeakFixtureFiresEveryWarningThatNeedsNoGpuOnItsField)
{
    packs::ExerciseCheckOptions options;
    options.compile = false;
    const packs::ExerciseCheck check = packs::checkExercise(weakFolder(), options);
    ASSERT_EQ(check.specError, "");
    EXPECT_EQ(describe(check.warnings),
              (Strings{"no-ragged-case /cases", "no-negative-input /params/0/init",
                       "loose-tolerance /tolerance/f32/atol", "loose-tolerance /tolerance/f32/rtol"}));
    const std::string ragged = check.warnings.at(0).message;
    EXPECT_NE(ragged.find("BLOCK_SIZE = 256, 512 or 1024"), std::string::npos) << ragged;
    EXPECT_NE(ragged.find("n = 98305"), std::string::npos) << ragged;
    EXPECT_NE(check.warnings.at(1).message.find("x (uniform in [0, 1)) and y (normal with mean 5 and std 1)"),
              std::string::npos)
        << check.warnings.at(1).message;
    EXPECT_NE(check.warnings.at(2).message.find("at most 0.0001"), std::string::npos) << check.warnings.at(2).message;
}

TEST(WeakCases, EachFixOfTheFixtureSilencesItsWarningOnly)
{
    const fs::path weak = weakFolder();
    EXPECT_EQ(warningsAfter(weak,
                            [](json& s) {
                                s["cases"].push_back({{"name", "ragged"}, {"sizes", {{"n", 1000}}}});
                            }),
              (Strings{"no-negative-input /params/0/init", "loose-tolerance /tolerance/f32/atol",
                       "loose-tolerance /tolerance/f32/rtol"}));
    // A ragged size for the smallest tile only is not enough: 1536 is a multiple of 256 and 512.
    EXPECT_EQ(warningsAfter(weak,
                            [](json& s) {
                                s["cases"].push_back({{"name", "1536"}, {"sizes", {{"n", 1536}}}});
                            })
                  .front(),
              "no-ragged-case /cases");
    EXPECT_EQ(warningsAfter(weak,
                            [](json& s) {
                                s["params"][1]["init"] = {{"dist", "uniform"}, {"low", -1}, {"high", 1}};
                            }),
              (Strings{"no-ragged-case /cases", "loose-tolerance /tolerance/f32/atol",
                       "loose-tolerance /tolerance/f32/rtol"}));
    // A per-case override with negative values counts too.
    EXPECT_EQ(warningsAfter(weak,
                            [](json& s) {
                                s["cases"][0]["init"] = {{"y", {{"dist", "negative"}, {"low", -5}, {"high", -1}}}};
                            })
                  .size(),
              3u);
    EXPECT_EQ(warningsAfter(weak,
                            [](json& s) {
                                s["tolerance"]["f32"] = {{"atol", 1e-6}, {"rtol", 1e-6}};
                            }),
              (Strings{"no-ragged-case /cases", "no-negative-input /params/0/init"}));
}

TEST(WeakCases, EachWarningFiresAloneOnAWeakenedBuiltInExercise)
{
    const fs::path vectorAdd = contentExercise("02-vector-add/exercises/vector-add");
    EXPECT_EQ(warningsAfter(vectorAdd, [](json&) {}), Strings{});
    EXPECT_EQ(warningsAfter(vectorAdd,
                            [](json& s) {
                                setCases(s, json::array({{{"name", "a"}, {"sizes", {{"n", 8192}}}},
                                                         {{"name", "b"}, {"sizes", {{"n", 16384}}}}}));
                            }),
              Strings{"no-ragged-case /cases"});
    EXPECT_EQ(warningsAfter(vectorAdd,
                            [](json& s) {
                                s["params"][0]["init"] = {{"dist", "uniform"}, {"low", 0}, {"high", 1}};
                                s["params"][1]["init"] = {{"dist", "int"}, {"low", 0}, {"high", 9}};
                                s["cases"][6].erase("init");
                            }),
              Strings{"no-negative-input /params/0/init"});
    EXPECT_EQ(warningsAfter(vectorAdd, [](json& s) { s["tolerance"]["f32"]["rtol"] = 1e-3; }),
              Strings{"loose-tolerance /tolerance/f32/rtol"});
    // A declared TF32 arithmetic is held to TF32's limit (1e-2, as f16's), and the Triton track's own tolerance
    // is checked too.
    EXPECT_EQ(warningsAfter(vectorAdd,
                            [](json& s) {
                                s["tolerance"]["f32"] = {{"atol", 1e-2}, {"rtol", 1e-2}, {"arithmetic", "tf32"}};
                            }),
              Strings{});
    EXPECT_EQ(warningsAfter(vectorAdd,
                            [](json& s) {
                                s["tolerance"]["f32"] = {{"atol", 2e-2}, {"rtol", 1e-2}, {"arithmetic", "tf32"}};
                            }),
              Strings{"loose-tolerance /tolerance/f32/atol"});
    EXPECT_EQ(warningsAfter(vectorAdd,
                            [](json& s) {
                                s["triton"]["tolerance"] = {{"f32", {{"atol", 1e-6}, {"rtol", 1e-3}}}};
                            }),
              Strings{"loose-tolerance /triton/tolerance/f32/rtol"});

    // Row-wise kernel (grid = M): BLOCK_SIZE tiles N, the size the grid does not name; M = 3 does not help.
    const fs::path rowMax = contentExercise("03-memory-model/exercises/row-max");
    EXPECT_EQ(warningsAfter(rowMax,
                            [](json& s) {
                                setCases(s, json::array({{{"name", "a"}, {"sizes", {{"M", 3}, {"N", 4096}}}},
                                                         {{"name", "b"}, {"sizes", {{"M", 5}, {"N", 8192}}}}}));
                            }),
              Strings{"no-ragged-case /cases"});

    // No tile meta-parameter (fused softmax): the threads of a block walk a row.
    const fs::path softmax = contentExercise("04-fused-softmax/exercises/fused-softmax");
    json softmaxSpec = readJson(softmax / "exercise.json");
    setCases(softmaxSpec, json::array({{{"name", "a"}, {"sizes", {{"M", 3}, {"N", 1024}}}},
                                       {{"name", "b"}, {"sizes", {{"M", 7}, {"N", 2048}}}}}));
    softmaxSpec["cases"][0]["init"] = {{"x", {{"dist", "negative"}, {"low", -5}, {"high", -1}}}};
    const auto softmaxWarnings = packs::weakCaseWarnings(parse(softmaxSpec, softmax));
    ASSERT_EQ(describe(softmaxWarnings), Strings{"no-ragged-case /cases"});
    EXPECT_NE(softmaxWarnings[0].message.find("NUM_WARPS = 32 (1024 threads per block)"), std::string::npos)
        << softmaxWarnings[0].message;

    // Blocked matmul: BLOCK_K tiles K (not in the grid) even when M and N are ragged.
    const fs::path matmul = contentExercise("06-blocked-matmul/exercises/matmul-fp16");
    const auto matmulWarnings = [&](int k1, int k2, double atol) {
        json s = readJson(matmul / "exercise.json");
        setCases(s, json::array({{{"name", "a"}, {"sizes", {{"M", 100}, {"N", 70}, {"K", k1}}}},
                                 {{"name", "b"}, {"sizes", {{"M", 3}, {"N", 1000}, {"K", k2}}}}}));
        s["tolerance"]["f16"]["atol"] = atol;
        return describe(packs::weakCaseWarnings(parse(s, matmul)));
    };
    EXPECT_EQ(matmulWarnings(64, 128, 1e-3), Strings{"no-ragged-case /cases"});
    EXPECT_EQ(matmulWarnings(50, 128, 1e-3), Strings{});
    EXPECT_EQ(matmulWarnings(50, 128, 5e-2), Strings{"loose-tolerance /tolerance/f16/atol"});

    // Integers are exact: any tolerance is too loose. Integer-only inputs are not checked for negative values.
    const fs::path histogram = contentExercise("05-autotuning/exercises/histogram-reset");
    EXPECT_EQ(warningsAfter(histogram, [](json&) {}), Strings{});
    EXPECT_EQ(warningsAfter(histogram, [](json& s) { s["tolerance"]["i32"]["atol"] = 1; }),
              Strings{"loose-tolerance /tolerance/i32/atol"});
}

// The built-in exercises are not weak. (attention-fwd's f32 tolerance was 1e-3 and fired; its solution's largest error
// on the H200 is 8.4e-6, so it is 1e-4 now: docs/measurements/h200-2026-11-30-validate.log.)
TEST(WeakCases, NoneFiresOnTheBuiltInExercises)
{
    const fs::path root = engine::contentDir();
    std::vector<std::string> fired;
    int exercises = 0;
    for (const auto& module : fs::directory_iterator(root)) {
        if (!fs::is_directory(module.path() / "exercises")) {
            continue;
        }
        for (const auto& ex : fs::directory_iterator(module.path() / "exercises")) {
            auto spec = problem::loadSpec(ex.path());
            ASSERT_TRUE(spec) << spec.error().message;
            ++exercises;
            for (const auto& w : describe(packs::weakCaseWarnings(*spec))) {
                fired.push_back(spec->id + ": " + w);
            }
        }
    }
    std::sort(fired.begin(), fired.end());
    EXPECT_EQ(exercises, 16);
    EXPECT_EQ(fired, Strings{}) << joined(fired);
}

TEST(ExerciseCheck, EverySourceOfABuiltInExerciseCompilesInTableOrder)
{
    packs::ExerciseCheckOptions options;
    options.useCompileCache = false;
    const auto check = packs::checkExercise(contentExercise("02-vector-add/exercises/vector-add"), options);
    ASSERT_EQ(check.specError, "");
    EXPECT_TRUE(check.ok());
    EXPECT_FALSE(check.gpuRan);
    EXPECT_TRUE(check.tritonRan);
    Strings rows;
    for (const auto& s : check.sources) {
        rows.push_back(packs::sourceRoleName(s.role) + " " + s.file + " " + s.pointer + " " +
                       (s.compiled ? "compiled" : "not compiled") + " expect: " + s.expected);
        EXPECT_TRUE(s.compileRan) << s.file;
        // Without a GPU only the Triton track runs: on the CPU interpreter (its reference judges every run).
        EXPECT_EQ(s.ran, s.triton && s.role != packs::SourceRole::Reference) << s.file;
    }
    EXPECT_EQ(rows, (Strings{"solution solution.cu /solution compiled expect: pass",
                             "bug bugs/no-mask.cu /bugs/0/file compiled expect: fault read-past-end in x",
                             "bug bugs/one-thread-per-element.cu /bugs/1/file compiled expect: fail (unwritten)",
                             "starter starter.cu /starter compiled expect: fail or fault",
                             "reference reference.cu /reference/file compiled expect: ",
                             "solution solution.py /triton/solution compiled expect: pass",
                             "bug bugs/no-mask.py /triton/bugs/0/file compiled expect: fault read-past-end in x",
                             "bug bugs/one-thread-per-element.py /triton/bugs/1/file compiled expect: fail (unwritten)",
                             "bug bugs/store-unmasked.py /triton/bugs/2/file compiled expect: fault write-past-end in out",
                             "starter starter.py /triton/starter compiled expect: fail or fault",
                             "reference reference.py /triton/reference/file compiled expect: "}));
}

// A labelled first-step solution (exercise.json "first_step") is a second solution row: it must compile and,
// with a GPU, pass every case.
TEST(ExerciseCheck, TheFirstStepSolutionIsASolutionRowWithItsTitle)
{
    packs::ExerciseCheckOptions options;
    options.useCompileCache = false;
    options.triton = false;
    const auto check = packs::checkExercise(contentExercise("06-blocked-matmul/exercises/matmul-fp16"), options);
    ASSERT_EQ(check.specError, "");
    const auto it = std::find_if(check.sources.begin(), check.sources.end(),
                                 [](const packs::SourceCheck& s) { return s.pointer == "/first_step/file"; });
    ASSERT_NE(it, check.sources.end());
    EXPECT_EQ(it->role, packs::SourceRole::Solution);
    EXPECT_EQ(it->file, "first-step.cu");
    EXPECT_EQ(it->expected, "pass");
    EXPECT_NE(it->title.find("First step"), std::string::npos) << it->title;
    EXPECT_TRUE(it->compiled) << it->compileProblem;
    EXPECT_EQ(std::next(check.sources.begin())->pointer, "/first_step/file"); // right after the solution
}

TEST(ExerciseCheck, ASpecErrorKeepsItsPointerAndACompileErrorItsLine)
{
    TempDir tmp;
    const fs::path folder = tmp.path() / "weak-vector-add";
    fs::copy(weakFolder(), folder, fs::copy_options::recursive);
    ASSERT_TRUE(test::replaceInFile(folder / "exercise.json", "\"role\": \"out\"", "\"role\": \"output\""));
    auto check = packs::checkExercise(folder);
    EXPECT_EQ(check.specErrorPointer, "/params/2/role");
    EXPECT_EQ(check.specError, "\"output\" is not one of in, out, inout");
    EXPECT_FALSE(check.ok());
    EXPECT_TRUE(check.sources.empty());

    // Through validatePackOrFolder: the error lands on exercise.json at the line of the field.
    const auto result = packs::validatePackOrFolder(folder);
    EXPECT_EQ(result.exitCode, packs::kValidateFailed);
    ASSERT_FALSE(result.diagnostics.empty());
    EXPECT_EQ(result.diagnostics[0].file.filename(), "exercise.json");
    EXPECT_EQ(result.diagnostics[0].line, 17);

    ASSERT_TRUE(test::replaceInFile(folder / "exercise.json", "\"role\": \"output\"", "\"role\": \"out\""));
    test::writeAll(folder / "solution.cu", test::readAll(folder / "solution.cu") + "\nnot CUDA at all;\n");
    packs::ExerciseCheckOptions options;
    options.useCompileCache = false;
    check = packs::checkExercise(folder, options);
    EXPECT_FALSE(check.ok());
    const auto& solution = check.sources.front();
    EXPECT_FALSE(solution.compiled);
    EXPECT_NE(solution.compileProblem.find("does not compile"), std::string::npos) << solution.compileProblem;
    ASSERT_FALSE(solution.diagnostics.empty());
    EXPECT_GT(solution.diagnostics.front().line, 10);
}

TEST(ExerciseCheck, ExpectedAndGotReadAlikeAndMismatchesSayWhy)
{
    problem::BugExpect fault{.verdict = report::Verdict::Fault, .fault = "read-past-end", .buffer = "x"};
    report::RunReport rep;
    rep.verdict = report::Verdict::Fault;
    rep.fault = report::FaultInfo{.kind = "read-past-end", .buffer = "x"};
    EXPECT_EQ(packs::describeReport(rep), packs::describeExpect(fault));
    EXPECT_EQ(packs::expectationMismatch(fault, rep), "");
    rep.fault->buffer = "y";
    EXPECT_EQ(packs::expectationMismatch(fault, rep), "fault in buffer y, expected x");

    problem::BugExpect fail{.verdict = report::Verdict::Fail, .caseName = "n = 3", .reason = "unwritten"};
    report::RunReport failed;
    failed.verdict = report::Verdict::Fail;
    report::CaseInfo pass{.name = "n = 1", .verdict = report::CaseVerdict::Pass};
    report::CaseInfo c{.name = "n = 3", .verdict = report::CaseVerdict::Fail};
    c.outputs.push_back(report::OutputInfo{.buffer = "out", .mismatches = 2, .unwritten = 1});
    failed.cases = {pass, c};
    EXPECT_EQ(packs::describeReport(failed), "fail (unwritten) in case \"n = 3\"");
    EXPECT_EQ(packs::expectationMismatch(fail, failed), "");
    fail.reason = "nan";
    EXPECT_NE(packs::expectationMismatch(fail, failed).find("fails for the reason unwritten, expected nan"),
              std::string::npos);
    report::RunReport passed;
    passed.verdict = report::Verdict::Pass;
    passed.summary = "every case passed";
    EXPECT_EQ(packs::expectationMismatch(fail, passed), "verdict pass (every case passed), expected fail");
}

namespace {

// Runs tkm-run with `args`; returns the exit status and stdout.
std::pair<int, std::string> tkmRun(const std::string& args)
{
    const char* run = std::getenv("TKM_RUN");
    if (!run || !*run) {
        return {-1, "TKM_RUN is not set"};
    }
    const std::string command = "\"" + std::string(run) + "\" " + args + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    std::string out;
    char buf[4096];
    while (pipe && std::fgets(buf, sizeof buf, pipe)) {
        out += buf;
    }
    const int status = pipe ? ::pclose(pipe) : -1;
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

} // namespace

TEST(ValidateCommand, ExitCodesWarningsJsonAndStrict)
{
    if (!std::getenv("TKM_RUN")) {
        GTEST_SKIP() << "TKM_RUN is not set (run through ctest)";
    }
    const std::string weak = "\"" + weakFolder().string() + "\"";
    auto [rc, out] = tkmRun("validate " + weak + " --no-gpu");
    EXPECT_EQ(rc, 0) << out;                                            // warnings alone
    EXPECT_NE(out.find("exercise.json:25:"), std::string::npos) << out; // /cases is on line 25
    EXPECT_NE(out.find("4 warning(s)"), std::string::npos) << out;
    EXPECT_NE(out.find("GPU verdicts not run: not asked for (--no-gpu)."), std::string::npos) << out;

    std::tie(rc, out) = tkmRun("validate " + weak + " --no-gpu --strict");
    EXPECT_EQ(rc, 1) << out;

    std::tie(rc, out) = tkmRun("validate " + weak + " --no-gpu --json");
    EXPECT_EQ(rc, 0);
    const json j = json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    EXPECT_EQ(j["schema"], "tkm-validate/1");
    EXPECT_EQ(j["exit_code"], 0);
    EXPECT_EQ(j["gpu"]["available"], false);
    ASSERT_EQ(j["exercises"].size(), 1u);
    EXPECT_EQ(j["exercises"][0]["warnings"].size(), 4u);
    EXPECT_EQ(j["exercises"][0]["warnings"][0]["pointer"], "/cases");
    EXPECT_EQ(j["exercises"][0]["sources"].size(), 5u);
    EXPECT_EQ(j["exercises"][0]["sources"][0]["compile"]["ok"], true);

    TempDir tmp;
    const fs::path broken = tmp.path() / "broken";
    fs::copy(weakFolder(), broken, fs::copy_options::recursive);
    ASSERT_TRUE(test::replaceInFile(broken / "bugs" / "no-mask.cu", "out[offset]", "out[offset) +"));
    std::tie(rc, out) = tkmRun("validate \"" + broken.string() + "\" --no-gpu");
    EXPECT_EQ(rc, 1) << out;
    EXPECT_NE(out.find("no-mask.cu:"), std::string::npos) << out;

    std::tie(rc, out) = tkmRun("validate \"" + (tmp.path() / "nowhere").string() + "\" --no-gpu");
    EXPECT_EQ(rc, 2) << out;

    // Every built-in exercise: valid, without a warning even under --strict.
    std::tie(rc, out) = tkmRun("validate \"" + engine::contentDir().string() + "\" --no-gpu --strict");
    EXPECT_EQ(rc, 0) << out;
    EXPECT_NE(out.find("0 error(s), 0 warning(s)"), std::string::npos) << out;
    EXPECT_NE(out.find("16 exercise(s)"), std::string::npos) << out;
}
