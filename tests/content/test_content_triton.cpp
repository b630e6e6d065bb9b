// The Triton track of every built-in exercise on the CPU interpreter (no GPU): the solution passes every case,
// every bug variant gets the diagnosis its spec declares, every starter fails (or is refused) without crashing;
// and `tkm-run run` on a machine without a GPU gives a real verdict with the executor, and for a missing mask
// the exact line, program and lane.
#include "tests/content/content_files.h"

#include "engine/problem/spec.h"
#include "modules/packs/exercise_check.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <unistd.h>

namespace {

using tkm::packs::SourceCheck;
using tkm::packs::SourceRole;
namespace fs = std::filesystem;

TEST(ContentTriton, EveryExerciseHasATritonTrack)
{
    const fs::path root = tkm::test::contentRoot();
    const auto folders = tkm::test::exerciseFolders(root);
    ASSERT_GE(folders.size(), 10U);
    for (const fs::path& f : folders) {
        auto spec = tkm::problem::loadSpec(f);
        ASSERT_TRUE(spec.ok()) << spec.error().message;
        EXPECT_TRUE(spec->triton.has_value()) << tkm::test::shortName(f, root) << " has no \"triton\" block";
    }
}

TEST(ContentTriton, SolutionsPassBugsGetTheirDiagnosisStartersFail)
{
    const fs::path root = tkm::test::contentRoot();
    int rows = 0;
    for (const fs::path& f : tkm::test::exerciseFolders(root)) {
        tkm::packs::ExerciseCheckOptions opt;
        opt.compile = false; // the CUDA track's NVRTC compiles are test_content_compile's
        opt.weakCases = false;
        const tkm::packs::ExerciseCheck check = tkm::packs::checkExercise(f, opt);
        ASSERT_TRUE(check.specError.empty()) << check.specError;
        EXPECT_TRUE(check.tritonRan);
        for (const SourceCheck& s : check.sources) {
            if (!s.triton || s.role == SourceRole::Reference) {
                continue;
            }
            ++rows;
            EXPECT_TRUE(s.ok()) << tkm::test::shortName(f, root) << "/" << s.file << ": expected " << s.expected
                                << ", got " << s.got << " — " << s.compileProblem << s.runProblem << " [" << s.summary
                                << "]";
            EXPECT_TRUE(s.ran) << s.file;
        }
    }
    EXPECT_GE(rows, 30);
}

// Runs `tkm-run` (env TKM_RUN) with `args`, returns stdout; the exit status in `status`.
std::string tkmRun(const std::string& args, int& status)
{
    const char* exe = std::getenv("TKM_RUN");
    if (exe == nullptr) {
        ADD_FAILURE() << "TKM_RUN is not set";
        return {};
    }
    const std::string cmd = std::string(exe) + " " + args + " 2>&1";
    std::unique_ptr<FILE, int (*)(FILE*)> p(popen(cmd.c_str(), "r"), pclose);
    std::string out;
    std::array<char, 4096> buf{};
    while (p && fgets(buf.data(), static_cast<int>(buf.size()), p.get()) != nullptr) {
        out += buf.data();
    }
    status = pclose(p.release());
    return out;
}

TEST(ContentTriton, TkmRunGivesAVerdictWithoutAGpu)
{
    const fs::path ex = tkm::test::contentRoot() / "02-vector-add/exercises/vector-add";
    int status = 0;
    const std::string out = tkmRun("run --device cpu " + ex.string() + " " + (ex / "solution.py").string(), status);
    EXPECT_EQ(status, 0) << out;
    EXPECT_NE(out.find("executor  CPU interpreter"), std::string::npos) << out;
    EXPECT_NE(out.find("verdict   PASS"), std::string::npos) << out;
}

TEST(ContentTriton, TkmRunLocatesAMissingMask)
{
    const fs::path dir = fs::temp_directory_path() / ("tkm-triton-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path kernel = dir / "add.py";
    std::ofstream(kernel) << "import triton\n"
                             "import triton.language as tl\n"
                             "\n"
                             "@triton.jit\n"
                             "def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
                             "    pid = tl.program_id(0)\n"
                             "    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
                             "    x = tl.load(x_ptr + offsets)\n"
                             "    y = tl.load(y_ptr + offsets)\n"
                             "    tl.store(out_ptr + offsets, x + y)\n";
    const fs::path ex = tkm::test::contentRoot() / "02-vector-add/exercises/vector-add";
    int status = 0;
    const std::string out = tkmRun("run --device cpu --json " + ex.string() + " " + kernel.string(), status);
    fs::remove_all(dir);
    EXPECT_NE(status, 0);
    EXPECT_NE(out.find("\"verdict\": \"fault\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"kind\": \"read-past-end\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"buffer\": \"x\""), std::string::npos) << out;
    EXPECT_NE(out.find("\"line\": 8"), std::string::npos) << out;
    EXPECT_NE(out.find("\"executor\": \"cpu-interpreter\""), std::string::npos) << out;
    // n = 1 in a 1024-wide block: lane 1 is the first past the end.
    EXPECT_NE(out.find("tl.load reads x[1]"), std::string::npos) << out;
    EXPECT_NE(out.find("in program 0, lane 1 of 1024"), std::string::npos) << out;
}

} // namespace
