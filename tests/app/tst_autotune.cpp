// The autotune flow in the app, no GPU needed: the configuration table of an exercise with an autotune block
// (defaults spread over the allowed values, at least min_configs rows, add/remove, reset_to_zero checkboxes,
// state saved and restored), the worker request it produces, a tuning run through the real worker (compile-only
// without a GPU), and the results view's Autotune tab drawn from a synthetic report. Saves screenshots.
#include "apptest.h"

#include "app/activities/autotunepanel.h"
#include "app/activities/exerciseview.h"
#include "app/common/paths.h"
#include "app/engine/engineclient.h"
#include "app/results/autotuneresults.h"
#include "app/results/resultsview.h"
#include "app/shell/mainwindow.h"

#include "engine/problem/spec.h"
#include "modules/course/model.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest>

using namespace tkm;

namespace {

std::shared_ptr<const problem::ExerciseSpec> loadExercise(const char* rel)
{
    auto spec = problem::loadSpec(
        QString(tkm::apptest::realContentDir() + QLatin1Char('/') + QLatin1String(rel)).toStdString());
    if (!spec)
        return nullptr;
    return std::make_shared<const problem::ExerciseSpec>(std::move(*spec));
}

const char* kHistogram = "05-autotuning/exercises/histogram-reset";
const char* kRowSum = "05-autotuning/exercises/autotune-row-sum";

// A report as the worker sends it for autotune-row-sum with three configurations, one failing (values from the
// shape of a real H200 run; the test checks the drawing, not the figures).
tkm::report::RunReport syntheticReport()
{
    const char* text = R"({
    "schema": "tkm-run-report/1", "verdict": "fail",
    "summary": "2 of 3 configurations pass; BLOCK_SIZE=64,NUM_WARPS=32: 1 of 7 cases fail",
    "exercise": {"id": "autotune-row-sum", "title": "Autotune a row sum across shapes", "kernel": "row_sum"},
    "autotune": {
      "key": ["M", "N"], "launches_per_check": 3,
      "shapes": [{"M": 262144, "N": 128}, {"M": 16384, "N": 2048}, {"M": 256, "N": 131072}],
      "configs": [
        {"meta": {"BLOCK_SIZE": 128, "NUM_WARPS": 1}, "verdict": "pass", "summary": "All 7 cases pass."},
        {"meta": {"BLOCK_SIZE": 64, "NUM_WARPS": 32}, "verdict": "fail", "summary": "1 of 7 cases fail"},
        {"meta": {"BLOCK_SIZE": 4096, "NUM_WARPS": 16}, "verdict": "pass", "summary": "All 7 cases pass."}],
      "samples": [
        {"config": 0, "shape": 0, "median_ms": 0.052, "settled": true},
        {"config": 0, "shape": 1, "median_ms": 0.061, "settled": true},
        {"config": 0, "shape": 2, "median_ms": 0.410, "settled": true},
        {"config": 2, "shape": 0, "median_ms": 0.140, "settled": true},
        {"config": 2, "shape": 1, "median_ms": 0.049, "settled": false},
        {"config": 2, "shape": 2, "median_ms": 0.047, "settled": true}],
      "winners": [
        {"key": {"M": 262144, "N": 128}, "shapes": [0], "config": 0, "median_ms": 0.052, "speedup_over_slowest": 2.69},
        {"key": {"M": 16384, "N": 2048}, "shapes": [1], "config": 2, "median_ms": 0.049, "speedup_over_slowest": 1.24},
        {"key": {"M": 256, "N": 131072}, "shapes": [2], "config": 2, "median_ms": 0.047, "speedup_over_slowest": 8.72}]
    }})";
    return nlohmann::json::parse(text).get<tkm::report::RunReport>();
}

void saveShot(QWidget* widget, const QString& name)
{
    QCoreApplication::processEvents();
    const QString path = tkm::apptest::screenshotDir() + QLatin1Char('/') + name + QStringLiteral(".png");
    QVERIFY2(widget->grab().save(path), qPrintable(path));
}

} // namespace

class TestAutotune : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { tkm::apptest::initTestEnvironment(); }

    void tableStartsWithSpreadDefaults()
    {
        auto spec = loadExercise(kRowSum);
        QVERIFY(spec && spec->autotune);
        app::AutotunePanel panel(spec);
        QCOMPARE(panel.minConfigs(), 3);
        QCOMPARE(panel.table()->rowCount(), 3);
        QCOMPARE(panel.table()->columnCount(), 2); // BLOCK_SIZE, NUM_WARPS
        const QList<app::MetaConfig> rows = panel.configs();
        // Spread over the allowed values: small/narrow first, wide/many warps last, all different.
        const app::MetaConfig first{{QStringLiteral("BLOCK_SIZE"), 256}, {QStringLiteral("NUM_WARPS"), 2}};
        const app::MetaConfig last{{QStringLiteral("BLOCK_SIZE"), 2048}, {QStringLiteral("NUM_WARPS"), 16}};
        QCOMPARE(rows.front(), first);
        QCOMPARE(rows.back(), last);
        QVERIFY(rows[0] != rows[1] && rows[1] != rows[2]);
        QVERIFY(panel.tuningEnabled());
        QVERIFY(panel.resetToZero().isEmpty());
    }

    void addRemoveKeepsAtLeastMinConfigs()
    {
        auto spec = loadExercise(kHistogram);
        QVERIFY(spec && spec->autotune);
        app::AutotunePanel panel(spec);
        QSignalSpy changed(&panel, &app::AutotunePanel::changed);
        QCOMPARE(panel.table()->rowCount(), spec->autotune->minConfigs);
        QVERIFY(!panel.removeConfig(0)); // would leave fewer than min_configs
        QCOMPARE(panel.addConfig(), 2);
        QCOMPARE(panel.table()->rowCount(), 3);
        QVERIFY(panel.setValue(2, QStringLiteral("BLOCK_SIZE"), 16384));
        QVERIFY(!panel.setValue(2, QStringLiteral("BLOCK_SIZE"), 3000)); // not an allowed value
        QVERIFY(!panel.setValue(7, QStringLiteral("BLOCK_SIZE"), 256));
        QCOMPARE(panel.configs()[2].front().second, 16384);
        QVERIFY(panel.removeConfig(0));
        QCOMPARE(panel.table()->rowCount(), 2);
        QCOMPARE(panel.configs()[1].front().second, 16384);
        QVERIFY(changed.count() >= 3);
        // reset_to_zero: one box per output buffer (hist), unchecked until declared.
        QVERIFY(panel.resetToZero().isEmpty());
        panel.setResetToZero({QStringLiteral("hist")});
        QCOMPARE(panel.resetToZero(), QStringList{QStringLiteral("hist")});

        // State round trip (what the activity store keeps).
        panel.setTuningEnabled(false);
        app::AutotunePanel restored(spec);
        restored.restoreState(panel.saveState());
        QCOMPARE(restored.configs(), panel.configs());
        QCOMPARE(restored.resetToZero(), panel.resetToZero());
        QVERIFY(!restored.tuningEnabled());
    }

    void requestCarriesConfigsAndTheDeclaration()
    {
        app::EngineJob job;
        job.exerciseFolder = QStringLiteral("/x/histogram-reset");
        job.source = QStringLiteral("k");
        job.configs = {{{QStringLiteral("BLOCK_SIZE"), 1024}, {QStringLiteral("NUM_WARPS"), 4}},
                       {{QStringLiteral("BLOCK_SIZE"), 4096}, {QStringLiteral("NUM_WARPS"), 8}}};
        job.resetToZero = {QStringLiteral("hist")};
        job.declareReset = true;
        const QJsonObject request = QJsonDocument::fromJson(app::engineRequestLine(3, job)).object();
        const QJsonArray configs = request.value(QStringLiteral("configs")).toArray();
        QCOMPARE(configs.size(), 2);
        QCOMPARE(configs[1].toObject().value(QStringLiteral("BLOCK_SIZE")).toInt(), 4096);
        QCOMPARE(request.value(QStringLiteral("reset_to_zero")).toArray(), QJsonArray{QStringLiteral("hist")});
        job.declareReset = false;
        job.configs.clear();
        const QJsonObject plain = QJsonDocument::fromJson(app::engineRequestLine(4, job)).object();
        QVERIFY(!plain.contains(QStringLiteral("configs")));
        QVERIFY(!plain.contains(QStringLiteral("reset_to_zero")));
    }

    void exerciseViewTunesThroughTheWorker()
    {
        auto window = std::make_unique<app::MainWindow>(app::workerPath());
        window->setConfirmHandler([](const QString&) { return true; });
        window->resize(1400, 900);
        window->show();
        QVERIFY(window->loadCourse(tkm::apptest::realContentDir()));
        QVERIFY(window->openActivity(QStringLiteral("autotuning"), QStringLiteral("histogram-reset")));
        auto* view = qobject_cast<app::ExerciseView*>(window->currentView());
        QVERIFY(view);
        QVERIFY(view->autotunePanel());
        QCOMPARE(view->autotunePanel()->table()->rowCount(), 2);
        view->autotunePanel()->setResetToZero({QStringLiteral("hist")});
        saveShot(window.get(), QStringLiteral("autotune-exercise"));
        if (!QFileInfo(app::workerPath()).isExecutable())
            QSKIP(qPrintable(QStringLiteral("SKIPPED: the engine worker %1 is not built").arg(app::workerPath())));
        QVERIFY(view->runKernel() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->lastReport().has_value(), 120000);
        const tkm::report::RunReport& last = *view->lastReport();
        QVERIFY2(last.autotune, nlohmann::json(last).dump().c_str());
        QCOMPARE(last.autotune->configs.size(), size_t(2));
        QCOMPARE(last.autotune->resetToZero, std::vector<std::string>{"hist"});
        // Without a GPU each configuration is compiled; with one, checked and timed.
        using tkm::report::Verdict;
        QVERIFY2(last.verdict == Verdict::Compiled || last.verdict == Verdict::Fail || last.verdict == Verdict::Pass,
                 tkm::report::verdictName(last.verdict).data());

        // An exercise without an autotune block has no table.
        QVERIFY(window->openActivity(QStringLiteral("vector-add"), QStringLiteral("vector-add")));
        auto* plain = qobject_cast<app::ExerciseView*>(window->currentView());
        QVERIFY(plain);
        QVERIFY(!plain->autotunePanel());
    }

    void resultsShowTheAutotuneTable()
    {
        app::ResultsView view;
        view.resize(1000, 420);
        view.show();
        const int tab = view.tabs()->indexOf(view.autotuneResults());
        QVERIFY(tab >= 0);
        QVERIFY(!view.tabs()->isTabVisible(tab)); // no autotune section yet
        view.showReport(syntheticReport());
        QVERIFY(view.tabs()->isTabVisible(tab));
        QCOMPARE(view.tabs()->currentWidget(), view.autotuneResults());
        app::AutotuneResults* results = view.autotuneResults();
        QTableWidget* table = results->table();
        QCOMPARE(table->rowCount(), 3);
        QCOMPARE(table->columnCount(), 5); // configuration, check, three shapes
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("Wrong results"));
        QCOMPARE(table->item(1, 2)->text(), QStringLiteral("not timed"));
        QCOMPARE(results->winnerRow(0), 0);
        QCOMPARE(results->winnerRow(2), 2);
        QVERIFY2(table->item(0, 2)->text().startsWith(QStringLiteral("★")), qPrintable(table->item(0, 2)->text()));
        QVERIFY(table->item(0, 2)->text().contains(QStringLiteral("2.69×")));
        QVERIFY(table->item(0, 2)->font().bold());
        QVERIFY(!table->item(2, 2)->text().startsWith(QStringLiteral("★")));
        QVERIFY(table->item(2, 4)->text().contains(QStringLiteral("8.72×")));
        QVERIFY(!table->item(2, 3)->toolTip().isEmpty()); // not settled
        const QString summary = results->summaryText();
        QVERIFY2(summary.contains(QStringLiteral("BLOCK_SIZE = 4096, NUM_WARPS = 16")), qPrintable(summary));
        QVERIFY(summary.contains(QStringLiteral("8.72× faster than the slowest")));
        saveShot(&view, QStringLiteral("autotune-results"));
        view.showReport(tkm::report::RunReport{.verdict = tkm::report::Verdict::Pass});
        QVERIFY(!view.tabs()->isTabVisible(tab));
    }
};

QTEST_MAIN(TestAutotune)
#include "tst_autotune.moc"
