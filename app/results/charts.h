#pragma once
// Charts of a run report: the roofline (log-log) and time / bytes against the baselines. Hovering shows numbers.

#include "engine/report/run_report.h"

#include <QChartView>
#include <QList>
#include <QPair>
#include <QString>

namespace tkm::app {

/// A run report with the name it is shown under ("Your kernel", "Solution", …).
using NamedReport = QPair<QString, report::RunReport>;

/// One point on the roofline: a kernel's arithmetic intensity and FLOP rate.
struct RooflinePoint {
  QString name;            ///< legend text
  double intensity = 0.0;  ///< [FLOP/byte]
  double gflops = 0.0;     ///< [10⁹ FLOP/s]
};

/// Points of a report: the kernel itself (from `roofline`) and each baseline (from its time and bytes).
QList<RooflinePoint> rooflinePoints(const QString &name, const report::RunReport &report);

/// Roofline chart: bandwidth and compute ceilings (theoretical and measured) and the kernels' points.
class RooflineChart : public QChartView {
  Q_OBJECT
public:
  explicit RooflineChart(QWidget *parent = nullptr);
  /// Draws `reports[0]` (the learner's run) with its baselines, and the other reports' own points.
  /// Returns false (and shows a sentence instead) when the first report has no roofline data.
  bool setReports(const QList<NamedReport> &reports);
  /// Number of point series drawn (for tests).
  int pointCount() const { return m_points; }

private:
  int m_points = 0;
};

/// Grouped bars: median time and DRAM bytes of the learner's kernel beside each baseline and comparison.
class BaselineChart : public QChartView {
  Q_OBJECT
public:
  explicit BaselineChart(QWidget *parent = nullptr);
  /// Returns false (and shows a sentence instead) when no timing is in the first report.
  bool setReports(const QList<NamedReport> &reports);
  /// Number of bars per set (kernels compared) (for tests).
  int barCount() const { return m_bars; }

private:
  int m_bars = 0;
};

} // namespace tkm::app
