#pragma once
// Instructor mode: one editor per activity kind. An editor shows one activity's content as a form, keeps its own
// copy of the payload while the instructor types, and hands it back through store(). It never validates: the
// instructor page runs the loader on the edited module and marks the fields the diagnostics name (fieldWidget).
// JSON pointers are those of the activity's file in docs/content-format.md ("/questions/1/choices/0/text").

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

/// Creates the editor for `kind` (every kind; exercise shows the activity-level fields and "Edit exercise…").
ActivityEditor *createActivityEditor(course::ActivityKind kind, QWidget *parent = nullptr);

/// Lesson page: minutes, Markdown body, callout insertion.
class LessonEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit LessonEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The Markdown editor.
  QPlainTextEdit *markdownEdit() const { return m_markdown; }
  /// Inserts a callout of `kind` ("PROBE", …) at the cursor.
  void insertCallout(const QString &kind);

protected:
  void doLoad(const course::Activity &activity) override;

private:
  QSpinBox *m_minutes = nullptr;
  QPlainTextEdit *m_markdown = nullptr;
};

/// Quiz: questions (id, prompt, single/multiple, code, follow-up) and their choices (correct, text, explanation).
class QuizEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit QuizEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The question list.
  ItemListPanel *questions() const { return m_list; }
  /// The choices table of the shown question (columns: correct, text, explanation).
  QTableWidget *choices() const { return m_choices; }
  /// The prompt editor of the shown question.
  QPlainTextEdit *promptEdit() const { return m_prompt; }
  /// Adds a question (two empty choices) after the last one and shows it.
  void addQuestion();
  /// Adds an empty choice to the shown question.
  void addChoice();

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showQuestion(int index);
  void readForm();
  void readChoices();
  void refreshChoices();
  course::Quiz m_quiz;
  int m_current = -1;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_id = nullptr;
  QPlainTextEdit *m_prompt = nullptr;
  QCheckBox *m_multiple = nullptr;
  QPlainTextEdit *m_code = nullptr;
  QComboBox *m_language = nullptr;
  QTableWidget *m_choices = nullptr;
  QPlainTextEdit *m_followup = nullptr;
  QPlainTextEdit *m_followupAnswer = nullptr;
  QWidget *m_form = nullptr;
};

/// Code walkthrough: panes (label, language, code) with per-line notes.
class WalkthroughEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit WalkthroughEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The notes table of the shown pane (columns: line, note).
  QTableWidget *notes() const { return m_notes; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showPane(int index);
  void readForm();
  course::Walkthrough m_walkthrough;
  int m_current = -1;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_label = nullptr;
  QComboBox *m_language = nullptr;
  QPlainTextEdit *m_code = nullptr;
  QTableWidget *m_notes = nullptr;
  QWidget *m_form = nullptr;
};

class BugListingEdit;

/// Spot the bug: the listing (click the margin to mark faulty lines), why, fix, fixed listing.
class SpotTheBugEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit SpotTheBugEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// Marks or unmarks `line` [1-based] as faulty (as a click in the margin does).
  void toggleBugLine(int line);
  /// The faulty lines marked now [1-based, sorted].
  std::vector<int> bugLines() const;
  /// The listing editor.
  QWidget *listing() const;

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void updateBugLabel();
  std::optional<course::SpotTheBugRun> m_run;
  QComboBox *m_language = nullptr;
  BugListingEdit *m_code = nullptr;
  QLabel *m_bugLabel = nullptr;
  QPlainTextEdit *m_why = nullptr;
  QPlainTextEdit *m_fix = nullptr;
  QPlainTextEdit *m_fixed = nullptr;
  QLabel *m_runLabel = nullptr;
};

/// Drag-match: prompt, targets (id, text), items (id, text, target, explanation).
class DragMatchEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit DragMatchEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The targets table (id, text).
  QTableWidget *targets() const { return m_targets; }
  /// The items table (id, text, target, explanation).
  QTableWidget *items() const { return m_items; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void readTables();
  void fillItems();
  course::DragMatch m_match;
  QPlainTextEdit *m_prompt = nullptr;
  QTableWidget *m_targets = nullptr;
  QTableWidget *m_items = nullptr;
};

/// Step-through: diagram, parameters, steps (title, text, state as JSON).
class StepThroughEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit StepThroughEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;
  /// The step list.
  ItemListPanel *steps() const { return m_list; }
  /// The state editor of the shown step (JSON text).
  QPlainTextEdit *stateEdit() const { return m_state; }

protected:
  void doLoad(const course::Activity &activity) override;

private:
  void showStep(int index);
  void readForm();
  bool parseJsonInto(QPlainTextEdit *edit, nlohmann::json &out);
  course::StepThrough m_steps;
  int m_current = -1;
  QComboBox *m_diagram = nullptr;
  QPlainTextEdit *m_params = nullptr;
  QLabel *m_fieldsHint = nullptr;
  ItemListPanel *m_list = nullptr;
  QLineEdit *m_title = nullptr;
  QPlainTextEdit *m_text = nullptr;
  QPlainTextEdit *m_state = nullptr;
  QWidget *m_form = nullptr;
};

/// Exercise activity: what the module entry says; the spec itself is edited in the exercise editor.
class ExerciseActivityEditor : public ActivityEditor {
  Q_OBJECT
public:
  explicit ExerciseActivityEditor(QWidget *parent = nullptr);
  void store(course::Activity &activity) const override;
  QWidget *fieldWidget(const QString &pointer, bool reveal) override;

signals:
  /// "Edit exercise…" was pressed on the exercise folder (absolute path).
  void editExerciseRequested(const QString &exerciseDir);

protected:
  void doLoad(const course::Activity &activity) override;

private:
  QString m_folder;
  QLabel *m_summary = nullptr;
  QPushButton *m_edit = nullptr;
};

} // namespace tkm::app
