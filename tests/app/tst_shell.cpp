// The window as a learner meets it (issue 15 items 3, 5, 6, 9): the first start shows a welcome page and Next →
// alone walks module 1; the window fits a 1024×700 screen and a 1366×768 one at 150 % scaling on every activity
// kind; the results dock is hidden where no run happens; navigator, dashboard and report count the same for a
// scripted session; the theme setting is saved and every text role the views use meets WCAG AA in both themes.
#include "apptest.h"

#include "app/activities/activityview.h"
#include "app/activities/lessonview.h"
#include "app/activities/markdownview.h"
#include "app/activities/quizview.h"
#include "app/activities/stepthroughview.h"
#include "app/common/format.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/course/moduleoverview.h"
#include "app/progress/dashboardwidget.h"
#include "app/progress/progresscontroller.h"
#include "app/progress/reportdata.h"
#include "app/progress/sqlitestatestore.h"
#include "app/shell/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QStackedWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "modules/course/model.h"
#include "modules/progress/course_outline.h"

using namespace tkm;

namespace {

// 1366×768 at QT_SCALE_FACTOR=1.5 is 910×512 device-independent pixels; leave 40 for a title bar and a panel.
const QSize kSmallestScreen(1366 * 2 / 3, 768 * 2 / 3 - 40);

QString moduleCounts(const app::CourseNavigator* tree, int module)
{
    const auto [done, total] = tree->moduleCounts(module);
    return QStringLiteral("%1/%2").arg(done).arg(total);
}

} // namespace

class TestShell : public QObject
{
    Q_OBJECT
private slots:
    void init()
    {
        tkm::apptest::initTestEnvironment();
        app::applyTheme(app::Theme::Light);
    }

    void firstStartWelcomesAndNextWalksModuleOne()
    {
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
        QVERIFY(window.showWelcomeOnFirstStart());
        QVERIFY(window.coursePage()->isVisible());
        const QString welcome = window.coursePage()->page()->toPlainText();
        QVERIFY2(welcome.contains(QStringLiteral("CPU interpreter")), qPrintable(welcome));
        QVERIFY(welcome.contains(QStringLiteral("Where to start")));
        QVERIFY(window.coursePage()->startButton()->isEnabled());
        QTest::mouseClick(window.coursePage()->startButton(), Qt::LeftButton);
        QVERIFY(window.currentView());
        QCOMPARE(window.navigator()->currentActivity(), qMakePair(0, 0));
        // Only Next → from here to the end of module 1.
        const int inModule = static_cast<int>(window.course()->modules[0].activities.size());
        for (int a = 1; a < inModule; ++a) {
            QPushButton* next = window.footer()->nextButton();
            QVERIFY(next->isVisible() && next->isEnabled());
            const QString expected = QString::fromStdString(window.course()->modules[0].activities[a].title);
            QVERIFY2(next->toolTip().contains(expected), qPrintable(next->toolTip()));
            QTest::mouseClick(next, Qt::LeftButton);
            QCOMPARE(window.navigator()->currentActivity(), qMakePair(0, a));
        }
        // Lessons passed with Next → count as read.
        const auto& m0 = window.course()->modules[0];
        for (const auto& a : m0.activities)
            if (a.kind == course::ActivityKind::Lesson)
                QCOMPARE(window.states()->state(QString::fromStdString(m0.id), QString::fromStdString(a.id)),
                         app::ActivityState::Done);
        // Not a first start any more.
        app::MainWindow again(QStringLiteral("/nonexistent/tkm-run"));
        QVERIFY(again.loadCourse(tkm::apptest::realContentDir()));
        QVERIFY(!again.showWelcomeOnFirstStart());
    }

    void moduleRowShowsItsOverview()
    {
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
        app::CourseNavigator* tree = window.navigator();
        QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualItemRect(tree->topLevelItem(1)).center());
        QTRY_VERIFY(window.coursePage()->isVisible());
        QCOMPARE(window.coursePage()->module(), 1);
        const QString text = window.coursePage()->page()->toPlainText();
        const auto& m1 = window.course()->modules[1];
        for (const auto& a : m1.activities)
            QVERIFY2(text.contains(QString::fromStdString(a.title)), a.title.c_str());
        QVERIFY2(text.contains(QStringLiteral("WHAT INTERVIEWERS PROBE"), Qt::CaseInsensitive), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("0 of %1 activities done").arg(m1.activities.size())));
        QVERIFY(window.resultsDock()->isHidden());
        QTest::mouseClick(window.coursePage()->startButton(), Qt::LeftButton);
        QCOMPARE(window.navigator()->currentActivity(), qMakePair(1, 0));
        // Every activity row: the kind's icon and the full title in the tooltip.
        QTreeWidgetItem* item = tree->activityItem(1, 0);
        QVERIFY(!item->icon(0).isNull() && !item->icon(1).isNull());
        QVERIFY(item->toolTip(0).startsWith(QString::fromStdString(m1.activities[0].title)));
    }

    void windowFitsSmallScreensOnEveryKind()
    {
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.resize(1024, 700);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
        QSet<int> kinds;
        const course::Course* c = window.course();
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
                const course::Activity& act = c->modules[m].activities[a];
                if (kinds.contains(static_cast<int>(act.kind)) && !app::MainWindow::showsResults(act))
                    continue;
                kinds.insert(static_cast<int>(act.kind));
                QVERIFY(window.openActivity(m, a));
                QCoreApplication::processEvents();
                if (app::MainWindow::showsResults(act))
                    window.resultsDock()->show(); // as after a run
                else
                    QVERIFY2(window.resultsDock()->isHidden(), act.title.c_str());
                QCoreApplication::processEvents();
                const QSize hint = window.minimumSizeHint().expandedTo(window.minimumSize());
                qInfo().noquote() << "minimum" << hint.width() << "x" << hint.height() << "for" << act.title.c_str()
                                  << "view" << window.currentView()->minimumSizeHint() << "footer"
                                  << window.footer()->minimumSizeHint() << "results dock"
                                  << window.resultsDock()->minimumSizeHint() << "status"
                                  << window.statusBar()->minimumSizeHint();
                QVERIFY2(hint.width() <= kSmallestScreen.width() && hint.height() <= kSmallestScreen.height(),
                         qPrintable(QStringLiteral("%1: minimum %2×%3").arg(QString::fromStdString(act.title))
                                        .arg(hint.width())
                                        .arg(hint.height())));
                QVERIFY2(window.height() <= 700, qPrintable(QString::number(window.height())));
            }
        QCOMPARE(kinds.size(), 7);
    }

    void savedGeometryIsClampedToTheScreen()
    {
        {
            app::MainWindow big(QStringLiteral("/nonexistent/tkm-run"));
            big.resize(5000, 4000);
            big.move(3000, 2000);
            big.close();
        }
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        const QRect avail = window.screen()->availableGeometry();
        QVERIFY2(window.width() <= avail.width() && window.height() <= avail.height(),
                 qPrintable(QStringLiteral("%1×%2 on %3×%4")
                                .arg(window.width())
                                .arg(window.height())
                                .arg(avail.width())
                                .arg(avail.height())));
        QVERIFY(avail.intersects(window.frameGeometry()));
    }

    void navigatorDashboardAndReportCountTheSame()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("progress.db"));
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.resize(1200, 800);
        window.show();
        QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
        auto* progress = new app::ProgressController(&window, db);
        QVERIFY(progress->states());
        const course::Course* c = window.course();
        // Module 1: the first lesson read through Next →, a quiz answered completely right where there is one.
        QVERIFY(window.openActivity(0, 0));
        QTest::mouseClick(window.footer()->nextButton(), Qt::LeftButton);
        int quizModule = -1;
        for (int m = 0; m < static_cast<int>(c->modules.size()) && quizModule < 0; ++m)
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a)
                if (const auto* quiz = c->modules[m].activities[a].as<course::Quiz>()) {
                    QVERIFY(window.openActivity(m, a));
                    auto* view = qobject_cast<app::QuizView*>(window.currentView());
                    QVERIFY(view);
                    for (int q = 0; q < static_cast<int>(quiz->questions.size()); ++q) {
                        QList<int> right;
                        for (int k = 0; k < static_cast<int>(quiz->questions[q].choices.size()); ++k)
                            if (quiz->questions[q].choices[k].correct)
                                right << k;
                        view->select(q, right);
                        QVERIFY(view->check(q));
                    }
                    quizModule = m;
                    break;
                }
        QVERIFY(quizModule >= 0);
        // A second lesson only opened: not read, so not counted.
        QVERIFY(window.openActivity(1, 0));
        progress->refreshDashboard();
        auto data = app::collectReportData(progress->states()->store(), progress::outlineOf(*c), {});
        QVERIFY(data);
        QTreeWidget* table = progress->dashboard()->modulesTable();
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m) {
            const QString nav = moduleCounts(window.navigator(), m);
            const auto& report = data->modules[m];
            const QString rep = QStringLiteral("%1/%2").arg(report.itemsDone).arg(report.itemsTotal);
            QVERIFY2(nav == rep, qPrintable(QStringLiteral("module %1: navigator %2, report %3").arg(m).arg(nav, rep)));
            QVERIFY2(window.navigator()->topLevelItem(m)->text(0).contains(QLatin1Char('(') + nav + QLatin1Char(')')),
                     qPrintable(window.navigator()->topLevelItem(m)->text(0)));
            QVERIFY2(table->topLevelItem(m)->text(1).contains(QLatin1Char('(') + nav + QLatin1Char(')')),
                     qPrintable(table->topLevelItem(m)->text(1)));
        }
        // "Continue where you left off" on the dashboard names the activity open last and opens it.
        QVERIFY(window.openActivity(0, 0));
        QVERIFY(window.openActivity(1, 0));
        progress->refreshDashboard();
        QPushButton* resume = progress->dashboard()->continueButton();
        QVERIFY(!resume->isHidden());
        QVERIFY2(resume->text().contains(QString::fromStdString(c->modules[1].activities[0].title)),
                 qPrintable(resume->text()));
        QVERIFY(window.openActivity(0, 0));
        resume->click();
        QCOMPARE(window.navigator()->currentActivity(), qMakePair(1, 0));
        QVERIFY(data->modules[0].itemsDone >= 1);
        QVERIFY(data->modules[quizModule].itemsDone >= 1);
    }

    void stepThroughOffersPlayAgainAndFormulasAreTypeset()
    {
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        window.show();
        QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
        const course::Course* c = window.course();
        bool steps = false, maths = false;
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
                const course::Activity& act = c->modules[m].activities[a];
                if (!steps && act.kind == course::ActivityKind::StepThrough) {
                    QVERIFY(window.openActivity(m, a));
                    auto* view = qobject_cast<app::StepThroughView*>(window.currentView());
                    QVERIFY(view && view->goTo(view->stepCount() - 1));
                    QStringList labels;
                    for (QPushButton* b : view->findChildren<QPushButton*>())
                        labels << b->text();
                    QVERIFY2(labels.join(QLatin1Char('|')).contains(QStringLiteral("Play &again")),
                             qPrintable(labels.join(QLatin1Char('|'))));
                    steps = true;
                }
                const auto* lesson = act.as<course::Lesson>();
                if (!maths && lesson && lesson->markdown.find("```math") != std::string::npos) {
                    QVERIFY(window.openActivity(m, a));
                    auto* view = qobject_cast<app::LessonView*>(window.currentView());
                    QVERIFY(view);
                    // A fraction is a table of the document, set in a serif face, not a monospace code box.
                    bool serifFormula = false;
                    for (QTextBlock b = view->page()->document()->begin(); b.isValid(); b = b.next())
                        for (auto it = b.begin(); !it.atEnd(); ++it)
                            if (it.fragment().text().contains(QStringLiteral("exp")) &&
                                it.fragment().charFormat().fontFamilies().toStringList().contains(
                                    QStringLiteral("DejaVu Serif")))
                                serifFormula = true;
                    QVERIFY(serifFormula);
                    maths = true;
                }
            }
        QVERIFY(steps && maths);
    }

    void themeIsSavedAndAppliedFromTheMenu()
    {
        app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
        auto* dark = window.findChild<QAction*>(QStringLiteral("theme-dark"));
        QVERIFY(dark);
        dark->trigger();
        QCOMPARE(app::savedTheme(), app::Theme::Dark);
        QVERIFY(app::isDarkPalette(QApplication::palette()));
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        window.findChild<QAction*>(QStringLiteral("theme-light"))->trigger();
        QCOMPARE(QSettings().value(QLatin1String(app::kThemeKey)).toString(), QStringLiteral("light"));
        QVERIFY(!app::isDarkPalette(QApplication::palette()));
    }

    void textRolesMeetWcagAaInBothThemes_data()
    {
        QTest::addColumn<QPalette>("palette");
        QTest::newRow("light") << app::lightPalette();
        QTest::newRow("dark") << app::darkPalette();
        // A system palette with faint secondary text, as some desktop themes ship: made readable.
        QPalette faint = app::darkPalette();
        faint.setColor(QPalette::PlaceholderText, QColor(0x45, 0x48, 0x4d));
        faint.setColor(QPalette::Link, QColor(0x00, 0x00, 0xff));
        app::makeReadable(faint);
        QTest::newRow("faint system, made readable") << faint;
    }

    void textRolesMeetWcagAaInBothThemes()
    {
        QFETCH(QPalette, palette);
        using R = QPalette::ColorRole;
        // Text role → the backgrounds it is drawn on in the views (labels on Window, pages on Base, …).
        const QList<QPair<R, R>> pairs{{R::WindowText, R::Window},       {R::Text, R::Base},
                                       {R::Text, R::AlternateBase},      {R::ButtonText, R::Button},
                                       {R::HighlightedText, R::Highlight}, {R::ToolTipText, R::ToolTipBase},
                                       {R::PlaceholderText, R::Window},  {R::PlaceholderText, R::Base},
                                       {R::Link, R::Base},               {R::Link, R::Window},
                                       {R::LinkVisited, R::Base}};
        for (const auto& [fg, bg] : pairs) {
            const double ratio = app::contrastRatio(palette.color(fg), palette.color(bg));
            QVERIFY2(ratio >= app::kMinTextContrast,
                     qPrintable(QStringLiteral("role %1 on %2: %3:1").arg(fg).arg(bg).arg(ratio, 0, 'f', 2)));
        }
        // Verdict words on the page and white on the verdict banners.
        using tkm::report::Verdict;
        for (Verdict verdict : {Verdict::Pass, Verdict::Fail, Verdict::Fault, Verdict::Compiled, Verdict::CompileError,
                                Verdict::Timeout, Verdict::Error}) {
            const QString v = app::verdictWord(verdict);
            const double onBase = app::contrastRatio(app::verdictColor(verdict, palette), palette.color(R::Base));
            const double onWindow = app::contrastRatio(app::verdictColor(verdict, palette), palette.color(R::Window));
            QVERIFY2(std::min(onBase, onWindow) >= app::kMinTextContrast,
                     qPrintable(QStringLiteral("%1 text: %2:1").arg(v).arg(std::min(onBase, onWindow), 0, 'f', 2)));
            const double banner = app::contrastRatio(Qt::white, app::verdictBannerColor(verdict));
            QVERIFY2(banner >= app::kMinTextContrast,
                     qPrintable(QStringLiteral("%1 banner: %2:1").arg(v).arg(banner, 0, 'f', 2)));
        }
        // The formula: black on white is 21:1, a colour on itself 1:1.
        QCOMPARE(app::contrastRatio(Qt::black, Qt::white), 21.0);
        QCOMPARE(app::contrastRatio(Qt::red, Qt::red), 1.0);
    }
};

QTEST_MAIN(TestShell)
#include "tst_shell.moc"
