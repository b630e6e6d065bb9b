#pragma once
// The five diagram kinds (see diagram.h).

#include "app/activities/diagrams/diagram.h"

#include <QList>
#include <QPoint>
#include <QStringList>

namespace tkm::app {

/// HBM ↔ on-chip transfers of the step, animated, with running byte counters per lane (fused / unfused).
class TrafficDiagram : public DiagramWidget {
  Q_OBJECT
public:
  using DiagramWidget::DiagramWidget;
  QString describe() const override;
  /// Running totals of a lane at the current step [bytes]: {read, written}.
  QPair<double, double> laneTotals(const QString &lane) const;

protected:
  void paintEvent(QPaintEvent *event) override;
  void stepChanged() override;

private:
  QStringList m_lanes;
  double m_maxTotal = 1.0;
};

/// Online softmax tile by tile: the tile's scores, m_i, l_i and acc before → after, and the comparison with the
/// full softmax when the state gives it.
class OnlineSoftmaxDiagram : public DiagramWidget {
  Q_OBJECT
public:
  using DiagramWidget::DiagramWidget;
  QString describe() const override;
  /// Whether the state's `full` is given and acc / l (or acc) equals it within 1e-4 relative.
  bool matchesFull() const;
  /// The value vⱼ of each key of the current tile, from params `values` and `tile_size` (empty when absent).
  QList<double> tileValues() const;

protected:
  void paintEvent(QPaintEvent *event) override;
};

/// C tiles of a matmul computed in grouped order, with the A rows and B columns they load; the learner can change
/// GROUP_SIZE_M and the picture and the counts are recomputed.
class TileGridDiagram : public DiagramWidget {
  Q_OBJECT
public:
  using DiagramWidget::DiagramWidget;
  QString describe() const override;
  /// Overrides the state's group_size_m (0 = use the state's).
  void setGroupSizeM(int groupSizeM);
  /// Group size in use.
  int groupSizeM() const;
  /// Tiles computed at this step, in order: (column, row).
  QList<QPoint> computedTiles() const;
  /// {A tile loads, B tile loads} for the computed tiles.
  QPair<int, int> loads() const;
  /// Grid size {rows (grid_m), columns (grid_n)}.
  QPair<int, int> gridSize() const;
  /// Tiles along K.
  int kTiles() const;

protected:
  void paintEvent(QPaintEvent *event) override;

private:
  int m_groupOverride = 0;
};

/// Stages in a row with the active one highlighted and its artifact below.
class PipelineDiagram : public DiagramWidget {
  Q_OBJECT
public:
  using DiagramWidget::DiagramWidget;
  QString describe() const override;

protected:
  void paintEvent(QPaintEvent *event) override;
};

/// A name → value table; values changed since the previous step are highlighted.
class TableDiagram : public DiagramWidget {
  Q_OBJECT
public:
  using DiagramWidget::DiagramWidget;
  QString describe() const override;

protected:
  void paintEvent(QPaintEvent *event) override;
};

} // namespace tkm::app
