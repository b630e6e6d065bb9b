#pragma once
// Human-readable rendering of a run report for the terminal (`tkm-run run`, `tkm-run compile`, `devices`).

#include "engine/report/run_report.h"

#include <nlohmann/json.hpp>

#include <string>

namespace tkm::cli {

/// The report as text: exercise and device, compile result with diagnostics as `file:line:col: error: …`,
/// one line per case, the fault diagnosis, measure figures when present, and the verdict last.
std::string formatReport(const report::RunReport& report);

/// The devices answer of the worker/driver as text: one line per GPU, or the no-GPU sentence.
std::string formatDevices(const nlohmann::json& devices);

} // namespace tkm::cli
