#pragma once
// The worker protocol of docs/run-report.md ("Worker protocol"): JSON lines on stdin/stdout of
// `tkm-run --serve`. Requests: run, compile, devices, warm, ping. Responses: progress lines, then exactly one
// report line (run, compile, devices) or a pong line (ping) — or one error line for a malformed request.
// The devices report: {"verdict": "pass", "device": {first GPU}, "devices": [{…, "ordinal", "arch",
// "memory_clock_khz", "bus_width_bits"}]}, or verdict "error" with error.kind "no-gpu"/"no-driver".
// This header holds the conversions both sides share.

#include "engine/common/error.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>
#include <string_view>

namespace tkm::worker {

/// Request of a job: {"id", "op": "run" | "compile", "exercise", "source", "source_name", "meta", "measure",
/// "cases", "cc", "reset_to_zero", "configs"}. `op` follows job.mode.
nlohmann::json jobRequest(const runner::Job& job, const nlohmann::json& id);

/// Parses a run/compile request. Errors (BadInput) name the field: "request field \"source\" is missing",
/// "request field \"meta\" must be an object of integers", …
engine::Expected<runner::Job> jobFromRequest(const nlohmann::json& request);

/// Parses a request's "configs": an array of objects of integers (one meta-parameter set each). Errors
/// (BadInput) say which entry is wrong and show the expected form.
engine::Expected<std::vector<problem::MetaValues>> configsFromJson(const nlohmann::json& configs);

/// {"id", "type": "progress", "stage", "case", "of", "text", "case_name"}.
nlohmann::json progressMessage(const nlohmann::json& id, const runner::Progress& p);
/// Parses a progress message (missing fields read as defaults).
runner::Progress progressFromMessage(const nlohmann::json& message);
/// {"id", "type": "report", "report": {…}}.
nlohmann::json reportMessage(const nlohmann::json& id, const report::RunReport& report);
/// {"id", "type": "error", "message"}.
nlohmann::json errorMessage(const nlohmann::json& id, const std::string& message);

/// A request without fields: {"id", "op"} for "devices" and "ping".
nlohmann::json simpleRequest(const nlohmann::json& id, const std::string& op);
/// {"id", "op": "warm", "exercise"?}: warm the worker (runner::Runner::warm) — the GPU context, the CUPTI set-up,
/// the ceilings from the disk cache and, with an exercise folder, its reference kernel and performance case. The
/// answer is a report line (verdict "pass" with stages_ms, or "error" with the reason), after "warm" progress lines.
nlohmann::json warmRequest(const nlohmann::json& id, const std::string& exercise = {});

/// One line of the worker's stdout, decoded.
struct WorkerMessage
{
    /// What the line is; Other for anything that is not a protocol line (it is ignored).
    enum class Type { Progress, Report, Error, Pong, Other };
    Type type = Type::Other;  ///< kind of message
    nlohmann::json id;        ///< the request id it answers (null when absent)
    runner::Progress progress; ///< Type::Progress
    nlohmann::json report;    ///< Type::Report: the report object as sent
    std::string message;      ///< Type::Error: the worker's sentence
};
/// Parses one line the worker wrote; never throws.
WorkerMessage parseWorkerLine(std::string_view line);

/// The deadline rule (docs/run-report.md, "Deadline"): how long a job may stay silent from now, given the stage
/// of its last progress message ("" when none yet). The allowance starts when the job is sent and starts again at
/// every progress message; after a "diagnose" message it is max(deadline, diagnoseGrace), since the kernel has
/// ended and the diagnosis re-runs have their own time limits; so it is after "print" (a launch of a kernel that
/// calls device printf, which is slow from many threads).
std::chrono::milliseconds allowedSilence(std::string_view lastStage, std::chrono::milliseconds deadline,
                                         std::chrono::milliseconds diagnoseGrace);

/// The report of a job that stayed silent past its deadline: verdict "timeout", "the kernel did not finish in
/// 10 s — endless loop?", plus where it was (the case, or the compiler) after `last`.
report::RunReport timeoutReport(std::chrono::milliseconds deadline, const runner::Progress& last);
/// The report of a job the engine could not run: verdict "error", error.kind `kind`, summary = message.
report::RunReport errorReport(const std::string& kind, const std::string& message);
/// The report of a worker that ended during a job: verdict "error", error.kind "worker-crash", a sentence with
/// `how` ("killed by signal 6", "exited with status 1") and, when given, the last lines of its stderr.
report::RunReport workerCrashReport(const std::string& how, const std::string& lastWords = {});
/// The report of a request the worker answered with an error message (error.kind "internal").
report::RunReport rejectedReport(const std::string& message);

} // namespace tkm::worker
