#pragma once
// The run report as the engine's structs (engine/report/run_report.h) for the views: one typed path from the
// worker's JSON to a table row, so that a new figure is a struct field, its measurement and its view row.

#include "engine/report/run_report.h"

#include <QJsonObject>

#include <optional>

namespace tkm::app {

/// The whole report through report::from_json; nullopt when it is not a complete tkm run report.
std::optional<report::RunReport> typedReport(const QJsonObject& report);
/// Its `traffic` section alone (also from a report that is not complete otherwise); nullopt when absent or malformed.
std::optional<report::TrafficInfo> typedTraffic(const QJsonObject& report);

} // namespace tkm::app
