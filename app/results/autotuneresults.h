#pragma once
// The results view's Autotune tab: the report's `autotune` section (docs/run-report.md) as a table — one row per
// configuration with its correctness verdict, one column per tuning shape with the median time, the winner of
// each shape highlighted with its speedup over the slowest configuration — and the winners and notes below.

#include "engine/report/run_report.h"

#include <QWidget>

#include <optional>

class QLabel;
class QTableWidget;

namespace tkm::app {

/// Autotune table of one run report.
class AutotuneResults : public QWidget {
  Q_OBJECT
public:
  explicit AutotuneResults(QWidget *parent = nullptr);

  /// Shows `report`'s autotune section; clears the view when it has none (or `report` is null).
  void setReport(const report::RunReport *report);
  /// Whether the last report had an autotune section.
  bool hasSection() const { return m_section.has_value(); }
  /// The table: rows = configurations, columns = "Configuration", "Check", then one per shape.
  QTableWidget *table() const { return m_table; }
  /// The text under the table (winners per shape, notes), as plain text.
  QString summaryText() const;
  /// Row of the configuration that won shape `shape`, or -1.
  int winnerRow(int shape) const;

private:
  QLabel *m_header = nullptr;
  QTableWidget *m_table = nullptr;
  QLabel *m_summary = nullptr;
  void fillTable(const report::AutotuneInfo &at);
  void markWinners(const report::AutotuneInfo &at);
  QString summaryHtml(const report::AutotuneInfo &at) const;

  std::optional<report::AutotuneInfo> m_section;
};

} // namespace tkm::app
