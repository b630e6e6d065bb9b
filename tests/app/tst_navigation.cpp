// Navigating the course: every module and every activity opens (menus, shortcuts, the tree), states move from new
// to done, and the window remembers its layout and the last activity.
#include "apptest.h"

#include "app/activities/activityview.h"
#include "app/common/paths.h"
#include "app/course/coursenavigator.h"
#include "app/engine/engineclient.h"
#include "app/shell/mainwindow.h"
#include "app/shell/statusarea.h"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "modules/course/model.h"

using tkm::app::ActivityState;
using tkm::app::MainWindow;

class TestNavigation : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { tkm::apptest::initTestEnvironment(); }

    void realContentHasEightModules()
    {
        MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        QVERIFY2(window.loadCourse(tkm::apptest::realContentDir()),
                 "the built-in content does not load (see the warnings above)");
        QCOMPARE(static_cast<int>(window.course()->modules.size()), 8);
    }

    void navigateEveryActivity_data()
    {
        QTest::addColumn<QString>("root");
        const QStringList roots = tkm::apptest::loadableContentRoots();
        if (roots.isEmpty())
            QSKIP("no content root loads yet");
        for (const QString& root : roots)
            QTest::newRow(qPrintable(root)) << root;
    }

    void navigateEveryActivity()
    {
        QFETCH(QString, root);
        MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.setConfirmHandler([](const QString&) { return false; });
        window.resize(1300, 850);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.loadCourse(root));
        const tkm::course::Course* course = window.course();
        int total = 0;
        for (const auto& m : course->modules)
            total += static_cast<int>(m.activities.size());
        QVERIFY(window.openActivity(0, 0));
        int visited = 1;
        QSet<QString> kinds;
        QSet<int> modulesSeen{0};
        // Next activity by the menu action's shortcut (Alt+Right), through every module.
        while (true) {
            tkm::app::ActivityView* view = window.currentView();
            QVERIFY(view);
            kinds.insert(QString::fromStdString(std::string(tkm::course::activityKindName(view->activity().kind))));
            const auto before = window.navigator()->currentActivity();
            QTest::keyClick(&window, Qt::Key_Right, Qt::AltModifier);
            QCoreApplication::processEvents();
            const auto after = window.navigator()->currentActivity();
            if (after == before)
                break;
            modulesSeen.insert(after.first);
            ++visited;
            QVERIFY(visited <= total);
        }
        QCOMPARE(visited, total);
        QCOMPARE(static_cast<int>(modulesSeen.size()), static_cast<int>(course->modules.size()));
        // And back to the start with Previous.
        while (window.goPrevious()) {
        }
        QCOMPARE(window.navigator()->currentActivity(), qMakePair(0, 0));
        qInfo().noquote() << "visited" << visited << "activities in" << modulesSeen.size()
                          << "modules; kinds:" << QStringList(kinds.begin(), kinds.end()).join(QStringLiteral(", "));
    }

    void treeOpensActivitiesAndShowsStates()
    {
        const QStringList roots = tkm::apptest::loadableContentRoots();
        if (roots.isEmpty())
            QSKIP("no content root loads yet");
        MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        QVERIFY(window.loadCourse(roots.first()));
        tkm::app::CourseNavigator* tree = window.navigator();
        // Keyboard in the tree: Down moves onto the next row, which opens it.
        tree->setFocus();
        tree->setCurrentItem(tree->topLevelItem(0));
        tree->topLevelItem(0)->setExpanded(true);
        QTest::keyClick(tree, Qt::Key_Down);
        QTRY_VERIFY(window.currentView() != nullptr);
        QCOMPARE(window.navigator()->currentActivity(), qMakePair(0, 0));
        const QString moduleId = window.currentView()->moduleId();
        const QString activityId = window.currentView()->activityId();
        QVERIFY(window.states()->state(moduleId, activityId) != ActivityState::New);
        window.states()->setState(moduleId, activityId, ActivityState::Done);
        QVERIFY(tree->activityItem(0, 0)->toolTip(0).contains(QStringLiteral("done")));
        QVERIFY(tree->topLevelItem(0)->text(0).contains(QStringLiteral("(1/")));
    }

    void layoutAndLastActivityRemembered()
    {
        const QStringList roots = tkm::apptest::loadableContentRoots();
        if (roots.isEmpty())
            QSKIP("no content root loads yet");
        {
            MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
            window.show();
            QVERIFY(window.loadCourse(roots.first()));
            QVERIFY(window.openActivity(0, 1));
            window.resultsDock()->hide();
            window.close();
        }
        QVERIFY(QSettings().contains(QLatin1String(tkm::app::settings::kWindowState)));
        MainWindow again(QStringLiteral("/nonexistent/tkm-run"));
        again.show();
        QVERIFY(again.loadCourse(roots.first()));
        again.openLastActivity();
        QCOMPARE(again.navigator()->currentActivity(), qMakePair(0, 1));
        QVERIFY(again.resultsDock()->isHidden());
    }

    void menusAndShortcuts()
    {
        MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        QStringList shortcuts;
        for (QAction* menuAction : window.menuBar()->actions())
            for (QAction* a : menuAction->menu()->actions())
                if (!a->shortcut().isEmpty())
                    shortcuts << a->shortcut().toString();
        for (const char* expected : {"Ctrl+Return", "Alt+Right", "Alt+Left", "Ctrl+F", "Ctrl+Shift+R", "F8"})
            QVERIFY2(shortcuts.contains(QLatin1String(expected)), expected);
        // Extension points for later features.
        auto* dock = new QDockWidget(QStringLiteral("Dashboard"));
        window.addFeatureDock(dock, Qt::RightDockWidgetArea);
        QVERIFY(window.menu(tkm::app::MenuId::View)->actions().contains(dock->toggleViewAction()));
        auto* page = new QWidget;
        window.addPage(QStringLiteral("dashboard"), QStringLiteral("Dashboard"), page);
        QVERIFY(window.showPage(QStringLiteral("dashboard")));
    }

    void noGpuBanner()
    {
        MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        window.queryDevices();
        // The worker cannot start: the status area shows the no-GPU sentence.
        QTRY_VERIFY(window.statusArea()->text().contains(QStringLiteral("CPU interpreter")));
        // Plain words on the bar; the worker's raw reason only behind "details".
        QVERIFY(!window.statusArea()->text().contains(QStringLiteral("tkm-run")));
        QVERIFY(!window.statusArea()->gpu().message.isEmpty());
        QVERIFY(window.statusArea()->detailsLink()->isVisibleTo(window.statusArea()));
        tkm::app::GpuInfo gpu;
        gpu.present = true;
        gpu.name = QStringLiteral("NVIDIA H200");
        gpu.cc = QStringLiteral("9.0");
        gpu.memoryBytes = 150.0e9;
        window.statusArea()->showGpu(gpu);
        QVERIFY(window.statusArea()->text().contains(QStringLiteral("NVIDIA H200 · compute capability 9.0")));
        QVERIFY(window.statusArea()->text().contains(QStringLiteral("140 GiB")));
    }

    void warmUpIsSentAtStart()
    {
        // A fake worker that logs every request line and answers each with a report.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString log = dir.filePath(QStringLiteral("requests.log"));
        const QString worker = dir.filePath(QStringLiteral("worker.sh"));
        QFile f(worker);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("#!/bin/bash\n"
                               "while IFS= read -r line; do\n"
                               "  printf '%s\\n' \"$line\" >> '%1'\n"
                               "  id=$(printf '%s' \"$line\" | sed -E 's/.*\"id\":([0-9]+).*/\\1/')\n"
                               "  echo '{\"id\":'$id',\"type\":\"report\",\"report\":{\"verdict\":\"pass\"}}'\n"
                               "done\n")
                    .arg(log)
                    .toUtf8());
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);

        MainWindow window(worker);
        window.show();
        window.queryDevices(); // what main() does once the window is up
        auto requests = [&] {
            QFile in(log);
            return in.open(QIODevice::ReadOnly) ? QString::fromUtf8(in.readAll()) : QString();
        };
        // The warm-up goes to the worker at start, before any Run, and stays out of the results view.
        QTRY_VERIFY(requests().contains(QStringLiteral("\"op\":\"warm\"")));
        QVERIFY(!requests().contains(QStringLiteral("\"op\":\"run\"")));
        QTRY_VERIFY(!window.engine()->isBusy());
    }
};

QTEST_MAIN(TestNavigation)
#include "tst_navigation.moc"
