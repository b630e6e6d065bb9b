#pragma once
// The results of a run (docs/run-report.md): correctness per case, performance against the ceilings and the
// baselines, the roofline and the bar chart; the progress of a running job with a cancel button.
// Every field of the report may be absent (a stage not reached): the view says what it could not show and why.

#include "app/results/charts.h"
#include "engine/report/run_report.h"

#include <QList>
#include <QPair>
#include <QWidget>

#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTextBrowser;

namespace tkm::app {

class AutotuneResults;

/// Results dock contents.
class ResultsView : public QWidget {
  Q_OBJECT
public:
  explicit ResultsView(QWidget *parent = nullptr);

  /// Shows a run report (replaces the previous one) and hides the progress row.
  void showReport(const report::RunReport &report);
  /// Adds a report drawn beside the learner's in the charts (e.g. the solution's run), replacing one of that name.
  void setComparison(const QString &name, const report::RunReport &report);
  /// Removes every comparison.
  void clearComparisons();
  /// Shows the progress row for a job that has just started.
  void showRunning(const QString &title);
  /// Updates the progress row: stage (compile, case, timing, traffic, baseline, diagnose), case k of n.
  void showProgress(const QString &stage, int index, int of, const QString &text);
  /// Hides the progress row and says the run was cancelled.
  void showCancelled();
  /// Back to the empty state.
  void clear();

  /// The report shown (absent when none).
  const std::optional<report::RunReport> &report() const { return m_report; }
  /// Plain text of the correctness page (for tests and copy).
  QString correctnessText() const;
  /// Plain text of the performance page.
  QString performanceText() const;
  /// The tabs: Correctness, Performance, Roofline, Baselines, and Autotune for tuning reports.
  QTabWidget *tabs() const { return m_tabs; }
  /// The roofline chart.
  RooflineChart *roofline() const { return m_roofline; }
  /// The bar chart.
  BaselineChart *baselineChart() const { return m_bars; }
  /// The Autotune tab (shown only for reports with an `autotune` section).
  AutotuneResults *autotuneResults() const { return m_autotune; }
  /// Whether the progress row is shown.
  bool isRunning() const;

signals:
  /// The learner pressed Cancel.
  void cancelRequested();
  /// The learner clicked a compile diagnostic [1-based line and column].
  void diagnosticActivated(int line, int column);

protected:
  void changeEvent(QEvent *event) override;

private:
  void render();
  QString emptyHtml(const QString &text) const;

  std::optional<report::RunReport> m_report;
  QList<NamedReport> m_comparisons;
  QWidget *m_progressRow = nullptr;
  QLabel *m_progressText = nullptr;
  QProgressBar *m_progressBar = nullptr;
  QPushButton *m_cancel = nullptr;
  QTabWidget *m_tabs = nullptr;
  QTextBrowser *m_correctness = nullptr;
  QTextBrowser *m_performance = nullptr;
  RooflineChart *m_roofline = nullptr;
  BaselineChart *m_bars = nullptr;
  AutotuneResults *m_autotune = nullptr;
  QString m_notice; ///< shown instead of a report ("Run cancelled.")
  bool m_showEngineDetails = false; ///< the raw engine error under "Details" is open
};

} // namespace tkm::app
