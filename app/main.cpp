// Triton Kernel Mastery: the desktop app's entry point. Everything lives in tkm_gui (app/*).
#include "app/common/paths.h"
#include "app/common/theme.h"
#include "app/instructor/exercisewindow.h"
#include "app/instructor/instructormode.h"
#include "app/progress/progresscontroller.h"
#include "app/progress/reportexporter.h"
#include "app/shell/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstring>

#include "modules/course/loader.h"
#include "modules/progress/course_outline.h"

namespace {

/// `tkm --export-report FILE`: writes the report without a window; returns the exit code.
int exportReport(const QCommandLineParser& parser, const QString& file, const QString& contentRoot,
                 const QString& database, const QString& pageName, const QString& learnerOption)
{
    const auto fail = [](const QString& sentence) {
        std::fprintf(stderr, "tkm: %s\n", sentence.toLocal8Bit().constData());
        return 1;
    };
    tkm::app::ExportReportCommand command;
    command.file = file;
    command.databasePath = database.isEmpty() ? tkm::app::defaultDatabasePath() : database;
    command.learnerName = parser.isSet(learnerOption)
                              ? parser.value(learnerOption)
                              : QSettings().value(QLatin1String(tkm::app::kLearnerNameKey)).toString();
    if (!pageName.isEmpty()) {
        const auto page = tkm::app::parsePageSize(pageName);
        if (!page)
            return fail(QStringLiteral("Unknown page size \"%1\": use a4 or letter.").arg(pageName));
        command.page = *page;
    }
    tkm::course::CourseLoadResult course = tkm::course::loadCourse(contentRoot.toStdString());
    if (!course.course)
        return fail(QStringLiteral("The course in %1 could not be loaded, so the report cannot name its modules: start "
                                   "the app to see the problems, or give another folder with --content.")
                        .arg(contentRoot));
    return tkm::app::runExportReportCommand(command, tkm::progress::outlineOf(*course.course));
}

} // namespace

int main(int argc, char* argv[])
{
    // Exporting and the help and version texts show no window: let them run where no display is.
    for (int i = 1; i < argc; ++i)
        for (const char* windowless : {"--export-report", "--help", "-h", "--help-all", "--version", "-v"})
            if (std::strcmp(argv[i], windowless) == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
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
    QCommandLineOption db(QStringLiteral("db"),
                          QStringLiteral("Progress database (default: progress.db in the app-data folder); one per "
                                         "learner."),
                          QStringLiteral("file"));
    QCommandLineOption exportFile(QStringLiteral("export-report"),
                                  QStringLiteral("Write the progress report and exit without a window: .pdf, .html, "
                                                 ".csv or .json (by the file's suffix)."),
                                  QStringLiteral("file"));
    QCommandLineOption page(QStringLiteral("page"),
                            QStringLiteral("PDF page size for --export-report: a4 (default) or letter."),
                            QStringLiteral("size"));
    QCommandLineOption learner(QStringLiteral("learner"),
                               QStringLiteral("Learner name on the report (default: File → Learner name)."),
                               QStringLiteral("name"));
    parser.addOptions({content, db, exportFile, page, learner});
    parser.process(app);
    const QString root = parser.isSet(content) ? parser.value(content) : tkm::app::contentDir();

    if (parser.isSet(exportFile))
        return exportReport(parser, parser.value(exportFile), root, parser.value(db), parser.value(page),
                            learner.names().first());

    tkm::app::applyTheme(tkm::app::savedTheme());
    tkm::app::MainWindow window;
    window.show();
    // Instructor mode also makes the window load the course with the installed packs applied.
    auto* instructor = new tkm::app::InstructorMode(&window, root);
    tkm::app::connectExerciseWindows(instructor, &window);
    const bool loaded = window.loadCourse(root);
    auto* progress = new tkm::app::ProgressController(&window, parser.value(db));
    if (loaded) {
        if (!window.showWelcomeOnFirstStart())
            progress->resume();
        instructor->restoreFromSettings();
    }
    progress->showOpenNotice();
    QTimer::singleShot(0, &window, &tkm::app::MainWindow::queryDevices);
    return QApplication::exec();
}
