#pragma once
// The worker protocol of docs/run-report.md ("Worker protocol"): JSON lines on stdin/stdout of
// `tkm-run --serve`. Requests: run, compile, devices, ping. Responses: progress lines, then exactly one
// report line (run, compile, devices) or a pong line (ping) — or one error line for a malformed request.
// The devices report: {"verdict": "pass", "device": {first GPU}, "devices": [{…, "ordinal", "arch",
// "memory_clock_khz", "bus_width_bits"}]}, or verdict "error" with error.kind "no-gpu"/"no-driver".
// This header holds the conversions both sides share.

#include "engine/common/error.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <nlohmann/json.hpp>

#include <string>

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

} // namespace tkm::worker
