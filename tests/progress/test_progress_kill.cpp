// Reliability across processes: a writer killed with SIGKILL at random moments loses no committed row and leaves a
// sound file; two processes writing one database at once both succeed and lose nothing.
// Each writer is a fork()ed child that appends "<key>\n" to a side log after each write returned (= committed).
#include "modules/progress/store.h"
#include "tests/progress/test_util.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <set>
#include <sstream>
#include <thread>

namespace tkm::progress {
namespace {

using test::TempDir;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

const ActivityRef kQuiz{"kill", "quiz"};
const ActivityRef kExercise{"kill", "ex"};

void appendLine(int fd, const std::string& line)
{
    const std::string text = line + "\n";
    if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
        _exit(5);
    }
}

/// The child: writes quiz answers and (every 4th write) a kernel run with a 32 KiB source, logging each committed
/// key, until `count` writes are done (then exits 0) or it is killed (count < 0: forever).
[[noreturn]] void writer(const fs::path& db, const fs::path& log, const std::string& prefix, int count)
{
    const int fd = ::open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) {
        _exit(2);
    }
    auto store = Store::open(db, OpenOptions{20'000});
    if (!store) {
        std::fprintf(stderr, "writer %s: %s\n", prefix.c_str(), store.error().message.c_str());
        _exit(3);
    }
    if (!store->openReport().movedAside.empty()) {
        appendLine(fd, "MOVED-ASIDE " + store->openReport().movedAside.string());
    }
    const std::string bigSource(32 * 1024, 'k');
    const report::RunReport report = test::sampleReport("pass", 0.25, 3000.0);
    for (int n = 0; count < 0 || n < count; ++n) {
        const std::string key = prefix + "-" + std::to_string(n);
        bool ok = false;
        if (n % 4 == 3) {
            KernelRun run = kernelRunFromReport(kExercise, bigSource + key, report);
            run.exerciseId = key;
            ok = store->recordKernelRun(run).ok();
        } else {
            ok = store->recordQuizAnswer({0, kQuiz, key, {n % 3}, n % 2 == 0, 0}).ok();
        }
        if (!ok) {
            _exit(4);
        }
        appendLine(fd, key);
    }
    _exit(0);
}

/// Complete lines of the side log (a line cut by the kill has no '\n' and is dropped).
std::vector<std::string> loggedKeys(const fs::path& log)
{
    std::vector<std::string> keys;
    std::istringstream in(test::readBytes(log));
    std::string line;
    while (std::getline(in, line)) {
        if (!in.eof()) {
            keys.push_back(line);
        }
    }
    return keys;
}

/// Every key in the database: quiz question ids and run exercise ids.
std::set<std::string> storedKeys(const Store& store)
{
    std::set<std::string> keys;
    const auto answers = store.quizAnswers();
    const auto runs = store.runHistory();
    EXPECT_TRUE(answers && runs);
    for (const QuizAnswer& q : *answers) {
        keys.insert(q.questionId);
    }
    for (const KernelRun& r : *runs) {
        keys.insert(r.exerciseId);
    }
    return keys;
}

TEST(KillTest, SigkillDuringWritesLosesNoCommittedRow)
{
    TempDir dir;
    const fs::path db = dir / "progress.db";
    const fs::path log = dir / "committed.log";
    ASSERT_TRUE(Store::open(db)); // schema in place, so kills land in the writes, not only in the migration

    std::mt19937 rng(20261130);
    const auto start = std::chrono::steady_clock::now();
    int rounds = 0;
    int streamingKills = 0;
    // Stop starting rounds after 12 s so the test ends well inside 30 s even on two busy cores.
    while (rounds < 30 && std::chrono::steady_clock::now() - start < 12s) {
        std::error_code ec;
        const auto logSize = [&] { return fs::exists(log) ? fs::file_size(log, ec) : 0; };
        const auto sizeBefore = logSize();
        std::fflush(nullptr);
        const pid_t pid = fork();
        ASSERT_GE(pid, 0) << "fork failed";
        if (pid == 0) {
            writer(db, log, "r" + std::to_string(rounds), -1);
        }
        // Most rounds wait until the writer is streaming, then kill at a random moment of the stream; every fifth
        // kills at a random moment from the start (open, WAL recovery, the first write).
        if (rounds % 5 != 4) {
            const auto waitStart = std::chrono::steady_clock::now();
            while (logSize() == sizeBefore && std::chrono::steady_clock::now() - waitStart < 5s) {
                std::this_thread::sleep_for(1ms);
            }
            streamingKills += logSize() > sizeBefore ? 1 : 0;
            std::this_thread::sleep_for(std::chrono::microseconds(rng() % 40'000));
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 60));
        }
        ASSERT_EQ(kill(pid, SIGKILL), 0);
        int status = 0;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
            << "the writer stopped by itself (exit status " << WEXITSTATUS(status) << ") in round " << rounds;
        ++rounds;
    }
    ASSERT_GE(streamingKills, 5) << "too few kills during a stream of writes to mean anything";

    auto store = Store::open(db);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_TRUE(store->openReport().movedAside.empty());
    EXPECT_EQ(*store->integrityCheck(), "ok");

    const std::vector<std::string> logged = loggedKeys(log);
    const std::set<std::string> stored = storedKeys(*store);
    int missing = 0;
    for (const std::string& key : logged) {
        ASSERT_EQ(key.find("MOVED-ASIDE"), std::string::npos) << "a writer found the file damaged: " << key;
        if (!stored.count(key)) {
            ++missing;
            ADD_FAILURE() << "committed row " << key << " is gone";
        }
    }
    EXPECT_EQ(missing, 0);
    EXPECT_GE(logged.size(), static_cast<size_t>(streamingKills));
    // A kill between commit and log line leaves at most one unlogged row per round.
    EXPECT_LE(stored.size(), logged.size() + static_cast<size_t>(rounds));
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        EXPECT_EQ(entry.path().filename().string().find("corrupt"), std::string::npos);
    }
    std::printf("kill test: %d rounds (%d during a stream of writes), %zu committed writes logged, %zu rows stored\n",
                rounds, streamingKills, logged.size(), stored.size());
}

TEST(ConcurrencyTest, TwoProcessesWritingOneDatabaseLoseNothing)
{
    TempDir dir;
    const fs::path db = dir / "progress.db";
    const fs::path log = dir / "committed.log";
    constexpr int kWrites = 120;
    // Both start on a file that does not exist yet: creation, WAL switch and migration race too.
    std::vector<pid_t> children;
    std::fflush(nullptr);
    for (const char* prefix : {"a", "b"}) {
        const pid_t pid = fork();
        ASSERT_GE(pid, 0);
        if (pid == 0) {
            writer(db, log, prefix, kWrites);
        }
        children.push_back(pid);
    }
    for (pid_t pid : children) {
        int status = 0;
        ASSERT_EQ(waitpid(pid, &status, 0), pid);
        ASSERT_TRUE(WIFEXITED(status)) << "writer died";
        EXPECT_EQ(WEXITSTATUS(status), 0) << "writer failed (3: open, 4: a write)";
    }
    auto store = Store::open(db);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(*store->integrityCheck(), "ok");
    const std::set<std::string> stored = storedKeys(*store);
    EXPECT_EQ(stored.size(), 2u * kWrites);
    EXPECT_EQ(loggedKeys(log).size(), 2u * kWrites);
    for (const char* prefix : {"a", "b"}) {
        for (int n = 0; n < kWrites; ++n) {
            EXPECT_TRUE(stored.count(std::string(prefix) + "-" + std::to_string(n))) << prefix << n;
        }
    }
}

TEST(ConcurrencyTest, ReaderSeesConsistentCountsWhileAnotherProcessWrites)
{
    TempDir dir;
    const fs::path db = dir / "progress.db";
    auto reader = Store::open(db);
    ASSERT_TRUE(reader);
    std::fflush(nullptr);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        writer(db, dir / "committed.log", "w", 80);
    }
    size_t last = 0;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        auto answers = reader->quizAnswers();
        ASSERT_TRUE(answers) << answers.error().message;
        EXPECT_GE(answers->size(), last) << "a committed row disappeared";
        last = answers->size();
        std::this_thread::sleep_for(2ms);
    }
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(reader->quizAnswers()->size(), 60u); // 3 of every 4 writes are quiz answers
    EXPECT_EQ(reader->runHistory()->size(), 20u);
}

} // namespace
} // namespace tkm::progress
