#include "app/instructor/exercisewindow.h"

#include "app/instructor/exercise/exerciseeditor.h"
#include "app/instructor/instructormode.h"

#include <QAction>
#include <QCloseEvent>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QUndoStack>

#include <memory>

namespace tkm::app {

ExerciseWindow::ExerciseWindow(QWidget *parent) : QMainWindow(parent)
{
  setWindowFlag(Qt::Window);
  setAttribute(Qt::WA_DeleteOnClose);
  m_editor = new ExerciseEditor(this);
  setCentralWidget(m_editor);
  resize(1300, 860);

  QMenu *file = menuBar()->addMenu(tr("&File"));
  QAction *saveAction = file->addAction(tr("&Save exercise"), this, [this] { save(); });
  saveAction->setShortcut(QKeySequence::Save);
  QAction *validate = file->addAction(tr("&Validate"), m_editor, &ExerciseEditor::validate);
  validate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  validate->setToolTip(tr("Compile every source and, with a GPU, run the solution, the bug variants and the starter."));
  file->addSeparator();
  QAction *close = file->addAction(tr("&Close"), this, &QWidget::close);
  close->setShortcut(QKeySequence::Close);

  QMenu *edit = menuBar()->addMenu(tr("&Edit"));
  QAction *undo = m_editor->undoStack()->createUndoAction(this, tr("&Undo"));
  undo->setShortcut(QKeySequence::Undo);
  QAction *redo = m_editor->undoStack()->createRedoAction(this, tr("&Redo"));
  redo->setShortcut(QKeySequence::Redo);
  edit->addAction(undo);
  edit->addAction(redo);

  connect(m_editor, &ExerciseEditor::modifiedChanged, this, [this](bool modified) {
    setWindowModified(modified);
    updateTitle();
  });
}

bool ExerciseWindow::open(const QString &exerciseDir, QString *error)
{
  if (!m_editor->load(exerciseDir, error))
    return false;
  setWindowModified(false);
  updateTitle();
  return true;
}

void ExerciseWindow::updateTitle()
{
  // "[*]" is where Qt puts the modified mark.
  setWindowTitle(tr("Exercise %1[*] — %2").arg(QFileInfo(m_editor->folder()).fileName(),
                                                QDir::toNativeSeparators(m_editor->folder())));
}

bool ExerciseWindow::save()
{
  QString error;
  if (!m_editor->save(&error)) {
    const QString title = tr("The exercise was not saved");
    const QString text = tr("%1\n\nYour edits are still here; fix the problem and save again.").arg(error);
    if (m_message)
      m_message(title, text);
    else
      QMessageBox::warning(this, title, text);
    return false;
  }
  setWindowModified(false);
  emit saved(m_editor->folder());
  return true;
}

void ExerciseWindow::setMessageHandler(std::function<void(const QString &, const QString &)> handler)
{
  m_message = std::move(handler);
}

void ExerciseWindow::closeEvent(QCloseEvent *event)
{
  const bool wasModified = m_editor->isModified();
  if (!m_editor->maybeSave()) {
    event->ignore();
    return;
  }
  // maybeSave() saved (or the learner discarded): a save must reach the course as well.
  if (wasModified && !m_editor->isModified())
    emit saved(m_editor->folder());
  event->accept();
}

std::function<ExerciseWindow *(const QString &)> connectExerciseWindows(InstructorMode *mode, QWidget *mainWindow)
{
  auto windows = std::make_shared<QHash<QString, QPointer<ExerciseWindow>>>();
  QObject::connect(mode, &InstructorMode::editExerciseRequested, mainWindow,
                   [mode, mainWindow, windows](const QString &dir) {
                     const QString key = QDir::cleanPath(dir);
                     if (ExerciseWindow *open = windows->value(key)) {
                       open->show();
                       open->raise();
                       open->activateWindow();
                       return;
                     }
                     auto *window = new ExerciseWindow(mainWindow);
                     QString error;
                     if (!window->open(key, &error)) {
                       delete window;
                       QMessageBox::warning(mainWindow, QObject::tr("The exercise cannot be opened"),
                                            QObject::tr("%1\n\nFix exercise.json by hand or restore the module, then "
                                                        "try again.")
                                                .arg(error));
                       return;
                     }
                     QObject::connect(window, &ExerciseWindow::saved, mode, [mode] { mode->reloadCourse(); });
                     windows->insert(key, window);
                     window->show();
                   });
  return [windows](const QString &dir) -> ExerciseWindow * { return windows->value(QDir::cleanPath(dir)); };
}

} // namespace tkm::app
