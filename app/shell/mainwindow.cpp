#include "app/shell/mainwindow.h"

#include "app/activities/activityview.h"
#include "app/activities/markdownview.h"
#include "app/common/paths.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/course/moduleoverview.h"
#include "app/engine/engineclient.h"
#include "app/results/resultsview.h"
#include "app/shell/statusarea.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

#include "modules/course/loader.h"
#include "modules/course/model.h"

void tkmInitResources(); // app/shell/resources.cpp

namespace tkm::app {

namespace {
constexpr char kWelcomeShownKey[] = "course/welcome_shown";
} // namespace

MainWindow::MainWindow(const QString& workerPath, QWidget* parent) : Shell(parent)
{
    tkmInitResources();
    setWindowTitle(tr("Triton Kernel Mastery"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/tkm.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    m_engine = new EngineClient(workerPath.isEmpty() ? app::workerPath() : workerPath, this);
    m_engine->setDeadlineMs(deadlineMsFromSettings());
    m_states = new ActivityStateStore(this);
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Please confirm"), question) == QMessageBox::Yes;
    };

    m_centre = new QStackedWidget(this);
    m_activityHost = new QWidget(m_centre);
    auto* hostLayout = new QVBoxLayout(m_activityHost);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    m_message = new QLabel(tr("Loading the course…"), m_activityHost);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    hostLayout->addWidget(m_message);
    // The view sits in a scroll area: a view's minimum size (a wide drag-match board, an editor beside a prompt)
    // scrolls instead of setting the window's, so the window fits a small screen on every activity kind.
    m_viewScroll = new QScrollArea(m_activityHost);
    m_viewScroll->setObjectName(QStringLiteral("activityScroll"));
    m_viewScroll->setWidgetResizable(true);
    m_viewScroll->setFrameShape(QFrame::NoFrame);
    m_viewScroll->hide();
    hostLayout->addWidget(m_viewScroll, 1);
    m_footer = new ActivityFooter(m_activityHost);
    m_footer->hide();
    hostLayout->addWidget(m_footer);
    connect(m_footer, &ActivityFooter::nextClicked, this, [this] {
        if (m_view)
            m_view->finishOnNext();
        goNext();
    });
    connect(m_footer, &ActivityFooter::previousClicked, this, [this] { goPrevious(); });
    m_centre->addWidget(m_activityHost);
    m_coursePage = new CoursePage(m_centre);
    m_centre->addWidget(m_coursePage);
    connect(m_coursePage, &CoursePage::activityRequested, this, [this](int m, int a) { openActivity(m, a); });
    setCentralWidget(m_centre);

    m_navigator = new CourseNavigator(this);
    m_navigatorDock = new QDockWidget(tr("Course"), this);
    m_navigatorDock->setObjectName(QStringLiteral("CourseDock"));
    m_navigatorDock->setWidget(m_navigator);
    m_navigatorDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    addDockWidget(Qt::LeftDockWidgetArea, m_navigatorDock);
    connect(m_navigator, &CourseNavigator::activityChosen, this, [this](int m, int a) { openActivity(m, a); });
    connect(m_navigator, &CourseNavigator::moduleChosen, this, [this](int m) { showModuleOverview(m); });

    m_results = new ResultsView(this);
    m_resultsDock = new QDockWidget(tr("Results"), this);
    m_resultsDock->setObjectName(QStringLiteral("ResultsDock"));
    m_resultsDock->setWidget(m_results);
    addDockWidget(Qt::BottomDockWidgetArea, m_resultsDock);
    m_resultsDock->hide(); // shown where runs happen, once a run starts
    // Whenever it opens, the dock takes at most two fifths of the height: the activity keeps the rest.
    connect(m_resultsDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && !m_resultsDock->isFloating())
            QTimer::singleShot(0, this, [this] {
                if (m_resultsDock->height() > height() * 2 / 5)
                    resizeDocks({m_resultsDock}, {height() * 2 / 5}, Qt::Vertical);
            });
    });
    connect(m_results, &ResultsView::cancelRequested, m_engine, &EngineClient::cancel);

    m_status = new StatusArea(this);
    statusBar()->addPermanentWidget(m_status);

    connect(m_engine, &EngineClient::started, this, &MainWindow::onJobStarted);
    connect(m_engine, &EngineClient::progress, this,
            [this](int id, const QString& stage, int index, int of, const QString& text) {
                if (!m_engine->isQuiet(id))
                    m_results->showProgress(stage, index, of, text);
            });
    connect(m_engine, &EngineClient::finished, this, &MainWindow::onJobFinished);
    connect(m_engine, &EngineClient::cancelled, this, [this](int id) {
        if (!m_engine->isQuiet(id)) {
            m_results->showCancelled();
            statusBar()->showMessage(tr("Run cancelled."), 4000);
        }
    });
    connect(m_engine, &EngineClient::busyChanged, this, [this] { updateActions(); });

    buildMenus();
    // First start: 1400×900 or 92 % of the screen, whichever is smaller; a saved geometry is clamped the same way.
    const QScreen* here = screen() ? screen() : QGuiApplication::primaryScreen();
    const QSize avail = here ? here->availableGeometry().size() : QSize(1400, 900);
    resize(QSize(1400, 900).boundedTo(QSize(avail.width() * 92 / 100, avail.height() * 92 / 100)));
    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(settings::kGeometry)).toByteArray());
    restoreState(settings.value(QLatin1String(settings::kWindowState)).toByteArray());
    m_resultsDock->hide(); // whatever the saved state says: no activity is open yet
    fitToScreen();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QMenu* navigate = menuBar()->addMenu(tr("&Navigate"));
    QMenu* activity = menuBar()->addMenu(tr("&Activity"));
    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    m_menus = {{MenuId::File, file},
               {MenuId::Navigate, navigate},
               {MenuId::Activity, activity},
               {MenuId::View, view},
               {MenuId::Help, help}};

    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    m_next = navigate->addAction(tr("&Next activity"), this, [this] { goNext(); });
    m_next->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_Right), QKeySequence(Qt::CTRL | Qt::Key_PageDown)});
    m_previous = navigate->addAction(tr("&Previous activity"), this, [this] { goPrevious(); });
    m_previous->setShortcuts({QKeySequence(Qt::ALT | Qt::Key_Left), QKeySequence(Qt::CTRL | Qt::Key_PageUp)});
    navigate->addSeparator();
    QAction* toCourse = navigate->addAction(tr("Go to the &course list"), this, [this] {
        m_navigatorDock->show();
        m_navigator->setFocus();
    });
    toCourse->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction* toActivity = navigate->addAction(tr("Go to the &activity"), this, [this] {
        if (!m_view)
            return;
        for (QWidget* w : m_view->findChildren<QWidget*>())
            if (w->isVisible() && w->isEnabled() && (w->focusPolicy() & Qt::TabFocus)) {
                w->setFocus(Qt::ShortcutFocusReason);
                return;
            }
    });
    toActivity->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    QAction* toResults = navigate->addAction(tr("Go to the &results"), this, [this] {
        m_resultsDock->show();
        m_results->tabs()->currentWidget()->setFocus();
    });
    toResults->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));

    m_run = activity->addAction(QIcon(QStringLiteral(":/icons/run.svg")), tr("&Run"), this, [this] {
        if (m_view && m_view->canRun())
            m_view->run();
    });
    m_run->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_cancel = activity->addAction(QIcon(QStringLiteral(":/icons/stop.svg")), tr("&Cancel run"), m_engine,
                                   &EngineClient::cancel);
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_reset = activity->addAction(tr("R&eset activity…"), this, [this] {
        if (m_view)
            m_view->reset();
    });
    m_reset->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_find = activity->addAction(tr("&Find…"), this, [this] {
        if (m_view && m_view->canFind())
            m_view->find();
    });
    m_find->setShortcut(QKeySequence::Find);

    QAction* toggleCourse = m_navigatorDock->toggleViewAction();
    toggleCourse->setText(tr("&Course list"));
    toggleCourse->setShortcut(QKeySequence(Qt::Key_F7));
    view->addAction(toggleCourse);
    QAction* toggleResults = m_resultsDock->toggleViewAction();
    toggleResults->setText(tr("&Results"));
    toggleResults->setShortcut(QKeySequence(Qt::Key_F8));
    view->addAction(toggleResults);
    buildThemeMenu(view);
    view->addSeparator();

    help->addAction(tr("&Welcome page"), this, &MainWindow::showWelcome);
    help->addAction(tr("&About Triton Kernel Mastery"), this, [this] {
        QMessageBox::about(
            this, tr("About Triton Kernel Mastery"),
            tr("<h3>Triton Kernel Mastery</h3><p>A trainer for GPU-kernel interviews: lessons, quizzes and "
               "coding exercises whose kernels run on your NVIDIA GPU, checked against a float64 "
               "reference and measured against the device's ceilings.</p>"));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::buildThemeMenu(QMenu* view)
{
    QMenu* themes = view->addMenu(tr("&Theme"));
    auto* group = new QActionGroup(themes);
    const Theme current = savedTheme();
    for (const auto& [theme, label] : {std::pair{Theme::System, tr("&System")}, std::pair{Theme::Light, tr("&Light")},
                                       std::pair{Theme::Dark, tr("&Dark")}}) {
        QAction* a = themes->addAction(label, this, [theme] { applyTheme(theme); });
        a->setCheckable(true);
        a->setChecked(theme == current);
        a->setObjectName(QStringLiteral("theme-") + themeKey(theme));
        group->addAction(a);
    }
}

void MainWindow::fitToScreen()
{
    const QScreen* here = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!here)
        return;
    const QRect avail = here->availableGeometry();
    // The title bar and borders sit outside geometry() (known once the window manager framed the window).
    const QSize frame = frameGeometry().size() - geometry().size();
    const QSize size = this->size().boundedTo(avail.size() - frame);
    if (size != this->size())
        resize(size);
    QRect g = frameGeometry();
    if (g.right() > avail.right())
        g.moveRight(avail.right());
    if (g.bottom() > avail.bottom())
        g.moveBottom(avail.bottom());
    if (g.left() < avail.left())
        g.moveLeft(avail.left());
    if (g.top() < avail.top())
        g.moveTop(avail.top());
    if (g.topLeft() != frameGeometry().topLeft())
        move(g.topLeft());
}

bool MainWindow::showsResults(const course::Activity& activity)
{
    if (activity.kind == course::ActivityKind::Exercise)
        return true;
    const auto* bug = activity.as<course::SpotTheBug>();
    return bug && bug->run.has_value();
}

void MainWindow::showCentrePage(QWidget* page)
{
    closeView(false);
    m_footer->hide();
    m_resultsDock->hide();
    m_resultsDock->toggleViewAction()->setEnabled(false);
    m_centre->setCurrentWidget(page);
    updateActions();
}

void MainWindow::showWelcome()
{
    if (!m_course)
        return;
    QSettings().setValue(QLatin1String(kWelcomeShownKey), true);
    m_coursePage->showWelcome(*m_course);
    showCentrePage(m_coursePage);
    setWindowTitle(tr("Welcome — %1").arg(qs(m_course->title)));
}

bool MainWindow::showWelcomeOnFirstStart()
{
    QSettings settings;
    if (!m_course || settings.value(QLatin1String(kWelcomeShownKey)).toBool() ||
        settings.contains(QLatin1String(settings::kLastActivity)))
        return false;
    showWelcome();
    return true;
}

bool MainWindow::showModuleOverview(int module)
{
    if (!m_course || module < 0 || module >= static_cast<int>(m_course->modules.size()))
        return false;
    m_coursePage->showModule(*m_course, module, m_states);
    showCentrePage(m_coursePage);
    m_navigator->selectModule(module);
    setWindowTitle(tr("%1 — %2").arg(qs(m_course->modules[module].title), qs(m_course->title)));
    return true;
}

void MainWindow::closeView(bool now)
{
    if (!m_view)
        return;
    m_view->saveWork();
    m_viewScroll->takeWidget();
    m_view->hide();
    if (now)
        delete m_view;
    else
        m_view->deleteLater();
    m_view = nullptr;
}

void MainWindow::updateFooter()
{
    const auto title = [this](QPair<int, int> at) {
        return at.first < 0 ? QString() : qs(m_course->modules[at.first].activities[at.second].title);
    };
    m_footer->setNeighbours(title(m_navigator->previousActivity()), title(m_navigator->nextActivity()));
    m_footer->show();
}

void MainWindow::updateActions()
{
    const bool busy =
        m_engine->isBusy() && m_engine->currentJobId() != 0 && !m_engine->isQuiet(m_engine->currentJobId());
    m_run->setEnabled(m_view && m_view->canRun());
    m_cancel->setEnabled(busy);
    m_reset->setEnabled(m_view != nullptr);
    m_find->setEnabled(m_view && m_view->canFind());
    m_next->setEnabled(m_course != nullptr);
    m_previous->setEnabled(m_course != nullptr);
}

bool MainWindow::loadCourse(const QString& contentRoot)
{
    course::CourseLoadResult result = m_loader ? m_loader(contentRoot) : course::loadCourse(contentRoot.toStdString());
    if (!result.course) {
        showCourseErrors(result.diagnostics, contentRoot);
        return false;
    }
    if (m_view) { // a reload: the open view points into the old course
        closeView(true);
        m_footer->hide();
        m_message->show();
    }
    m_course = std::make_unique<course::Course>(std::move(*result.course));
    m_navigator->setCourse(m_course.get(), m_states);
    m_message->setText(tr("Choose an activity in the course list (Ctrl+1)."));
    setWindowTitle(qs(m_course->title).isEmpty() ? tr("Triton Kernel Mastery") : qs(m_course->title));
    int warnings = 0;
    for (const course::Diagnostic& d : result.diagnostics)
        warnings += d.severity == course::Severity::Warning;
    if (warnings > 0)
        statusBar()->showMessage(tr("The course loaded with %n warning(s).", nullptr, warnings), 8000);
    updateActions();
    return true;
}

void MainWindow::showCourseErrors(const std::vector<course::Diagnostic>& diagnostics, const QString& root)
{
    QString text = tr("**The course in `%1` could not be loaded.** Fix these problems (or point TKM_CONTENT_DIR at a "
                      "valid content folder) and start the app again:\n\n")
                       .arg(root);
    int shown = 0;
    for (const course::Diagnostic& d : diagnostics) {
        if (d.severity != course::Severity::Error)
            continue;
        text += QStringLiteral("- `") + qs(d.format(root.toStdString())) + QStringLiteral("`\n");
        if (++shown == 40) {
            text += tr("- … and more.\n");
            break;
        }
    }
    auto* page = new MarkdownView(m_activityHost);
    page->setMarkdownText(text);
    m_message->hide();
    m_activityHost->layout()->addWidget(page);
}

bool MainWindow::openActivity(int module, int activity)
{
    if (!m_course || module < 0 || module >= static_cast<int>(m_course->modules.size()))
        return false;
    const course::Module& m = m_course->modules[module];
    if (activity < 0 || activity >= static_cast<int>(m.activities.size()))
        return false;
    closeView(false);
    ActivityContext context;
    context.engine = m_engine;
    context.states = m_states;
    context.module = &m;
    context.confirm = [this](const QString& question) { return m_confirm ? m_confirm(question) : true; };
    m_view = createActivityView(m.activities[activity], context, m_viewScroll->viewport());
    m_message->hide();
    m_viewScroll->setWidget(m_view);
    m_viewScroll->show();
    connect(m_view, &ActivityView::statusMessage, this,
            [this](const QString& text) { statusBar()->showMessage(text, 6000); });
    connect(m_view, &ActivityView::comparisonReport, m_results, &ResultsView::setComparison);
    // Results belong to runs of this activity: none shown elsewhere, and collapsed until the first run here.
    m_results->clear();
    m_results->clearComparisons();
    m_resultsDock->hide();
    m_resultsDock->toggleViewAction()->setEnabled(showsResults(m.activities[activity]));
    m_centre->setCurrentWidget(m_activityHost);
    m_navigator->selectActivity(module, activity);
    updateFooter();
    QSettings().setValue(QLatin1String(settings::kLastActivity),
                         QString(qs(m.id) + QLatin1Char('/') + qs(m.activities[activity].id)));
    setWindowTitle(tr("%1 — %2").arg(qs(m.activities[activity].title), qs(m_course->title)));
    updateActions();
    emit activityOpened(qs(m.id), qs(m.activities[activity].id));
    return true;
}

bool MainWindow::openActivity(const QString& moduleId, const QString& activityId)
{
    if (!m_course)
        return false;
    for (int m = 0; m < static_cast<int>(m_course->modules.size()); ++m) {
        if (qs(m_course->modules[m].id) != moduleId)
            continue;
        const auto& activities = m_course->modules[m].activities;
        for (int a = 0; a < static_cast<int>(activities.size()); ++a)
            if (qs(activities[a].id) == activityId)
                return openActivity(m, a);
    }
    return false;
}

void MainWindow::openLastActivity()
{
    const QStringList last =
        QSettings().value(QLatin1String(settings::kLastActivity)).toString().split(QLatin1Char('/'));
    if (last.size() == 2 && openActivity(last[0], last[1]))
        return;
    openActivity(0, 0);
}

bool MainWindow::goNext()
{
    const auto [m, a] = m_navigator->nextActivity();
    return m >= 0 && openActivity(m, a);
}

bool MainWindow::goPrevious()
{
    const auto [m, a] = m_navigator->previousActivity();
    return m >= 0 && openActivity(m, a);
}

void MainWindow::queryDevices()
{
    m_status->queryDevices(m_engine);
    // Warm the worker now (context, CUPTI set-up, ceilings), so that the learner's first Run is not the slow one.
    m_engine->warmUp();
}

void MainWindow::setStateStore(ActivityStateStore* store)
{
    if (!store || store == m_states)
        return;
    store->setParent(this);
    ActivityStateStore* old = m_states;
    m_states = store;
    m_navigator->setCourse(m_course.get(), m_states);
    delete old;
    const auto [m, a] = m_navigator->currentActivity();
    if (m >= 0)
        openActivity(m, a);
}

QMenu* MainWindow::menu(MenuId id) const
{
    return m_menus.value(id);
}

void MainWindow::addFeatureDock(QDockWidget* dock, Qt::DockWidgetArea area)
{
    dock->setParent(this);
    if (dock->objectName().isEmpty())
        dock->setObjectName(dock->windowTitle() + QStringLiteral("Dock"));
    addDockWidget(area, dock);
    menu(MenuId::View)->addAction(dock->toggleViewAction());
}

void MainWindow::addPage(const QString& id, const QString& title, QWidget* page)
{
    page->setParent(m_centre);
    m_centre->addWidget(page);
    m_pages.insert(id, page);
    menu(MenuId::View)->addAction(title, this, [this, id] { showPage(id); });
}

bool MainWindow::showPage(const QString& id)
{
    QWidget* page = m_pages.value(id);
    if (!page)
        return false;
    m_resultsDock->hide();
    m_centre->setCurrentWidget(page);
    return true;
}

void MainWindow::setCourseLoader(std::function<course::CourseLoadResult(const QString&)> loader)
{
    m_loader = std::move(loader);
}

void MainWindow::setConfirmHandler(std::function<bool(const QString&)> handler)
{
    m_confirm = std::move(handler);
}

bool MainWindow::confirm(const QString& question) const
{
    return !m_confirm || m_confirm(question);
}

void MainWindow::onJobStarted(int jobId, const QString& title)
{
    if (m_engine->isQuiet(jobId))
        return;
    m_results->showRunning(title);
    m_results->tabs()->setCurrentIndex(0); // a new run opens on Correctness
    m_resultsDock->show();
    m_resultsDock->raise();
    updateActions();
}

void MainWindow::onJobFinished(int jobId, const report::RunReport& report)
{
    if (m_engine->isQuiet(jobId))
        return;
    m_results->showReport(report);
    m_resultsDock->show();
    // The results say it; the status bar repeats a verdict only, never the no-GPU sentence the status area holds.
    const std::string kind = report.error ? report.error->kind : std::string();
    if (kind != "no-gpu" && kind != "no-driver")
        statusBar()->showMessage(QString::fromStdString(report.summary).section(QLatin1Char('\n'), 0, 0), 8000);
    updateActions();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    QSettings settings;
    settings.setValue(QLatin1String(settings::kGeometry), saveGeometry());
    settings.setValue(QLatin1String(settings::kWindowState), saveState());
    closeView(true); // let the view save its work (the exercise flushes the learner's code)
    event->accept();
}

} // namespace tkm::app
