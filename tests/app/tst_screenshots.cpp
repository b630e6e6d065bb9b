// Saves a PNG of every activity kind and of the results view (light and dark palettes) to <build>/screenshots/,
// for a person to look at. Asserts only that each picture was written and is not blank.
#include "apptest.h"

#include "app/activities/dragmatchview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/activities/walkthroughview.h"
#include "app/common/theme.h"
#include "app/editor/kerneleditor.h"
#include "app/results/resultsview.h"
#include "app/shell/mainwindow.h"
#include "app/shell/statusarea.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QStyleFactory>
#include <QTabWidget>
#include <QJsonArray>
#include <QtTest>

#include "modules/course/model.h"

using namespace tkm;

namespace {

// Window size and name suffix of a run: TKM_SHOT_SIZE=1024x700 TKM_SHOT_SUFFIX=-1024 (with QT_SCALE_FACTOR=1.5 for
// a 150 % screen); 1400×900 and no suffix by default.
QSize shotSize()
{
  const QStringList wh = qEnvironmentVariable("TKM_SHOT_SIZE").split(QLatin1Char('x'));
  return wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1400, 900);
}
QString shotSuffix() { return qEnvironmentVariable("TKM_SHOT_SUFFIX"); }

std::optional<tkm::report::RunReport> loadReport(const QString &name)
{
  try {
    return tkm::apptest::loadTypedReport(name);
  } catch (const std::exception &e) {
    qWarning().noquote() << name << "is not a readable run report:" << e.what();
    return std::nullopt;
  }
}

} // namespace

class TestScreenshots : public QObject {
  Q_OBJECT
private:
  void save(QWidget *widget, const QString &name)
  {
    QCoreApplication::processEvents();
    const QImage image = widget->grab().toImage();
    const QString path = tkm::apptest::screenshotDir() + QLatin1Char('/') + name + QStringLiteral(".png");
    QVERIFY2(image.save(path), qPrintable(path));
    // Not blank: more than a handful of distinct colours.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7)
        colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 8, qPrintable(name));
    qInfo().noquote() << "saved" << path;
  }

  // One screenshot per activity kind (and per step-through diagram) of the course at `root`, named
  // `<prefix><kind>[-<diagram>]<suffix>.png`.
  void shootCourse(const QString &root, const QString &prefix, const QString &suffix)
  {
    QVERIFY2(!root.isEmpty(), "no content root");
    app::MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
    window.setConfirmHandler([](const QString &) { return true; });
    window.resize(shotSize());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.loadCourse(root));
    window.resultsDock()->hide();
    app::GpuInfo none;
    none.message = QStringLiteral("libcuda.so.1: cannot open shared object file: No such file or directory");
    window.statusArea()->showGpu(none);
    window.showWelcome();
    save(&window, prefix + QStringLiteral("welcome") + suffix + shotSuffix());
    window.showModuleOverview(0);
    save(&window, prefix + QStringLiteral("module-overview") + suffix + shotSuffix());
    const course::Course *c = window.course();
    QSet<QString> shot;
    for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
      for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
        const course::Activity &act = c->modules[m].activities[a];
        QString name = QString::fromStdString(std::string(course::activityKindName(act.kind)));
        if (const auto *st = act.as<course::StepThrough>())
          name += QLatin1Char('-') + QString::fromStdString(std::string(course::diagramName(st->diagram)));
        if (shot.contains(name))
          continue;
        shot.insert(name);
        window.openActivity(m, a);
        QWidget *view = window.currentView();
        // Put each activity in an informative state.
        if (auto *quiz = qobject_cast<app::QuizView *>(view)) {
          const auto &q = act.as<course::Quiz>()->questions.front();
          int wrong = 0;
          while (q.choices[wrong].correct)
            ++wrong;
          quiz->select(0, {wrong});
          quiz->check(0);
        } else if (auto *bug = qobject_cast<app::SpotTheBugView *>(view)) {
          bug->pick(act.as<course::SpotTheBug>()->bugLines.front());
        } else if (auto *match = qobject_cast<app::DragMatchView *>(view)) {
          const auto *dm = act.as<course::DragMatch>();
          for (size_t i = 0; i + 1 < dm->items.size(); ++i)
            match->place(QString::fromStdString(dm->items[i].id),
                         QString::fromStdString(dm->items[i].target));
          match->check();
        } else if (auto *steps = qobject_cast<app::StepThroughView *>(view)) {
          steps->goTo(std::min(2, steps->stepCount() - 1));
          steps->finishAnimation();
        } else if (auto *walk = qobject_cast<app::WalkthroughView *>(view)) {
          walk->nextNote();
          walk->nextNote();
        } else if (auto *exercise = qobject_cast<app::ExerciseView *>(view)) {
          window.resultsDock()->show();
          // A CUDA report (kernel.cu) belongs to the CUDA track: shown there, never drawn on the Triton editor.
          // The synthetic report names line 12 of a longer kernel: on the starter its error goes to line 7.
          std::optional<tkm::report::RunReport> report = loadReport(QStringLiteral("synthetic-compile-error.json"));
          QVERIFY(report && report->compile && !report->compile->diagnostics.empty());
          report->compile->diagnostics[0].line = 7;
          QCOMPARE(app::reportTrack(*report), std::optional<app::Track>(app::Track::Cuda));
          QVERIFY(exercise->setTrack(app::Track::Cuda));
          window.results()->showReport(*report);
          exercise->showReport(*report);
          QVERIFY(exercise->editor()->errorLines().contains(7));
          exercise->showNextHint();
        }
        save(&window, prefix + name + suffix + shotSuffix());
        window.resultsDock()->hide();
      }
    // A lesson with typeset formulas and a table, scrolled to its first formula.
    for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
      for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
        const auto *lesson = c->modules[m].activities[a].as<course::Lesson>();
        if (!lesson || lesson->markdown.find("```math") == std::string::npos || shot.contains(QStringLiteral("math")))
          continue;
        shot.insert(QStringLiteral("math"));
        window.openActivity(m, a);
        save(&window, prefix + QStringLiteral("lesson-math") + suffix + shotSuffix());
      }
  }

  static QString fixture()
  {
    const QString root = tkm::apptest::fixtureContentDir();
    if (root.isEmpty())
      qFatal("tests/data/content-good is missing: the screenshots need the fixture course");
    return root;
  }

  void shootResults(const QString &suffix)
  {
    app::ResultsView view;
    view.resize(1300, 620);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QStringList names{QStringLiteral("h200-vector-add.json"), QStringLiteral("h200-autotune-row-sum.json"),
                      QStringLiteral("synthetic-pass.json"),
                      QStringLiteral("synthetic-fail.json"), QStringLiteral("synthetic-fault.json"),
                      QStringLiteral("synthetic-no-gpu.json")};
    for (const QString &file : names) {
      const auto report = loadReport(file);
      QVERIFY2(report, qPrintable(file));
      view.showReport(*report);
      const QString base = QStringLiteral("results-") + QString(file).remove(QStringLiteral(".json"));
      for (int tab = 0; tab < view.tabs()->count(); ++tab) {
        if (tab > 0 && !file.contains(QStringLiteral("pass")) && !file.startsWith(QStringLiteral("h200")))
          break;
        view.tabs()->setCurrentIndex(tab);
        save(&view, QStringLiteral("%1-%2%3").arg(base).arg(tab).arg(suffix));
      }
      view.tabs()->setCurrentIndex(0);
    }
  }

private slots:
  void initTestCase()
  {
    tkm::apptest::initTestEnvironment();
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
  }

  void light()
  {
    app::applyTheme(app::Theme::Light);
    shootCourse(fixture(), QStringLiteral("activity-"), QString());
    shootCourse(tkm::apptest::realContentDir(), QStringLiteral("course-"), QString());
    shootResults(QString());
  }

  void dark()
  {
    app::applyTheme(app::Theme::Dark);
    shootCourse(fixture(), QStringLiteral("activity-"), QStringLiteral("-dark"));
    shootCourse(tkm::apptest::realContentDir(), QStringLiteral("course-"), QStringLiteral("-dark"));
    shootResults(QStringLiteral("-dark"));
    app::applyTheme(app::Theme::Light);
  }
};

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
