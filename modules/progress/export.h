#pragma once
// Raw exports of every record for other tools: one CSV table and one JSON document (docs/progress.md, "Exports").
// Both are read inside one read transaction, so they show one consistent state even while another process writes.

#include "modules/progress/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace tkm::progress {

class Store;

/// Options of the exports.
struct ExportOptions
{
    bool includeRunBodies = true; ///< JSON only: include each kernel run's source and full report
};

/// The CSV header row (without the line end); every row has these columns, empty where they do not apply:
/// kind,id,module_id,activity_id,item,time_utc,correct,score,verdict,median_ms,achieved_gbps,dram_read_bytes,
/// stored_bytes,device,seconds,detail,track (`track`: "triton" or "cuda" for kernel-run rows)
std::string_view csvHeader();

/// All records as RFC 4180 CSV (CRLF line ends, fields with comma, quote or line break quoted), oldest first.
/// `kind` is one of quiz, spot-the-bug, drag-match, step-through, hint, solution, kernel-run, time.
Expected<std::string> exportCsv(const Store& store);

/// All records as one JSON document (`"schema": "tkm-progress-export/1"`): arrays quiz_answers, spot_picks,
/// drag_attempts, step_completions, help_views, kernel_runs, time_spans (oldest first) and the resume position.
Expected<nlohmann::json> exportJson(const Store& store, const ExportOptions& options = {});

/// "2026-11-30T04:40:00.123Z" for [ms since epoch, UTC].
std::string formatUtc(int64_t atMs);

} // namespace tkm::progress
