#pragma once
// The window in which an instructor edits one exercise folder of a pack (issue 7): the ExerciseEditor (spec form,
// kernel sources, its Save/Undo/Redo/Validate toolbar) with a File menu. Instructor mode opens it on "Edit exercise…"; saving reloads
// the course so the learner views and the preview use the new spec.

#include <QMainWindow>

#include <functional>

namespace tkm::app {

class ExerciseEditor;
class InstructorMode;

/// Top-level window around one ExerciseEditor.
class ExerciseWindow : public QMainWindow {
  Q_OBJECT
public:
  explicit ExerciseWindow(QWidget *parent = nullptr);

  /// Opens `exerciseDir` (a folder holding exercise.json); false with `error` set when it cannot be read.
  bool open(const QString &exerciseDir, QString *error);
  /// The editor.
  ExerciseEditor *editor() const { return m_editor; }
  /// Saves; on failure shows why (message box, or the message handler) and returns false.
  bool save();
  /// Replaces the message box that reports a failed save (tests).
  void setMessageHandler(std::function<void(const QString &title, const QString &text)> handler);

signals:
  /// The exercise was written to disk (forwarded from ExerciseEditor::saved).
  void saved(const QString &exerciseDir);

protected:
  void closeEvent(QCloseEvent *event) override;

private:
  void updateTitle();

  ExerciseEditor *m_editor = nullptr;
  std::function<void(const QString &, const QString &)> m_message;
};

/// Connects instructor mode's "Edit exercise…" to an ExerciseWindow: one window per folder (raised when already
/// open); a save reloads the course through `mode` (InstructorMode::reloadCourse). The windows are children of
/// the main window. Returns the function that finds the open window of a folder (nullptr when none; for tests).
std::function<ExerciseWindow *(const QString &exerciseDir)> connectExerciseWindows(InstructorMode *mode,
                                                                                   QWidget *mainWindow);

} // namespace tkm::app
