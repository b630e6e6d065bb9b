#include "app/progress/progresscontroller.h"

#include "app/activities/activityview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/quizview.h"
#include "app/common/paths.h"
#include "app/common/format.h"
#include "app/common/shell.h"
#include "app/editor/kerneleditor.h"
#include "app/progress/dashboardwidget.h"
#include "app/progress/reportexporter.h"
#include "app/progress/runhistory.h"
#include "app/progress/sqlitestatestore.h"
#include "app/results/resultsview.h"

#include "engine/report/figures.h"

#include <QAction>
#include <QDate>
#include <QDir>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QJsonArray>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>

#include "modules/course/model.h"
#include "modules/progress/course_outline.h"

namespace tkm::app {
namespace {

constexpr int kTimeSampleMs = 15000; // how often the open activity's time span is extended
const QString kDashboardPage = QStringLiteral("progress-dashboard");

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// A stored run's report in the results view; the empty state when the run was kept without one.
void showStoredReport(ResultsView* results, const progress::KernelRun& run)
{
    if (run.report)
        results->showReport(*run.report);
    else
        results->clear();
}

} // namespace

ProgressController::ProgressController(Shell* window, const QString& databasePath) : QObject(window), m_window(window)
{
    m_db = openProgressDatabase(databasePath.isEmpty() ? defaultDatabasePath() : databasePath);
    setCodeDir(codeDirForDatabase(m_db.requestedPath));

    m_dashboard = new DashboardWidget;
    m_dashboard->setObjectName(QStringLiteral("ProgressDashboard"));
    m_history = new RunHistoryWidget;
    m_historyDock = new QDockWidget(tr("Run history"));
    m_historyDock->setObjectName(QStringLiteral("RunHistoryDock"));
    m_historyDock->setWidget(m_history);
    m_window->addFeatureDock(m_historyDock, Qt::BottomDockWidgetArea);
    m_window->tabifyDockWidget(m_window->resultsDock(), m_historyDock);
    m_window->resultsDock()->raise();
    m_window->addPage(kDashboardPage, tr("Progress &dashboard"), m_dashboard);
    buildMenus();

    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setSingleShot(true);
    m_refreshTimer->setInterval(250);
    connect(m_refreshTimer, &QTimer::timeout, this, [this] {
        refreshDashboard();
        m_history->refresh();
    });
    m_timeTimer = new QTimer(this);
    m_timeTimer->setInterval(kTimeSampleMs);
    connect(m_timeTimer, &QTimer::timeout, this, &ProgressController::sampleTime);
    m_timeTimer->start();
    connect(qGuiApp, &QGuiApplication::applicationStateChanged, this, &ProgressController::sampleTime);
    m_window->installEventFilter(this);
    m_dashboard->installEventFilter(this);

    connect(m_dashboard, &DashboardWidget::activityRequested, this,
            [this](const QString& m, const QString& a, const QString& question) {
                if (!m_window->openActivity(m, a) || question.isEmpty())
                    return;
                if (auto* quiz = qobject_cast<QuizView*>(m_window->currentView()))
                    // The view lays itself out when shown: scroll once that happened.
                    QTimer::singleShot(0, quiz, [quiz, question] { quiz->showQuestion(question); });
            });
    connect(m_dashboard, &DashboardWidget::exportRequested, this, &ProgressController::exportWithDialog);
    connect(m_history, &RunHistoryWidget::restoreRequested, this, &ProgressController::onRestoreRequested);
    connect(m_history, &RunHistoryWidget::compareRequested, this, &ProgressController::onCompareRequested);
    connect(m_history, &RunHistoryWidget::showReportRequested, this, [this](const progress::KernelRun& run) {
        m_window->results()->clearComparisons();
        showStoredReport(m_window->results(), run);
        m_window->resultsDock()->show();
        m_window->resultsDock()->raise();
    });
    connect(m_window, &Shell::activityOpened, this, &ProgressController::onActivityOpened);

    if (!m_db.store) {
        m_dashboard->setEnabled(false);
        return;
    }
    m_states = new SqliteStateStore(m_db.store);
    connect(m_states, &ActivityStateStore::recorded, m_refreshTimer, qOverload<>(&QTimer::start));
    connect(m_states, &ActivityStateStore::stateChanged, m_refreshTimer, qOverload<>(&QTimer::start));
    connect(m_states, &SqliteStateStore::writeFailed, this, &ProgressController::onWriteFailed);
    m_window->setStateStore(m_states); // takes ownership; reopens the open activity with the new store
    refreshDashboard();
}

ProgressController::~ProgressController()
{
    if (m_spanId != 0 && m_db.store)
        m_db.store->extendTimeSpan(m_spanId);
}

void ProgressController::buildMenus()
{
    QMenu* file = m_window->menu(MenuId::File);
    QAction* quit = nullptr;
    for (QAction* a : file->actions())
        if (a->shortcut() == QKeySequence(QKeySequence::Quit))
            quit = a;
    auto* exportAction = new QAction(tr("&Export progress report…"), file);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportAction->setToolTip(tr("Write your progress as a PDF or HTML report, or every attempt as CSV or JSON."));
    connect(exportAction, &QAction::triggered, this, &ProgressController::exportWithDialog);
    auto* nameAction = new QAction(tr("&Learner name…"), file);
    connect(nameAction, &QAction::triggered, this, [this] {
        bool ok = false;
        const QString name =
            QInputDialog::getText(m_window, tr("Learner name"), tr("Your name, as exported progress reports show it:"),
                                  QLineEdit::Normal, learnerName(), &ok);
        if (ok)
            QSettings().setValue(QLatin1String(kLearnerNameKey), name.trimmed());
    });
    file->insertActions(quit, {exportAction, nameAction});
    file->insertSeparator(quit);

    QMenu* activity = m_window->menu(MenuId::Activity);
    activity->addSeparator();
    activity->addAction(tr("Reset &progress of this activity…"), this, [this] { resetActivityProgress(); });
    activity->addAction(tr("Reset progress of this &module…"), this, [this] { resetModuleProgress(); });
    activity->addAction(tr("Reset &all progress…"), this, [this] { resetAllProgress(); });

    for (QAction* a : m_window->menu(MenuId::View)->actions())
        if (a->text() == tr("Progress &dashboard"))
            a->setShortcut(QKeySequence(Qt::Key_F9));
    m_historyDock->toggleViewAction()->setText(tr("Run &history"));
}

std::vector<progress::ModuleOutline> ProgressController::outline() const
{
    return m_window->course() ? progress::outlineOf(*m_window->course()) : std::vector<progress::ModuleOutline>{};
}

QString ProgressController::activityTitle(const QString& moduleId, const QString& activityId) const
{
    if (const course::Course* c = m_window->course())
        for (const course::Module& m : c->modules)
            if (qs(m.id) == moduleId) {
                if (activityId.isEmpty())
                    return qs(m.title);
                for (const course::Activity& a : m.activities)
                    if (qs(a.id) == activityId)
                        return qs(a.title);
            }
    return activityId.isEmpty() ? moduleId : activityId;
}

QString ProgressController::learnerName()
{
    return QSettings().value(QLatin1String(kLearnerNameKey)).toString();
}

void ProgressController::resume()
{
    if (m_db.store) {
        auto position = m_db.store->position();
        if (position && position->has_value() &&
            m_window->openActivity(qs((*position)->where.moduleId), qs((*position)->where.activityId)))
            return;
    }
    m_window->openActivity(0, 0);
}

QString ProgressController::showOpenNotice()
{
    if (m_db.notice.isEmpty())
        return {};
    auto* box = new QMessageBox(m_db.sessionOnly || !m_db.store ? QMessageBox::Warning : QMessageBox::Information,
                                tr("Your progress database"), m_db.notice, QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    return m_db.notice;
}

void ProgressController::onActivityOpened(const QString& moduleId, const QString& activityId)
{
    m_openModule = moduleId;
    m_openActivity = activityId;
    auto* exercise = qobject_cast<ExerciseView*>(m_window->currentView());
    m_history->setExercise(m_db.store, exercise ? moduleId : QString(), exercise ? activityId : QString(),
                           activityTitle(moduleId, activityId));
    if (!exercise) // runs happen in exercises only: no dock of them elsewhere
        m_historyDock->hide();
    if (!m_db.store)
        return;
    if (auto placed = m_db.store->setPosition({moduleId.toStdString(), activityId.toStdString()}); !placed)
        onWriteFailed(qs(placed.error().message));
    if (exercise) {
        // "Compare with the solution" measures the solution on this device: keep its figures for the dashboard.
        connect(exercise, &ActivityView::comparisonReport, this,
                [this, moduleId, activityId](const QString&, const report::RunReport& report) {
                    if (report.verdict != report::Verdict::Pass || !report.timing || !m_states)
                        return;
                    m_states->setValue(moduleId, activityId, QLatin1String(kSolutionMedianKey),
                                       report.timing->medianMs);
                    if (report.traffic && report.traffic->dramReadBytes && report.traffic->storedBytes)
                        m_states->setValue(moduleId, activityId, QLatin1String(kSolutionBytesKey),
                                           report::bytesMoved(*report.traffic));
                    m_refreshTimer->start();
                });
    }
    sampleTime();
}

void ProgressController::sampleTime()
{
    if (!m_db.store)
        return;
    ActivityView* view = m_window->currentView();
    const bool shown = view && m_window->isVisible() && !m_window->isMinimized() && view->parentWidget() &&
                       view->parentWidget()->isVisible();
    const QString module = shown ? m_openModule : QString();
    const QString activity = shown ? m_openActivity : QString();
    const bool active = shown && QGuiApplication::applicationState() == Qt::ApplicationActive;
    if (m_spanId != 0) {
        auto extended = m_db.store->extendTimeSpan(m_spanId);
        if (!extended && extended.error().kind != progress::ErrorKind::NotFound) // NotFound: its activity was reset
            onWriteFailed(qs(extended.error().message));
        if (!extended)
            m_spanId = 0;
    }
    const bool changed = module != m_spanModule || activity != m_spanActivity;
    m_spanModule = module;
    m_spanActivity = activity;
    if (changed)
        m_spanId = 0;
    if (!active && !changed) {
        m_spanId = 0; // time while the app is in the background does not count
        return;
    }
    if (m_spanId == 0 && !module.isEmpty()) {
        // A new activity always gets a span (it was opened), even when the app is not active right now.
        auto span = m_db.store->beginTimeSpan({module.toStdString(), activity.toStdString()});
        if (!span)
            onWriteFailed(qs(span.error().message));
        m_spanId = span && active ? *span : 0;
    }
}

bool ProgressController::eventFilter(QObject* watched, QEvent* event)
{
    const QEvent::Type type = event->type();
    if ((watched == m_window &&
         (type == QEvent::ActivationChange || type == QEvent::WindowStateChange || type == QEvent::Close)) ||
        (watched == m_dashboard && (type == QEvent::Show || type == QEvent::Hide)))
        QTimer::singleShot(0, this, &ProgressController::sampleTime);
    if (watched == m_window && type == QEvent::Close)
        sampleTime();
    return QObject::eventFilter(watched, event);
}

void ProgressController::refreshDashboard()
{
    if (!m_db.store)
        return;
    m_dashboard->refresh(*m_db.store, outline(), learnerName());
    const auto position = m_db.store->position();
    if (position && position->has_value()) {
        const QString m = qs((*position)->where.moduleId), a = qs((*position)->where.activityId);
        m_dashboard->setContinue(activityTitle(m, a), m, a);
    } else {
        m_dashboard->setContinue({}, {}, {});
    }
}

bool ProgressController::exportReport(const QString& path, QPageSize::PageSizeId page, QString* error)
{
    if (!m_db.store) {
        if (error)
            *error = m_db.notice;
        return false;
    }
    return exportProgressFile(*m_db.store, outline(), learnerName(), path, page, error);
}

void ProgressController::exportWithDialog()
{
    const QString a4 = tr("PDF report, A4 (*.pdf)");
    const QString letter = tr("PDF report, US Letter (*.pdf)");
    const QString html = tr("HTML report (*.html)");
    const QString csv = tr("CSV, every attempt (*.csv)");
    const QString json = tr("JSON, every attempt with run sources (*.json)");
    const QLocale::Territory territory = QLocale().territory();
    QString filter = territory == QLocale::UnitedStates || territory == QLocale::Canada ? letter : a4;
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString suggested =
        QDir(folder).filePath(QStringLiteral("tkm-progress-%1.pdf").arg(QDate::currentDate().toString(Qt::ISODate)));
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export progress report"), suggested,
                                     QStringList{a4, letter, html, csv, json}.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter == html ? QStringLiteral(".html")
                               : (filter == csv ? QStringLiteral(".csv")
                                                : (filter == json ? QStringLiteral(".json") : QStringLiteral(".pdf")));
    QString error;
    if (exportReport(path, filter == letter ? QPageSize::Letter : QPageSize::A4, &error))
        m_window->statusBar()->showMessage(tr("Progress written to %1.").arg(QDir::toNativeSeparators(path)), 8000);
    else
        QMessageBox::warning(m_window, tr("Export progress report"), error);
}

bool ProgressController::reopenCurrent()
{
    return !m_openModule.isEmpty() && m_window->openActivity(m_openModule, m_openActivity);
}

bool ProgressController::resetActivityProgress()
{
    if (!m_states || m_openModule.isEmpty())
        return false;
    if (!m_window->confirm(tr("Reset your progress in “%1”? Its answers, kernel runs (with their sources), hints "
                              "seen and time spent are deleted from your progress database; your code file stays. "
                              "This cannot be undone.")
                               .arg(activityTitle(m_openModule, m_openActivity))))
        return false;
    m_spanId = 0;
    m_states->resetActivity(m_openModule, m_openActivity);
    reopenCurrent();
    refreshDashboard();
    return true;
}

bool ProgressController::resetModuleProgress()
{
    if (!m_states || m_openModule.isEmpty())
        return false;
    if (!m_window->confirm(tr("Reset your progress in every activity of the module “%1”? Answers, kernel runs, "
                              "hints seen and time spent are deleted from your progress database; your code files "
                              "stay. This cannot be undone.")
                               .arg(activityTitle(m_openModule, {}))))
        return false;
    m_spanId = 0;
    const bool done = m_states->resetModule(m_openModule);
    reopenCurrent();
    refreshDashboard();
    return done;
}

bool ProgressController::resetAllProgress()
{
    if (!m_states)
        return false;
    if (!m_window->confirm(tr("Reset all your progress? Every answer, kernel run, hint seen and minute recorded in "
                              "%1 is deleted; your code files stay. This cannot be undone — export a report first "
                              "to keep a copy.")
                               .arg(QDir::toNativeSeparators(m_db.path))))
        return false;
    m_spanId = 0;
    const bool done = m_states->resetModule({});
    reopenCurrent();
    refreshDashboard();
    return done;
}

void ProgressController::onRestoreRequested(const progress::KernelRun& run)
{
    auto* exercise = qobject_cast<ExerciseView*>(m_window->currentView());
    if (!exercise || exercise->moduleId() != m_history->moduleId() || exercise->activityId() != m_history->activityId())
        return;
    if (!m_window->confirm(tr("Replace the code in the editor with the kernel you ran on %1 (%2)? Undo in the "
                              "editor brings your current code back.")
                               .arg(formatRunTime(run.atMs), verdictWord(run.verdict))))
        return;
    exercise->editor()->replaceAllText(qs(run.source));
    if (run.meta.is_object())
        for (const auto& [name, value] : run.meta.items())
            if (value.is_number_integer())
                exercise->setMetaValue(qs(name), value.get<qint64>());
    exercise->saveNow();
    m_window->statusBar()->showMessage(
        tr("Restored the kernel of %1; Undo (Ctrl+Z) in the editor brings yours back.").arg(formatRunTime(run.atMs)),
        8000);
}

void ProgressController::onCompareRequested(const progress::KernelRun& older, const progress::KernelRun& newer)
{
    ResultsView* results = m_window->results();
    results->clearComparisons();
    showStoredReport(results, older);
    if (newer.report)
        results->setComparison(tr("Run of %1").arg(formatRunTime(newer.atMs)), *newer.report);
    m_window->resultsDock()->show();
    m_window->resultsDock()->raise();
    auto* dialog = new RunComparisonDialog(older, newer, m_window);
    dialog->setObjectName(QStringLiteral("RunComparisonDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void ProgressController::onWriteFailed(const QString& sentence)
{
    m_window->statusBar()->showMessage(sentence, 10000);
    if (m_writeErrorShown)
        return;
    m_writeErrorShown = true;
    auto* box =
        new QMessageBox(QMessageBox::Warning, tr("Your progress was not saved"), sentence, QMessageBox::Ok, m_window);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace tkm::app
