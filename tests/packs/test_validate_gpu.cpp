// On a GPU (label gpu): checkExercise's verdict table for the autotuning module's two exercises (every row as
// expected, the histogram's solution run without reset_to_zero included) and for the weak fixture, whose no-mask bug
// variant passes every case: its row fails and the bug-passes warning names /bugs/0.
// Without a GPU: prints "SKIPPED: …" and exits 77.
#include "engine/common/paths.h"
#include "engine/runner/subprocess.h"
#include "engine/worker/client.h"
#include "modules/packs/exercise_check.h"
#include "test_helpers.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

namespace fs = std::filesystem;
using namespace tkm;

namespace {

std::unique_ptr<worker::Client> g_client;

fs::path workerPath()
{
    if (const char* env = std::getenv("TKM_RUN"); env && *env) {
        return env;
    }
    std::error_code ec;
    const fs::path sibling = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "bin" / "tkm-run";
    return !ec && fs::exists(sibling) ? sibling : runner::defaultTkmRunPath();
}

packs::ExerciseCheck check(const fs::path& folder)
{
    packs::ExerciseCheckOptions options;
    options.gpu = g_client.get();
    packs::ExerciseCheck c = packs::checkExercise(folder, options);
    std::printf("\n%s\n", c.id.c_str());
    for (const auto& s : c.sources) {
        if (s.role != packs::SourceRole::Reference) {
            std::printf("  %-30s %-40s %-44s %s\n", s.file.c_str(), s.expected.c_str(), s.got.c_str(),
                        s.ok() ? "ok" : ("FAIL: " + s.runProblem + s.compileProblem).c_str());
        }
    }
    for (const auto& w : c.warnings) {
        std::printf("  warning %s %s\n", w.pointer.c_str(), w.message.c_str());
    }
    return c;
}

} // namespace

TEST(ValidateGpu, AutotuningModuleGivesTheExpectedVerdictTable)
{
    for (const char* rel : {"05-autotuning/exercises/autotune-row-sum", "05-autotuning/exercises/histogram-reset"}) {
        const packs::ExerciseCheck c = check(engine::contentDir() / rel);
        ASSERT_EQ(c.specError, "") << rel;
        EXPECT_TRUE(c.gpuRan);
        EXPECT_TRUE(c.ok()) << rel;
        for (const auto& s : c.sources) {
            if (s.role == packs::SourceRole::Reference) {
                EXPECT_FALSE(s.ran);
                continue;
            }
            EXPECT_TRUE(s.ran) << s.file;
            EXPECT_EQ(s.runProblem, "") << rel << " " << s.file;
        }
        EXPECT_EQ(c.sources.front().verdict, report::Verdict::Pass) << rel;
        EXPECT_TRUE(c.warnings.empty()) << rel;
    }
}

TEST(ValidateGpu, TheWeakFixturesNoMaskBugPassesAndIsReported)
{
    const packs::ExerciseCheck c = check(test::dataDir() / "weak" / "weak-vector-add");
    ASSERT_EQ(c.specError, "");
    EXPECT_FALSE(c.ok());
    ASSERT_EQ(c.sources.size(), 5u);
    EXPECT_TRUE(c.sources[0].ok()) << c.sources[0].runProblem; // solution
    EXPECT_EQ(c.sources[1].file, "bugs/no-mask.cu");
    EXPECT_EQ(c.sources[1].verdict, report::Verdict::Pass);
    EXPECT_FALSE(c.sources[1].ok());
    EXPECT_TRUE(c.sources[2].ok()) << c.sources[2].runProblem; // one thread per element: still unwritten
    EXPECT_TRUE(c.sources[3].ok()) << c.sources[3].runProblem; // starter
    bool bugPasses = false;
    for (const auto& w : c.warnings) {
        bugPasses = bugPasses || (w.kind == packs::WeakKind::BugPasses && w.pointer == "/bugs/0");
    }
    EXPECT_TRUE(bugPasses);
}

int main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    worker::ClientOptions options;
    options.workerPath = workerPath();
    options.deadline = std::chrono::milliseconds(30000);
    g_client = std::make_unique<worker::Client>(options);
    const packs::GpuStatus gpu = packs::probeGpu(*g_client);
    if (!gpu.available) {
        std::printf("SKIPPED: %s\n", gpu.reason.c_str());
        return 77;
    }
    std::printf("GPU: %s\n", gpu.device.c_str());
    const int status = RUN_ALL_TESTS();
    g_client.reset();
    return status;
}
