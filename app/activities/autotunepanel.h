#pragma once
// The autotune table of a coding exercise whose spec has an `autotune` block (docs/exercise-spec.md,
// "Autotuning"): one row per configuration, one column per meta-parameter (a combo box of its allowed values),
// at least `min_configs` rows, pre-filled with configurations spread over the allowed values; and the
// reset_to_zero declaration, one checkbox per output buffer, as @triton.autotune(reset_to_zero=[…]) takes it.
// When "Autotune on Run" is checked, Run sends the rows as the job's `configs`.

#include <QList>
#include <QPair>
#include <QStringList>
#include <QWidget>

#include <memory>

class QCheckBox;
class QGroupBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace tkm::problem {
struct ExerciseSpec;
}

namespace tkm::app {

/// One configuration: meta-parameter values in spec order.
using MetaConfig = QList<QPair<QString, qint64>>;

/// The configuration table and reset_to_zero declaration of an autotune exercise.
class AutotunePanel : public QWidget {
  Q_OBJECT
public:
  /// Builds the table for `spec` (which must have an autotune block) with the default rows.
  explicit AutotunePanel(std::shared_ptr<const problem::ExerciseSpec> spec, QWidget *parent = nullptr);

  /// Whether Run tunes (sends the configurations) rather than running one set of meta-parameters.
  bool tuningEnabled() const;
  /// Turns tuning on Run on or off.
  void setTuningEnabled(bool on);
  /// The rows, in order.
  QList<MetaConfig> configs() const;
  /// Replaces the rows (values that are not allowed fall back to the column's default); pads with default
  /// rows up to min_configs.
  void setConfigs(const QList<MetaConfig> &configs);
  /// Appends a row (the next default configuration); returns its index.
  int addConfig();
  /// Removes row `row`; false when that would leave fewer than min_configs rows.
  bool removeConfig(int row);
  /// Sets one cell; false when the row, the name or the value is not valid.
  bool setValue(int row, const QString &name, qint64 value);
  /// The declared reset_to_zero outputs (checked boxes), in parameter order.
  QStringList resetToZero() const;
  /// Checks exactly the outputs in `names`.
  void setResetToZero(const QStringList &names);
  /// The whole state (tuning switch, rows, declaration) as compact JSON text, for the activity store.
  QString saveState() const;
  /// Restores saveState() text; an empty or unreadable text leaves the defaults.
  void restoreState(const QString &text);
  /// Fewest rows.
  int minConfigs() const { return m_minConfigs; }
  /// The table (for tests).
  QTableWidget *table() const { return m_table; }
  /// The default configurations for `spec`: `count` rows spread evenly over each meta-parameter's allowed values
  /// (row i takes the value at (i+1)/(count+1) of the list), or the default where any value is allowed.
  static QList<MetaConfig> defaultConfigs(const problem::ExerciseSpec &spec, int count);

signals:
  /// Rows, values, the reset declaration or the tuning switch changed.
  void changed();

private:
  void setRow(int row, const MetaConfig &config);
  void updateButtons();

  std::shared_ptr<const problem::ExerciseSpec> m_spec;
  int m_minConfigs = 1;
  QGroupBox *m_group = nullptr;
  QTableWidget *m_table = nullptr;
  QPushButton *m_add = nullptr;
  QPushButton *m_remove = nullptr;
  QLabel *m_count = nullptr;
  QList<QPair<QString, QCheckBox *>> m_resets;
};

} // namespace tkm::app
