#pragma once
// Qt-free client of the worker (`tkm-run --serve`): starts it in its own process group, sends jobs, forwards
// progress, and returns the report. It owns the isolation rules of docs/run-report.md:
//   - the deadline rule (worker::allowedSilence, docs/run-report.md "Deadline"; default 10 s): a job that stays
//     silent that long — from sending it, or from its last progress message — has its worker's whole process group
//     killed and the report says verdict "timeout", "the kernel did not finish in 10 s — endless loop?"; the next
//     job starts a fresh worker;
//   - a worker that exits during a job (crash, sticky-error exit without a report) gives verdict "error",
//     error.kind "worker-crash"; the next job starts a fresh worker;
//   - a worker that exits with status 3 after its report (kernel fault) is replaced before the next job;
//   - cancel() from any thread stops the job in progress (verdict "error", error.kind "cancelled").
// After a progress message of stage "diagnose" the allowed silence is `diagnoseGrace`: the kernel has ended, the
// re-runs have their own time limits. The app's EngineClient (app/engine) follows the same rule.

#include "engine/common/error.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <nlohmann/json.hpp>

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tkm::worker {

/// Client settings.
struct ClientOptions
{
    std::filesystem::path workerPath;                 ///< empty: runner::defaultTkmRunPath()
    std::vector<std::string> workerArgs{"--serve"};   ///< arguments of the worker
    std::chrono::milliseconds deadline{10000};        ///< allowed silence of a job (allowedSilence)
    std::chrono::milliseconds diagnoseGrace{30000};   ///< allowed silence after a "diagnose" message
    std::chrono::milliseconds requestDeadline{15000}; ///< ping/devices (includes starting the worker)
};

/// Result of one job.
struct JobResult
{
    report::RunReport report;    ///< the report (built by the client for timeout/crash/cancel)
    nlohmann::json json;         ///< the same as JSON, as received or built
    bool workerReplaced = false; ///< the worker ended during or after this job (a fresh one comes next)
};

/// Talks to one worker process at a time; restarts it as needed. run()/devices()/ping() are serialised;
/// cancel() may be called from any thread.
class Client
{
public:
    /// No process is started until the first request.
    explicit Client(ClientOptions options = {});
    /// Closes the worker's stdin, gives it a moment to exit, then kills its process group.
    ~Client();
    Client(const Client&) = delete;            ///< owns a process
    Client& operator=(const Client&) = delete; ///< owns a process

    /// Runs a job (run or compile, after job.mode) and returns its report; never throws.
    JobResult run(const runner::Job& job, const runner::ProgressFn& progress = {});
    /// The worker's devices report ({"verdict", "device", "devices": [...], "error"?: {...}}), or an Error when it
    /// did not answer.
    engine::Expected<nlohmann::json> devices();
    /// Warms the worker (protocol.h warmRequest; starts it when needed) and returns its report, or an Error when
    /// it did not answer within the job deadline of silence.
    engine::Expected<report::RunReport> warm(const std::filesystem::path& exercise = {});
    /// Sends a ping; Error when the worker does not answer within requestDeadline.
    engine::Status ping();
    /// Stops the job in progress, if any (thread-safe; returns at once).
    void cancel();
    /// Changes the deadline (allowed silence of a job).
    void setDeadline(std::chrono::milliseconds deadline);
    /// Process id of the current worker (0 when none is running).
    pid_t workerPid() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace tkm::worker
