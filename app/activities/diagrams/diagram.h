#pragma once
// The animated pictures of step-through activities (docs/content-format.md, step-through table): traffic,
// online-softmax, tile-grid, pipeline, table. A diagram gets every step's state up front (so counters and bars can
// be scaled to the whole sequence), shows one step, and animates from the previous step with progress 0 → 1.

#include <nlohmann/json.hpp>

#include <QString>
#include <QWidget>

#include <memory>

namespace tkm::course {
enum class Diagram;
}

namespace tkm::app {

/// Base of every diagram widget.
class DiagramWidget : public QWidget {
  Q_OBJECT
public:
  explicit DiagramWidget(QWidget *parent = nullptr);

  /// All steps' states (a JSON array of `state` objects) and the activity's `params` object.
  void setSteps(const nlohmann::json &params, const nlohmann::json &states);
  /// Shows step `index` [0-based]; the animation starts from the previous state (progress 0).
  void setCurrent(int index);
  /// Animation progress [0, 1] from the previous step's picture to this one's.
  void setProgress(double t);
  /// Current step [0-based].
  int current() const { return m_current; }
  /// The figures the picture shows, as text (for tests and screen readers).
  virtual QString describe() const = 0;

protected:
  /// Called after setSteps / setCurrent (compute what paintEvent needs).
  virtual void stepChanged() {}
  /// The current state (empty object when none).
  const nlohmann::json &state() const;
  /// The previous step's state (null when at the first step).
  const nlohmann::json *previousState() const;
  /// Params of the activity.
  const nlohmann::json &params() const { return m_params; }
  /// Every state.
  const nlohmann::json &states() const { return m_states; }
  /// Animation progress [0, 1].
  double progress() const { return m_progress; }
  /// Eased progress [0, 1].
  double eased() const;
  /// Paints the background and returns the content rectangle.
  QRectF beginPaint(QPainter &painter) const;
  /// Accent colours of the diagrams.
  QColor accent() const;
  /// Second accent (B tiles, writes).
  QColor accent2() const;
  /// Muted line colour.
  QColor muted() const;
  /// Fill for boxes.
  QColor boxFill() const;

private:
  nlohmann::json m_params = nlohmann::json::object();
  nlohmann::json m_states = nlohmann::json::array();
  int m_current = 0;
  double m_progress = 1.0;
};

/// Creates the widget for a diagram kind.
DiagramWidget *createDiagram(course::Diagram kind, QWidget *parent = nullptr);

/// Number from a JSON value (number or numeric string), `fallback` otherwise.
double jsonNumber(const nlohmann::json &value, double fallback = 0.0);
/// The field of an object as a number (fallback when absent).
double jsonField(const nlohmann::json &object, const char *key, double fallback = 0.0);
/// Text of a JSON value (strings as they are, numbers compactly).
QString jsonText(const nlohmann::json &value);

/// Grouped program order of Triton's matmul tutorial: the (row, column) of C computed by program `pid`.
QPoint groupedTile(int pid, int gridM, int gridN, int groupSizeM);
/// A and B tile loads for computing the first `count` programs in grouped order, with `kTiles` tiles along K:
/// distinct rows × kTiles and distinct columns × kTiles (Triton matmul tutorial: 9×9, 9 programs: 90 vs 54).
QPair<int, int> groupedLoads(int count, int gridM, int gridN, int groupSizeM, int kTiles);

} // namespace tkm::app
