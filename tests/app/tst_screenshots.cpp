// Saves a PNG of every activity kind and of the results view (light and dark palettes) to <build>/screenshots/,
// for a person to look at. Asserts only that each picture was written and is not blank.
#include "apptest.h"

#include "app/activities/dragmatchview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/activities/walkthroughview.h"
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
#include <QtTest>

#include "modules/course/model.h"

using namespace tkm;

namespace {

QPalette darkPalette()
{
  QPalette p;
  p.setColor(QPalette::Window, QColor(0x25, 0x27, 0x2b));
  p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Base, QColor(0x1b, 0x1d, 0x21));
  p.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2d, 0x32));
  p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Button, QColor(0x32, 0x35, 0x3b));
  p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x7a, 0xd6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xa6));
  p.setColor(QPalette::ToolTipBase, QColor(0x32, 0x35, 0x3b));
  p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
  return p;
}

QJsonObject loadReport(const QString &name)
{
  QFile f(tkm::apptest::testDataDir() + QStringLiteral("/reports/") + name);
  if (!f.open(QIODevice::ReadOnly))
    return {};
  return QJsonDocument::fromJson(f.readAll()).object();
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
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.loadCourse(root));
    window.resultsDock()->hide();
    window.statusArea()->showGpu(app::GpuInfo{});
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
          const QJsonObject report = loadReport(QStringLiteral("synthetic-compile-error.json"));
          window.results()->showReport(report);
          QList<app::EditorDiagnostic> d{{7, 5, QStringLiteral("error"), QStringLiteral("identifier \"msk\" is undefined")}};
          exercise->editor()->setDiagnostics(d);
          exercise->showNextHint();
        }
        save(&window, prefix + name + suffix);
        window.resultsDock()->hide();
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
      const QJsonObject report = loadReport(file);
      if (report.isEmpty())
        continue;
      view.showReport(report);
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
    QApplication::setPalette(QApplication::style()->standardPalette());
    shootCourse(fixture(), QStringLiteral("activity-"), QString());
    shootCourse(tkm::apptest::realContentDir(), QStringLiteral("course-"), QString());
    shootResults(QString());
  }

  void dark()
  {
    QApplication::setPalette(darkPalette());
    shootCourse(fixture(), QStringLiteral("activity-"), QStringLiteral("-dark"));
    shootCourse(tkm::apptest::realContentDir(), QStringLiteral("course-"), QStringLiteral("-dark"));
    shootResults(QStringLiteral("-dark"));
    QApplication::setPalette(QApplication::style()->standardPalette());
  }
};

QTEST_MAIN(TestScreenshots)
#include "tst_screenshots.moc"
