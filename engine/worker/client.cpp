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
        return built(workerCrashReport(e.describe()), true);
    }

    // The deadline rule (worker::allowedSilence): the allowance starts again at every progress message.
    runner::Progress last;
    auto deadline = Clock::now() + allowedSilence(last.stage, m->options.deadline, m->options.diagnoseGrace);
    std::string line;
    for (;;) {
        const runner::ReadResult rr = p.readLine(line, deadline, m->wake[0]);
        if (rr == runner::ReadResult::Timeout) {
            m->dropWorker(true);
            return built(timeoutReport(m->options.deadline, last), true);
        }
        if (rr == runner::ReadResult::Woken) {
            m->dropWorker(true);
            return built(errorReport("cancelled", "The run was cancelled."), true);
        }
        if (rr == runner::ReadResult::Eof) {
            const runner::ExitInfo e = p.wait();
            m->dropWorker(false);
            return built(workerCrashReport(e.describe()), true);
        }
        const WorkerMessage msg = parseWorkerLine(line);
        if (msg.type == WorkerMessage::Type::Other || msg.id != json(id)) {
            continue; // not ours (or stray output): ignore
        }
        if (msg.type == WorkerMessage::Type::Progress) {
            last = msg.progress;
            deadline = Clock::now() + allowedSilence(last.stage, m->options.deadline, m->options.diagnoseGrace);
            if (progress) {
                progress(last);
            }
            continue;
        }
        if (msg.type == WorkerMessage::Type::Error) {
            return built(rejectedReport(msg.message), false);
        }
        if (msg.type == WorkerMessage::Type::Report) {
            JobResult out;
            out.json = msg.report;
            try {
                out.report = out.json.get<report::RunReport>();
            } catch (const std::exception& e) {
                return built(
                    errorReport("internal", fmt::format("The worker's report could not be read: {}", e.what())), false);
            }
            // After a kernel fault the worker exits (status 3): reap it now so the next job starts fresh.
            runner::ExitInfo e;
            if (out.report.verdict == report::Verdict::Fault || p.waitFor(std::chrono::milliseconds(0), e)) {
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

engine::Expected<json> exchange(std::optional<runner::Subprocess>& proc, const json& request,
                                     std::chrono::milliseconds timeout, WorkerMessage::Type expectType)
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
        const WorkerMessage msg = parseWorkerLine(line);
        if (msg.type == WorkerMessage::Type::Other || msg.id != request["id"] ||
            (msg.type == WorkerMessage::Type::Progress && expectType != WorkerMessage::Type::Progress)) {
            continue; // progress lines (a warm-up sends some) come before the answer
        }
        if (msg.type == expectType) {
            return expectType == WorkerMessage::Type::Report ? msg.report : json::parse(line);
        }
        return engine::makeError(engine::ErrorKind::Internal, "the engine worker answered: " +
                                                                  (msg.message.empty() ? line : msg.message));
    }
}

} // namespace

engine::Expected<json> Client::devices()
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return s.error();
    }
    auto r = exchange(m->proc, simpleRequest(m->nextId++, "devices"), m->options.requestDeadline,
                           WorkerMessage::Type::Report);
    if (!r) {
        m->dropWorker(true);
    }
    return r;
}

engine::Expected<report::RunReport> Client::warm(const std::filesystem::path& exercise)
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return s.error();
    }
    // Progress lines come between the steps; the whole warm-up (context, CUPTI, ceilings, performance case)
    // stays well inside a job's deadline plus the request deadline.
    auto r = exchange(m->proc, warmRequest(m->nextId++, exercise.string()),
                      m->options.deadline + m->options.requestDeadline, WorkerMessage::Type::Report);
    if (!r) {
        m->dropWorker(true);
        return r.error();
    }
    try {
        return r->get<report::RunReport>();
    } catch (const std::exception& e) {
        return engine::makeError(engine::ErrorKind::Internal, std::string("unreadable warm-up report: ") + e.what());
    }
}

engine::Status Client::ping()
{
    std::lock_guard requestLock(m->requestMutex);
    if (auto s = m->ensureWorker(); !s) {
        return s;
    }
    auto r = exchange(m->proc, simpleRequest(m->nextId++, "ping"), m->options.requestDeadline,
                           WorkerMessage::Type::Pong);
    if (!r) {
        m->dropWorker(true);
        return r.error();
    }
    return {};
}

} // namespace tkm::worker
