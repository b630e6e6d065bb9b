#pragma once
// The result of "Validate" in the exercise editor, from `tkm-run validate --json` (docs/packs.md): a line on the GPU
// (its name, or why the GPU verdicts need one), the verdict table (solution, each bug variant, starter, reference:
// compiles, expected, got, result) and the messages (spec error, compile and verdict problems, weak-case warnings).
// Clicking a message asks the editor to focus the field (JSON pointer) or the source line it concerns.

#include <QJsonObject>
#include <QWidget>

class QLabel;
class QListWidget;
class QListWidgetItem;
class QTableWidget;

namespace tkm::app {

/// Verdict table and messages of one validated exercise.
class VerdictView : public QWidget {
  Q_OBJECT
public:
  explicit VerdictView(QWidget *parent = nullptr);

  /// Shows the first exercise of a `tkm-run validate --json` document.
  void setResult(const QJsonObject &document);
  /// Shows that a validation is running, with its latest progress line.
  void setRunning(const QString &progress);
  /// Shows a sentence instead of a result (the engine could not be started, …).
  void setFailure(const QString &message);

  /// The status line above the table.
  QString statusText() const;
  /// The table (rows: sources; columns: source, compiles, expected, got, result).
  QTableWidget *table() const { return m_table; }
  /// The messages list (errors first, then warnings).
  QListWidget *messages() const { return m_messages; }

signals:
  /// A message about a spec field was clicked: focus the field at `pointer`.
  void pointerActivated(const QString &pointer);
  /// A compile message was clicked: show `file` (spec-relative) at `line`, `column` [1-based].
  void sourceActivated(const QString &file, int line, int column);

private:
  void addMessage(const QString &severity, const QString &text, const QString &pointer, const QString &file = {},
                  int line = 0, int column = 0);
  void onItemActivated(QListWidgetItem *item);
  void fitTable();

  QLabel *m_status = nullptr;
  QTableWidget *m_table = nullptr;
  QListWidget *m_messages = nullptr;
};

} // namespace tkm::app
