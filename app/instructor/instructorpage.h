#pragma once
// The instructor page: the centre of the window in instructor mode. One module is edited at a time: its metadata
// and activity list on the left, the selected activity's editor in the middle, a live preview (the learner's view,
// built from the edited content) on the right, and the problems the loader finds below. Every change is an undo
// step; course::validate runs on the edited module in memory shortly after each change (nothing is written) and
// its diagnostics are marked on the fields they concern.

#include "modules/course/loader.h"
#include "modules/course/model.h"

#include <QPointer>
#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;
class QStackedWidget;
class QTimer;
class QToolButton;
class QUndoStack;

namespace tkm::app {

class ActivityEditor;
class ActivityView;
class ItemListPanel;

/// One problem of the edited module, located on a field.
struct FieldProblem {
  int activity = -1;      ///< index of the activity (-1: module.json; an exercise's spec problems: its activity)
  QString pointer;        ///< JSON pointer in the activity's file; lessons: "/title", "/minutes", "/markdown/<line>"
  QString message;        ///< the rule's sentence (course::validate, or the exercise folder's loader)
  QString location;       ///< the file that holds the field, relative to the module folder ("lessons/a.md:7")
  bool error = true;      ///< Error (blocks saving) or Warning
};

/// The module editor page.
class InstructorPage : public QWidget {
  Q_OBJECT
public:
  explicit InstructorPage(QWidget *parent = nullptr);
  ~InstructorPage() override;

  /// Starts editing `module` (a copy is kept) and shows activity `activity` [0-based]. `origin` is a line shown
  /// above the editor ("Built-in module: saving copies it into your pack"). Clears the undo history.
  void openModule(const course::Module &module, int activity, const QString &origin);
  /// Whether a module is open.
  bool hasModule() const { return m_hasModule; }
  /// The edited module (with every change so far).
  const course::Module &module() const { return m_module; }
  /// The module as opened or last saved.
  const course::Module &savedModule() const { return m_saved; }
  /// Shows activity `index` [0-based] of the edited module.
  void selectActivity(int index);
  /// The activity shown [0-based], or -1.
  int currentActivity() const { return m_current; }
  /// Whether the edited module differs from the saved one.
  bool isModified() const;
  /// Marks the edited module as saved (after the caller wrote it).
  void markSaved(const course::Module &saved);

  /// The undo history of this editing session.
  QUndoStack *undoStack() const { return m_undo; }
  /// Runs course::validate on the edited module now, in memory (normally a short timer after each change); returns
  /// the problems. Exercise folders are read as they are on disk (their spec is edited in the exercise editor).
  const QList<FieldProblem> &validateNow();
  /// The problems found by the last validation.
  const QList<FieldProblem> &problems() const { return m_problems; }
  /// Whether the last validation found an error.
  bool hasErrors() const;

  /// The editor of the shown activity (nullptr when none).
  ActivityEditor *editor() const { return m_editor; }
  /// The learner's view of the shown activity, built from the edited content (nullptr before the first valid state).
  ActivityView *preview() const { return m_preview; }
  /// The widget that shows a module field ("/title", "/id", …; module.json pointers), or nullptr.
  QWidget *moduleFieldWidget(const QString &pointer) const;
  /// The activity title editor.
  QLineEdit *activityTitleEdit() const { return m_activityTitle; }
  /// The activity id editor.
  QLineEdit *activityIdEdit() const { return m_activityId; }
  /// The module title editor.
  QLineEdit *moduleTitleEdit() const { return m_title; }
  /// The activity list.
  ItemListPanel *activityList() const { return m_activities; }

  /// Adds a new activity of `kind` after the shown one, with a small valid starting content; shows it.
  void addActivity(course::ActivityKind kind);
  /// Adds an exercise activity that uses a copy of the exercise folder `exerciseFolder` (holds exercise.json);
  /// the copy goes into the module's `exercises/` on save. Returns false when the folder has no exercise.json.
  bool addExerciseActivity(const QString &exerciseFolder);
  /// Where "New exercise…" copies its template from (a complete, passing exercise folder, e.g. the built-in
  /// vector add) and where new exercises wait until the module is saved into a pack (a folder per exercise id).
  void setExerciseTemplate(const QString &templateFolder, const QString &draftsDir);
  /// Creates a new exercise `id` (lower-case letters, digits and dashes) from the template, with its spec's id and
  /// title set, and adds it after the current activity. False with `error` set (a bad or taken id, no template,
  /// a copy that failed); nothing is added then.
  bool addNewExercise(const QString &id, const QString &title, QString *error);
  /// Removes activity `index` (an undo step; asks nothing).
  void removeActivity(int index);
  /// Moves activity `index` by `delta` places.
  void moveActivity(int index, int delta);

  /// A new module's starting content: one lesson page, ready to be edited.
  static course::Module newModuleTemplate(const std::string &id, const std::string &title, int order);
  /// A small valid content for a new activity of `kind` (not for exercises).
  static course::Activity newActivity(course::ActivityKind kind, const std::string &id);

  /// Applies a module state from the undo history (reloads every widget).
  void applyState(const course::Module &module, int activity);

signals:
  /// Whether there are unsaved changes changed.
  void modifiedChanged(bool modified);
  /// Save was pressed.
  void saveRequested();
  /// "Edit exercise…" was pressed (absolute exercise folder).
  void editExerciseRequested(const QString &exerciseDir);
  /// A status-bar line.
  void statusMessage(const QString &text);
  /// The shown activity changed.
  void activityShown(int index);

private:
  void buildModulePanel(QWidget *panel);
  void loadModuleFields();
  void refreshActivityList();
  void showEditor();
  void commit(const course::Module &next, int activity, const QString &field, const QString &description,
              bool reload);
  void onEditorEdited(const QString &field, const QString &description);
  void onModuleFieldEdited(const QString &field, const QString &description);
  void onActivityHeaderEdited(const QString &field, const QString &description);
  void scheduleValidation();
  void refreshDerivedContent();
  void applyProblemMarks();
  void rebuildPreview(const course::Module &valid);
  void revealProblem(int row);
  static void setErrorMark(QWidget *widget, const QString &message);

  course::Module m_module;
  QString m_exerciseTemplate; ///< see setExerciseTemplate
  QString m_draftsDir;        ///< see setExerciseTemplate
  course::Module m_saved;
  bool m_hasModule = false;
  int m_current = -1;
  QUndoStack *m_undo = nullptr;
  QList<FieldProblem> m_problems;
  QList<QPointer<QWidget>> m_marked;
  QTimer *m_validateTimer = nullptr;

  // Module panel.
  QLabel *m_origin = nullptr;
  QLineEdit *m_id = nullptr;
  QLineEdit *m_title = nullptr;
  QPlainTextEdit *m_summary = nullptr;
  QSpinBox *m_order = nullptr;
  QSpinBox *m_minutes = nullptr;
  QLineEdit *m_prerequisites = nullptr;
  ItemListPanel *m_activities = nullptr;
  bool m_loadingFields = false;

  // Activity editor.
  QLabel *m_kindLabel = nullptr;
  QLineEdit *m_activityId = nullptr;
  QLineEdit *m_activityTitle = nullptr;
  QWidget *m_editorHost = nullptr;
  ActivityEditor *m_editor = nullptr;

  // Preview and problems.
  QWidget *m_previewHost = nullptr;
  QLabel *m_previewNote = nullptr;
  ActivityView *m_preview = nullptr;
  std::unique_ptr<course::Module> m_previewModule;
  QListWidget *m_problemList = nullptr;
};

} // namespace tkm::app
