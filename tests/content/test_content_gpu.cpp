// On a GPU (label gpu): every built-in exercise's solution passes every case, every bug variant gets the
// diagnosis its exercise.json declares, and every starter runs to a fail/fault verdict without crashing the
// worker. Jobs go through the engine's worker client (tkm-run --serve), as the app runs them; the expected-vs-got
// rule is the one `tkm-run validate` uses (modules/packs/exercise_check.h).
// Without a GPU: prints "SKIPPED: …" and exits 77.
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
#include <optional>
#include <memory>

namespace report = tkm::report;

namespace {

namespace fs = std::filesystem;
using tkm::report::RunReport;

std::unique_ptr<tkm::worker::Client> g_client;
std::vector<std::string> g_table; // one line per job, printed at the end

// env TKM_RUN, else bin/tkm-run of the build folder this test was built in (tests/ and bin/ are siblings).
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

RunReport runSource(const fs::path& folder, const tkm::problem::ExerciseSpec& spec, const std::string& rel,
                    std::optional<std::vector<std::string>> resetToZero = std::nullopt)
{
    std::ifstream in(spec.path(rel));
    std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    tkm::runner::Job job;
    job.exercise = folder;
    job.source = std::move(source);
    job.sourceName = fs::path(rel).filename().string();
    job.mode = tkm::runner::Mode::Run;
    job.resetToZero = std::move(resetToZero);
    return g_client->run(job).report;
}

void record(const std::string& exercise, const std::string& source, const std::string& expected,
            const RunReport& report, const std::string& problem)
{
    char line[512];
    std::snprintf(line, sizeof line, "%-42s %-30s %-22s %-14s %s", exercise.c_str(), source.c_str(), expected.c_str(),
                  std::string(report::verdictName(report.verdict)).c_str(), problem.empty() ? "ok" : "MISMATCH");
    g_table.emplace_back(line);
}

TEST(ContentGpu, SolutionsPassBugsGetTheirDiagnosisStartersDoNotCrash)
{
    const fs::path root = tkm::test::contentRoot();
    const auto folders = tkm::test::exerciseFolders(root);
    ASSERT_FALSE(folders.empty());
    for (const fs::path& folder : folders) {
        const std::string name = tkm::test::shortName(folder, root);
        const auto spec = tkm::problem::loadSpec(folder);
        if (!spec) {
            ADD_FAILURE() << name << ": " << spec.error().message;
            continue;
        }
        const RunReport solution = runSource(folder, *spec, spec->solution);
        const std::string solutionProblem = solution.verdict == report::Verdict::Pass ? "" : solution.summary;
        EXPECT_EQ(solution.verdict, report::Verdict::Pass) << name << ": the solution " << spec->solution << ": " << solution.summary;
        record(name, spec->solution, "pass", solution, solutionProblem);

        for (std::size_t i = 0; i < spec->bugs.size(); ++i) {
            const auto& bug = spec->bugs[i];
            const RunReport report = runSource(folder, *spec, bug.file, bug.resetToZero);
            const std::string problem = tkm::packs::expectationMismatch(bug.expect, report);
            EXPECT_EQ(problem, "") << name << ": bug " << bug.file << " (" << bug.title << ")";
            std::string expected(report::verdictName(bug.expect.verdict));
            if (!bug.expect.fault.empty()) {
                expected += "/" + bug.expect.fault;
            } else if (!bug.expect.reason.empty()) {
                expected += "/" + bug.expect.reason;
            }
            record(name, bug.file, expected, report, problem);
        }

        const RunReport starter = runSource(folder, *spec, spec->starter);
        const bool starterOk = starter.verdict == report::Verdict::Fail || starter.verdict == report::Verdict::Fault;
        EXPECT_TRUE(starterOk) << name << ": the starter should compile and fail (unfinished), got " << starter.verdict
                               << ": " << starter.summary;
        record(name, spec->starter, "fail|fault", starter, starterOk ? "" : starter.summary);
    }
}

} // namespace

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    tkm::worker::ClientOptions options;
    options.workerPath = workerPath();
    options.deadline = std::chrono::milliseconds(30000);
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
    std::printf("\n%-42s %-30s %-22s %-14s %s\n", "exercise", "source", "expected", "verdict", "result");
    for (const std::string& line : g_table) {
        std::printf("%s\n", line.c_str());
    }
    g_client.reset();
    return status;
}
