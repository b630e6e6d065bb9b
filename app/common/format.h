#pragma once
// Plain-words formatting of run-report fields (docs/run-report.md): units, sizes, verdict headlines. The colours
// that go with them are in app/common/theme.h.

#include "engine/report/verdict.h"

#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <map>
#include <string>

namespace tkm::app {

/// Bytes with a decimal unit ("536.9 MB").
QString formatBytes(double bytes);
/// Milliseconds with sensible precision ("0.243 ms", "12.4 µs" below 0.1 ms).
QString formatMs(double ms);
/// An engine stage's wall time [ms] to three significant digits ("71 ms", "0.4 ms", "5.41 s"): for compile and
/// stage times, where formatMs's kernel-timing precision would be noise.
QString formatStageMs(double ms);
/// 10⁹ bytes/s as "3.30 TB/s" or "812 GB/s".
QString formatGbps(double gbps);
/// 10⁹ FLOP/s as "276 GFLOP/s" or "66.9 TFLOP/s".
QString formatGflops(double gflops);
/// A JSON number or string as text (numbers with up to 6 significant digits).
QString formatValue(const QJsonValue& value);
/// "n = 1025" or "M = 4, N = 1000" from a `sizes` object.
QString formatSizes(const QJsonObject& sizes);
/// "n = 1025" or "M = 4, N = 1000" from a report's size (or meta-parameter) map, in name order.
QString formatSizes(const std::map<std::string, int64_t>& sizes);
/// A percentage of a ceiling ("69 %"), or "—" when the ceiling is unknown.
QString formatPercent(double value, double ceiling);

/// Headline of a verdict ("Pass", "Wrong results", "The kernel faulted", …).
QString verdictTitle(report::Verdict verdict);
/// Headline of a configuration verdict (a run verdict's, or "Skipped").
QString verdictTitle(report::ConfigVerdict verdict);
/// A case verdict as the cases table shows it: its wire name ("pass", "skipped").
QString verdictWord(report::CaseVerdict verdict);
/// A verdict's wire name ("pass", "compile_error"), as the run history's prompts quote it.
QString verdictWord(report::Verdict verdict);

} // namespace tkm::app
