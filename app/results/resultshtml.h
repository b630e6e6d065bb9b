#pragma once
// The results view's two text pages (Correctness, Performance) as HTML, from the typed run report
// (engine/report/run_report.h). Derived figures (DRAM efficiency, bytes moved) come from engine/report/figures.h.

#include "engine/report/run_report.h"

#include <QPalette>
#include <QString>

namespace tkm::app {

/// The Correctness page: verdict banner, what ran where, engine error, compile diagnostics (links
/// "diag:LINE:COLUMN"), fault and the cases table. `showEngineDetails` opens the raw no-GPU reason
/// (link "details:engine" toggles it).
QString correctnessHtml(const report::RunReport& report, const QPalette& palette, bool showEngineDetails);
/// The Performance page: time, DRAM traffic, resources per thread block, baselines and engine stages; a sentence
/// when the run was not timed.
QString performanceHtml(const report::RunReport& report, const QPalette& palette);

} // namespace tkm::app
