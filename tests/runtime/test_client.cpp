// The worker client's isolation rules (engine/worker/client.h) against a misbehaving fake worker, and one real
// compile job through tkm-run (no GPU needed).
#include "engine/worker/client.h"
#include "engine/worker/protocol.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <string>
#include <thread>

using namespace std::chrono_literals;
using tkm::worker::Client;
using tkm::worker::ClientOptions;

namespace report = tkm::report;

namespace {

std::filesystem::path fakeWorker()
{
    // Next to this test first (the packed GPU-machine layout), else the build tree's path.
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec && std::filesystem::exists(self.parent_path() / "tkm_fake_worker")) {
        return self.parent_path() / "tkm_fake_worker";
    }
    return TKM_FAKE_WORKER;
}

ClientOptions fakeOptions(std::chrono::milliseconds deadline)
{
    ClientOptions o;
    o.workerPath = fakeWorker();
    o.workerArgs = {};
    o.deadline = deadline;
    o.diagnoseGrace = 5s;
    return o;
}

tkm::runner::Job job(const std::string& behaviour)
{
    tkm::runner::Job j;
    j.exercise = "/fake";
    j.source = behaviour;
    return j;
}

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// True when `pid` is gone (or a zombie waiting for its new parent).
bool processGone(pid_t pid)
{
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    if (!stat) {
        return true;
    }
    std::string s;
    std::getline(stat, s);
    const auto close = s.rfind(')');
    return close != std::string::npos && close + 2 < s.size() && s[close + 2] == 'Z';
}

} // namespace

TEST(Client, NormalJobReturnsTheWorkersReportAndKeepsTheWorker)
{
    Client client(fakeOptions(5s));
    int progressSeen = 0;
    const auto r1 = client.run(job("ok"), [&](const tkm::runner::Progress&) { ++progressSeen; });
    EXPECT_EQ(r1.report.verdict, report::Verdict::Pass);
    EXPECT_EQ(r1.json.value("verdict", ""), "pass");
    EXPECT_GE(progressSeen, 1);
    const pid_t pid = client.workerPid();
    EXPECT_GT(pid, 0);
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
    EXPECT_EQ(client.workerPid(), pid) << "a healthy worker stays warm between jobs";
    EXPECT_TRUE(client.ping().ok());
}

TEST(Client, DeadlineKillsTheWorkerReportsTimeoutAndTheNextJobWorks)
{
    Client client(fakeOptions(700ms));
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = client.run(job("sleep"));
    const double took = secondsSince(t0);
    EXPECT_EQ(r.report.verdict, report::Verdict::Timeout);
    EXPECT_EQ(r.report.summary.rfind("the kernel did not finish in 0.7 s — endless loop?", 0), 0u) << r.report.summary;
    EXPECT_NE(r.report.summary.find("case 1 of 3: “one element”"), std::string::npos) << r.report.summary;
    EXPECT_TRUE(r.workerReplaced);
    EXPECT_LT(took, 3.0) << "the client must not wait past its deadline";
    EXPECT_GE(took, 0.6);
    const auto next = client.run(job("ok"));
    EXPECT_EQ(next.report.verdict, report::Verdict::Pass) << "a fresh worker takes the next job";
}

// The deadline rule (worker::allowedSilence, docs/run-report.md "Deadline"): silence counts, not the whole job.
// The app's EngineClient follows the same rule (tests/app/tst_engineclient.cpp, chattyJobIsNotKilled).
TEST(Client, DeadlineCountsSilenceSoASlowChattyJobPasses)
{
    Client client(fakeOptions(800ms));
    int progressSeen = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = client.run(job("chatty"), [&](const tkm::runner::Progress&) { ++progressSeen; });
    EXPECT_EQ(r.report.verdict, report::Verdict::Pass) << r.report.summary;
    EXPECT_GE(secondsSince(t0), 2.0) << "the job ran well past the 0.8 s deadline";
    EXPECT_EQ(progressSeen, 8);
}

TEST(Client, AllowedSilenceIsTheDeadlineExceptDuringDiagnosis)
{
    using tkm::worker::allowedSilence;
    EXPECT_EQ(allowedSilence("", 10s, 30s), 10s);
    EXPECT_EQ(allowedSilence("case", 10s, 30s), 10s);
    EXPECT_EQ(allowedSilence("diagnose", 10s, 30s), 30s);
    EXPECT_EQ(allowedSilence("diagnose", 60s, 30s), 60s) << "the grace never shortens a longer deadline";
}

TEST(Client, DefaultDeadlineMessageSaysTenSeconds)
{
    ClientOptions o;
    EXPECT_EQ(o.deadline, 10s);
}

TEST(Client, DeadlineKillsTheWorkersWholeProcessGroup)
{
    Client client(fakeOptions(800ms));
    pid_t child = 0;
    const auto r = client.run(job("child"), [&](const tkm::runner::Progress& p) {
        if (p.stage == "case") {
            child = static_cast<pid_t>(std::stol(p.text));
        }
    });
    EXPECT_EQ(r.report.verdict, report::Verdict::Timeout);
    ASSERT_GT(child, 0);
    bool gone = false;
    for (int i = 0; i < 100 && !gone; ++i) {
        gone = processGone(child);
        std::this_thread::sleep_for(20ms);
    }
    EXPECT_TRUE(gone) << "a process the worker started (like a probe) must die with it";
    if (!gone) {
        ::kill(child, SIGKILL);
    }
}

TEST(Client, CrashGivesWorkerCrashAndTheNextJobWorks)
{
    Client client(fakeOptions(5s));
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
    const auto r = client.run(job("crash"));
    EXPECT_EQ(r.report.verdict, report::Verdict::Error);
    ASSERT_TRUE(r.report.error.has_value());
    EXPECT_EQ(r.report.error->kind, "worker-crash");
    EXPECT_NE(r.report.error->message.find("signal 6"), std::string::npos) << r.report.error->message;
    EXPECT_TRUE(r.workerReplaced);
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
}

TEST(Client, WorkerExitAfterFaultReportIsReplaced)
{
    Client client(fakeOptions(5s));
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
    const pid_t before = client.workerPid();
    const auto r = client.run(job("fault"));
    EXPECT_EQ(r.report.verdict, report::Verdict::Fault);
    EXPECT_TRUE(r.workerReplaced);
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
    EXPECT_NE(client.workerPid(), before);
}

TEST(Client, DiagnosisGetsGraceBeyondTheDeadline)
{
    Client client(fakeOptions(600ms));
    const auto r = client.run(job("diagnose"));
    EXPECT_EQ(r.report.verdict, report::Verdict::Pass) << "re-runs after a fault are not an endless loop";
}

TEST(Client, CancelFromAnotherThreadStopsTheJob)
{
    Client client(fakeOptions(20s));
    std::thread canceller([&] {
        std::this_thread::sleep_for(300ms);
        client.cancel();
    });
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = client.run(job("sleep"));
    canceller.join();
    EXPECT_LT(secondsSince(t0), 5.0);
    EXPECT_EQ(r.report.verdict, report::Verdict::Error);
    ASSERT_TRUE(r.report.error.has_value());
    EXPECT_EQ(r.report.error->kind, "cancelled");
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
}

TEST(Client, CancelWithNoJobDoesNothing)
{
    Client client(fakeOptions(5s));
    client.cancel();
    EXPECT_EQ(client.run(job("ok")).report.verdict, report::Verdict::Pass);
}

TEST(Client, MissingWorkerExecutableIsAClearError)
{
    ClientOptions o = fakeOptions(5s);
    o.workerPath = "/nonexistent/tkm-run";
    Client client(o);
    const auto r = client.run(job("ok"));
    EXPECT_EQ(r.report.verdict, report::Verdict::Error);
    ASSERT_TRUE(r.report.error.has_value());
    EXPECT_NE(r.report.error->message.find("TKM_RUN"), std::string::npos) << r.report.error->message;
}

TEST(Client, RealWorkerCompilesWithoutAGpu)
{
    const char* content = std::getenv("TKM_CONTENT_DIR");
    ASSERT_NE(content, nullptr) << "TKM_CONTENT_DIR is set by tkm_add_test";
    ASSERT_NE(std::getenv("TKM_RUN"), nullptr) << "TKM_RUN is set by tkm_add_test";
    const std::filesystem::path dir = std::filesystem::path(content) / "02-vector-add/exercises/vector-add";
    std::ifstream in(dir / "solution.cu");
    const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Client client; // default: TKM_RUN --serve
    tkm::runner::Job j;
    j.exercise = dir;
    j.source = source;
    j.sourceName = "solution.cu";
    j.mode = tkm::runner::Mode::CompileOnly;
    const auto r = client.run(j);
    EXPECT_EQ(r.report.verdict, report::Verdict::Compiled) << r.json.dump();
    ASSERT_TRUE(r.report.compile.has_value());
    EXPECT_TRUE(r.report.compile->ok);
}

TEST(Client, WarmRequestIsAnsweredAfterItsProgressLines)
{
    // The real worker: a "warm" progress line comes first, then the report ("pass" on a GPU machine; without one
    // "error" with the reason). The client must wait for the report, not take the progress line as the answer.
    tkm::worker::Client client;
    auto warm = client.warm();
    ASSERT_TRUE(warm.ok()) << warm.error().message;
    if (warm->verdict == report::Verdict::Error) {
        ASSERT_TRUE(warm->error.has_value());
        EXPECT_FALSE(warm->error->message.empty());
    } else {
        EXPECT_EQ(warm->verdict, report::Verdict::Pass) << warm->summary;
        EXPECT_TRUE(warm->stagesMs.count("total"));
    }
    EXPECT_TRUE(client.ping().ok()); // the same worker answers the next request
}
