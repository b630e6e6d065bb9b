// Triton Kernel Mastery: the desktop app's entry point. Everything lives in tkm_gui (app/*).
#include "app/instructor/instructormode.h"
#include "app/shell/mainwindow.h"
#include "app/shell/paths.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

int main(int argc, char *argv[])
{
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("tkm"));
  QApplication::setApplicationName(QStringLiteral("triton-kernel-mastery"));
  QApplication::setApplicationDisplayName(QStringLiteral("Triton Kernel Mastery"));
  QApplication::setApplicationVersion(QStringLiteral("0.1.0"));
  QApplication::setDesktopFileName(QStringLiteral("tkm"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("A trainer for GPU-kernel interviews (Triton and CUDA)."));
  parser.addHelpOption();
  parser.addVersionOption();
  QCommandLineOption content(QStringLiteral("content"), QStringLiteral("Content folder (default: TKM_CONTENT_DIR)."),
                             QStringLiteral("folder"));
  parser.addOption(content);
  parser.process(app);

  tkm::app::MainWindow window;
  window.show();
  const QString root = parser.isSet(content) ? parser.value(content) : tkm::app::contentDir();
  // Instructor mode also makes the window load the course with the installed packs applied.
  auto *instructor = new tkm::app::InstructorMode(&window, root);
  if (window.loadCourse(root)) {
    window.openLastActivity();
    instructor->restoreFromSettings();
  }
  QTimer::singleShot(0, &window, &tkm::app::MainWindow::queryDevices);
  return QApplication::exec();
}
