#include "engine/worker/client.h"

#include "engine/runner/subprocess.h"
#include "engine/worker/protocol.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <optional>

namespace tkm::worker {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Client::Impl
{
    ClientOptions options;
    std::mutex requestMutex;       // one request at a time
    mutable std::mutex stateMutex; // guards `proc` pid reads and `busy`
    std::optional<runner::Subprocess> proc;
    bool busy = false;
    int wake[2] = {-1, -1}; // cancel() writes a byte here
    int64_t nextId = 1;

    engine::Status ensureWorker();
    void dropWorker(bool kill);
    void drainWake();
};

namespace {

std::string seconds(std::chrono::milliseconds d)
{
    return fmt::format("{:g}", static_cast<double>(d.count()) / 1000.0);
}

JobResult built(report::RunReport r, bool replaced)
{
    JobResult out;
    out.report = std::move(r);
    out.json = out.report;
    out.workerReplaced = replaced;
    return out;
}

report::RunReport baseReport()
{
    report::RunReport r;
    r.engineVersion = TKM_ENGINE_VERSION;
    r.created = report::utcNow();
    return r;
}

report::RunReport errorReport(const std::string& kind, const std::string& message)
{
    report::RunReport r = baseReport();
    r.verdict = "error";
    r.summary = message;
    r.error = report::ErrorInfo{kind, message};
    return r;
}

} // namespace

engine::Status Client::Impl::ensureWorker()
{
    {
        std::lock_guard lock(stateMutex);
        if (proc && proc->running()) {
            // A worker that already exited (e.g. status 3 after a fault) is replaced.
            runner::ExitInfo e;
            if (!proc->waitFor(std::chrono::milliseconds(0), e)) {
                return {};
            }
        }
    }
    const std::filesystem::path path = options.workerPath.empty() ? runner::defaultTkmRunPath() : options.workerPath;
    auto p = runner::Subprocess::spawn(path, options.workerArgs, true);
    if (!p) {
        return engine::makeError(engine::ErrorKind::Internal,
                                 fmt::format("The engine worker could not be started ({}). Set TKM_RUN to the "
                                             "tkm-run executable.",
                                             p.error().message));
    }
    std::lock_guard lock(stateMutex);
    proc = std::move(*p);
    return {};
}

void Client::Impl::dropWorker(bool kill)
{
    std::optional<runner::Subprocess> old;
    {
        std::lock_guard lock(stateMutex);
        old.swap(proc);
    }
    if (old) {
        if (kill) {
            old->kill();
        }
        old->wait();
    }
}

void Client::Impl::drainWake()
{
    char buf[64];
    while (::read(wake[0], buf, sizeof buf) > 0) {
    }
}

Client::Client(ClientOptions options) : m(std::make_unique<Impl>())
{
    m->options = std::move(options);
    if (::pipe2(m->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        m->wake[0] = m->wake[1] = -1;
    }
}

Client::~Client()
{
    std::optional<runner::Subprocess> old;
    {
        std::lock_guard lock(m->stateMutex);
        old.swap(m->proc);
    }
    if (old && old->running()) {
        old->closeStdin();
        runner::ExitInfo e;
        if (!old->waitFor(std::chrono::milliseconds(500), e)) {
            old->kill();
            old->wait();
        }
    }
    for (int fd : m->wake) {
        if (fd >= 0) {
            ::close(fd);
        }
    }
}

void Client::setDeadline(std::chrono::milliseconds deadline)
{
    std::lock_guard lock(m->requestMutex);
    m->options.deadline = deadline;
}

pid_t Client::workerPid() const
{
    std::lock_guard lock(m->stateMutex);
    return m->proc ? m->proc->pid() : 0;
}

void Client::cancel()
{
    std::lock_guard lock(m->stateMutex);
    if (m->busy && m->wake[1] >= 0) {
        const char b = 1;
        [[maybe_unused]] const ssize_t n = ::write(m->wake[1], &b, 1);
    }
}

JobResult Client::run(const runner::Job& job, const runner::ProgressFn& progress)
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return built(errorReport("internal", s.error().message), false);
    }
    m->drainWake();
    {
        std::lock_guard lock(m->stateMutex);
        m->busy = true;
    }
    struct BusyGuard
    {
        Impl* m;
        ~BusyGuard()
        {
            std::lock_guard lock(m->stateMutex);
            m->busy = false;
        }
    } busyGuard{m.get()};

    const int64_t id = m->nextId++;
    runner::Subprocess& p = *m->proc;
    const std::string request = jobRequest(job, id).dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
    if (auto s = p.write(request); !s) {
        const runner::ExitInfo e = p.wait();
        m->dropWorker(false);
        return built(errorReport("worker-crash", fmt::format("The engine's worker stopped before it took the job "
                                                             "({}); it is restarted for the next run.",
                                                             e.describe())),
                     true);
    }

    auto deadline = Clock::now() + m->options.deadline;
    bool graceGiven = false;
    runner::Progress last;
    std::string line;
    for (;;) {
        const runner::ReadResult rr = p.readLine(line, deadline, m->wake[0]);
        if (rr == runner::ReadResult::Timeout) {
            m->dropWorker(true);
            std::string text =
                fmt::format("the kernel did not finish in {} s — endless loop?", seconds(m->options.deadline));
            if (last.stage == "case" && last.of > 0) {
                text += fmt::format(" (case {} of {}: “{}”)", last.index, last.of, last.caseName);
            } else if (last.stage == "compile") {
                text += " (the compiler was still running)";
            }
            report::RunReport r = baseReport();
            r.verdict = "timeout";
            r.summary = text;
            return built(std::move(r), true);
        }
        if (rr == runner::ReadResult::Woken) {
            m->dropWorker(true);
            return built(errorReport("cancelled", "The run was cancelled."), true);
        }
        if (rr == runner::ReadResult::Eof) {
            const runner::ExitInfo e = p.wait();
            m->dropWorker(false);
            return built(errorReport("worker-crash",
                                     fmt::format("The engine's worker stopped unexpectedly ({}) while running this "
                                                 "job; it is restarted for the next run.",
                                                 e.describe())),
                         true);
        }
        const json msg = json::parse(line, nullptr, false);
        if (msg.is_discarded() || !msg.is_object() || msg.value("id", json()) != json(id)) {
            continue; // not ours (or stray output): ignore
        }
        const std::string type = msg.value("type", std::string());
        if (type == "progress") {
            last = progressFromMessage(msg);
            if (last.stage == "diagnose" && !graceGiven) {
                graceGiven = true;
                deadline = std::max(deadline, Clock::now() + m->options.diagnoseGrace);
            }
            if (progress) {
                progress(last);
            }
            continue;
        }
        if (type == "error") {
            return built(errorReport("internal", "The worker rejected the request: " +
                                                     msg.value("message", std::string("(no message)"))),
                         false);
        }
        if (type == "report" && msg.contains("report")) {
            JobResult out;
            out.json = msg["report"];
            try {
                out.report = out.json.get<report::RunReport>();
            } catch (const std::exception& e) {
                return built(
                    errorReport("internal", fmt::format("The worker's report could not be read: {}", e.what())), false);
            }
            // After a kernel fault the worker exits (status 3): reap it now so the next job starts fresh.
            runner::ExitInfo e;
            if (out.report.verdict == "fault" || p.waitFor(std::chrono::milliseconds(0), e)) {
                if (!p.waitFor(std::chrono::milliseconds(3000), e)) {
                    p.kill();
                }
                m->dropWorker(false);
                out.workerReplaced = true;
            }
            return out;
        }
    }
}

namespace {

engine::Expected<json> simpleRequest(std::optional<runner::Subprocess>& proc, const json& request,
                                     std::chrono::milliseconds timeout, const std::string& expectType)
{
    runner::Subprocess& p = *proc;
    if (auto s = p.write(request.dump() + "\n"); !s) {
        return s.error();
    }
    const auto deadline = Clock::now() + timeout;
    std::string line;
    for (;;) {
        const runner::ReadResult rr = p.readLine(line, deadline);
        if (rr == runner::ReadResult::Timeout) {
            return engine::makeError(engine::ErrorKind::Internal,
                                     fmt::format("the engine worker did not answer in {} s", seconds(timeout)));
        }
        if (rr != runner::ReadResult::Line) {
            return engine::makeError(engine::ErrorKind::Internal, "the engine worker stopped unexpectedly");
        }
        const json msg = json::parse(line, nullptr, false);
        if (msg.is_discarded() || !msg.is_object() || msg.value("id", json()) != request["id"]) {
            continue;
        }
        if (msg.value("type", std::string()) == expectType) {
            return expectType == "report" ? msg["report"] : msg;
        }
        return engine::makeError(engine::ErrorKind::Internal,
                                 "the engine worker answered: " + msg.value("message", msg.dump()));
    }
}

} // namespace

engine::Expected<json> Client::devices()
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return s.error();
    }
    auto r = simpleRequest(m->proc, {{"id", m->nextId++}, {"op", "devices"}}, m->options.requestDeadline, "report");
    if (!r) {
        m->dropWorker(true);
    }
    return r;
}

engine::Status Client::ping()
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return s;
    }
    auto r = simpleRequest(m->proc, {{"id", m->nextId++}, {"op", "ping"}}, m->options.requestDeadline, "pong");
    if (!r) {
        m->dropWorker(true);
        return r.error();
    }
    return {};
}

} // namespace tkm::worker
