#pragma once
// Instructor mode: the base of the per-kind activity editors (one <kind>editor.h per kind, as app/activities has
// one view per kind) and the pieces they share. An editor shows one activity's content as a form, keeps its own
// copy of the payload while the instructor types, and hands it back through store(). It never validates: the
// instructor page runs course::validate on the edited module and marks the fields the diagnostics name
// (fieldWidget). JSON pointers are those of the activity's file in docs/content-format.md
// ("/questions/1/choices/0/text"). activitykinds.h lists the kinds and their editors.

#include "modules/course/model.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QToolButton;
class QHBoxLayout;

namespace tkm::app {

/// A list of sub-items (questions, panes, steps) with Add, Remove, Move up and Move down buttons.
class ItemListPanel : public QWidget {
  Q_OBJECT
public:
  /// `noun` names one item in tool tips ("question").
  ItemListPanel(const QString &noun, QWidget *parent = nullptr);
  /// Replaces the rows; keeps `current` [0-based] selected (clamped).
  void setItems(const QStringList &labels, int current);
  /// Renames one row.
  void setLabel(int row, const QString &label);
  /// The selected row, or -1.
  int currentRow() const;
  /// Selects a row (emits currentChanged).
  void setCurrentRow(int row);
  /// The list widget.
  QListWidget *list() const { return m_list; }
  /// Whether the item that pointer `tokens` ({"questions", "2", …}) names is the selected row; with `reveal`,
  /// selects it first.
  bool holds(const QStringList &tokens, bool reveal);

signals:
  /// Add was pressed.
  void addRequested();
  /// Remove was pressed on `row`.
  void removeRequested(int row);
  /// Move up (delta −1) or down (+1) was pressed on `row`.
  void moveRequested(int row, int delta);
  /// The selected row changed (-1 for none).
  void currentChanged(int row);

private:
  void updateButtons();
  QListWidget *m_list = nullptr;
  QToolButton *m_remove = nullptr;
  QToolButton *m_up = nullptr;
  QToolButton *m_down = nullptr;
};

/// Base of the per-kind editors.
class ActivityEditor : public QWidget {
  Q_OBJECT
public:
  explicit ActivityEditor(QWidget *parent = nullptr);

  /// Shows `activity` (of this editor's kind); emits nothing.
  void load(const course::Activity &activity);
  /// Writes the edited payload into `activity` (title and id are the page's business).
  virtual void store(course::Activity &activity) const = 0;
  /// The widget that shows the field at `pointer` of the activity's file, or nullptr when it is not shown now.
  /// With `reveal`, first selects the sub-item (question, pane, step, …) that holds it.
  virtual QWidget *fieldWidget(const QString &pointer, bool reveal) = 0;

signals:
  /// The instructor changed `field` (a key for merging undo steps, e.g. "q3/prompt"); store() has the new content.
  void edited(const QString &field, const QString &description);
  /// Another sub-item is shown: the page re-applies the error marks.
  void itemShown();

protected:
  /// Fills the widgets from `activity` (signals of this editor are blocked meanwhile).
  virtual void doLoad(const course::Activity &activity) = 0;
  /// Emits edited() unless the editor is loading.
  void notify(const QString &field, const QString &description);
  /// Calls notify(field, description) whenever the widget's value changes.
  void watch(QLineEdit *edit, const QString &field, const QString &description);
  void watch(QPlainTextEdit *edit, const QString &field, const QString &description); ///< see above
  void watch(QSpinBox *spin, const QString &field, const QString &description);      ///< see above
  void watch(QCheckBox *check, const QString &field, const QString &description);    ///< see above
  void watch(QComboBox *combo, const QString &field, const QString &description);    ///< see above
  /// Whether load() is running.
  bool loading() const { return m_loading; }

private:
  bool m_loading = false;
};

/// A plain-text editor for Markdown or code: monospace, tab = 4 spaces, sized for `lines` visible lines.
QPlainTextEdit *makeTextEdit(QWidget *parent, int lines, bool monospace);
/// A combo box of the listing languages (python, cuda, cpp, text, shell).
QComboBox *makeLanguageCombo(QWidget *parent);
/// Splits a JSON pointer into its tokens ("/questions/1/text" → {"questions", "1", "text"}).
QStringList pointerTokens(const QString &pointer);
/// A new activity: `kind`, `id`, `title` and its content.
course::Activity makeActivity(course::ActivityKind kind, const std::string &id, const std::string &title,
                              course::ActivityPayload payload);
/// A table with `headers`, whole rows selected one at a time, rows sized for one line of text.
QTableWidget *makeTable(QWidget *parent, const QStringList &headers);
/// A row of Add `noun` / Remove / Move up / Move down buttons for a table (the buttons are returned through the
/// pointers).
QHBoxLayout *tableButtons(QWidget *parent, const QString &noun, QPushButton **add, QPushButton **remove,
                          QPushButton **up, QPushButton **down);
/// The text of cell (`row`, `column`) [0-based], empty when the cell has no item.
QString cellText(const QTableWidget *table, int row, int column);

} // namespace tkm::app
