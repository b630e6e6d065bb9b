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

#include <memory>

namespace tkm::app {

ExerciseWindow::ExerciseWindow(QWidget *parent) : QMainWindow(parent)
{
  setWindowFlag(Qt::Window);
  setAttribute(Qt::WA_DeleteOnClose);
  m_editor = new ExerciseEditor(this);
  setCentralWidget(m_editor);
  resize(1300, 860);

  // Save, Undo and Redo (with their shortcuts) are the editor's own toolbar actions; the menu adds the rest.
  QMenu *file = menuBar()->addMenu(tr("&File"));
  QAction *validate = file->addAction(tr("&Validate"), m_editor, &ExerciseEditor::validate);
  validate->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  validate->setToolTip(tr("Compile every source and, with a GPU, run the solution, the bug variants and the starter."));
  file->addSeparator();
  QAction *close = file->addAction(tr("&Close"), this, &QWidget::close);
  close->setShortcut(QKeySequence::Close);

  connect(m_editor, &ExerciseEditor::modifiedChanged, this, [this](bool modified) {
    setWindowModified(modified);
    updateTitle();
  });
  connect(m_editor, &ExerciseEditor::saved, this, &ExerciseWindow::saved);
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
  if (m_editor->save(&error))
    return true; // the editor emits saved(), which this window forwards
  const QString title = tr("The exercise was not saved");
  const QString text = tr("%1\n\nYour edits are still here; fix the problem and save again.").arg(error);
  if (m_message)
    m_message(title, text);
  else
    QMessageBox::warning(this, title, text);
  return false;
}

void ExerciseWindow::setMessageHandler(std::function<void(const QString &, const QString &)> handler)
{
  m_message = std::move(handler);
}

void ExerciseWindow::closeEvent(QCloseEvent *event)
{
  if (m_editor->maybeSave())
    event->accept();
  else
    event->ignore();
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
