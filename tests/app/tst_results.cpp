// The results view renders every run report in tests/data/reports (the recorded H200 run and the synthetic
// ones that cover each verdict), and reports with most fields absent still read sensibly.
#include "apptest.h"

#include "app/common/format.h"
#include "app/results/charts.h"
#include "app/results/resultsview.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTextBrowser>
#include <QtTest>

using tkm::app::ResultsView;

class TestResults : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { tkm::apptest::initTestEnvironment(); }

    void everyReport_data()
    {
        QTest::addColumn<QString>("path");
        const QDir dir(tkm::apptest::testDataDir() + QStringLiteral("/reports"));
        const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        QVERIFY2(!files.isEmpty(), qPrintable(QStringLiteral("no reports in %1").arg(dir.path())));
        for (const QString& f : files)
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void everyReport()
    {
        QFETCH(QString, path);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError error{};
        const QJsonObject report = QJsonDocument::fromJson(file.readAll(), &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        ResultsView view;
        view.resize(1200, 700);
        view.show();
        const tkm::report::RunReport typed = tkm::apptest::typedReport(report);
        view.showReport(typed);
        const QString correctness = view.correctnessText();
        QVERIFY2(correctness.contains(tkm::app::verdictTitle(typed.verdict)), qPrintable(correctness.left(300)));
        QVERIFY(
            correctness.contains(report.value(QStringLiteral("summary")).toString().section(QLatin1Char('\n'), 0, 0)));
        // Every case by name, every first mismatch's coordinates.
        for (const QJsonValue& c : report.value(QStringLiteral("cases")).toArray()) {
            const QJsonObject cs = c.toObject();
            QVERIFY2(correctness.contains(cs.value(QStringLiteral("name")).toString()),
                     qPrintable(cs.value(QStringLiteral("name")).toString()));
            for (const QJsonValue& o : cs.value(QStringLiteral("outputs")).toArray()) {
                const QJsonArray mismatches = o.toObject().value(QStringLiteral("first_mismatches")).toArray();
                if (!mismatches.isEmpty()) {
                    const QJsonArray index = mismatches.first().toObject().value(QStringLiteral("index")).toArray();
                    QVERIFY(correctness.contains(QString::number(index.first().toInt())));
                }
            }
        }
        const QJsonObject fault = report.value(QStringLiteral("fault")).toObject();
        if (!fault.isEmpty())
            QVERIFY(correctness.contains(fault.value(QStringLiteral("message")).toString()));
        for (const QJsonValue& d :
             report.value(QStringLiteral("compile")).toObject().value(QStringLiteral("diagnostics")).toArray())
            QVERIFY(correctness.contains(d.toObject().value(QStringLiteral("message")).toString()));

        const QString performance = view.performanceText();
        const QJsonObject timing = report.value(QStringLiteral("timing")).toObject();
        if (!timing.isEmpty()) {
            QVERIFY2(performance.contains(tkm::app::formatMs(timing.value(QStringLiteral("median_ms")).toDouble())),
                     qPrintable(performance.left(400)));
            QVERIFY(performance.contains(QStringLiteral("of the measured copy")) ||
                    !timing.contains(QStringLiteral("achieved_gbps")));
        } else {
            QVERIFY(performance.contains(QStringLiteral("not timed")) ||
                    performance.contains(QStringLiteral("Resources")));
        }
        const QJsonObject traffic = report.value(QStringLiteral("traffic")).toObject();
        if (traffic.value(QStringLiteral("available")).toBool())
            QVERIFY(performance.contains(QStringLiteral("DRAM efficiency")));
        for (const QJsonValue& b : report.value(QStringLiteral("baselines")).toArray())
            QVERIFY(performance.contains(b.toObject().value(QStringLiteral("name")).toString()));
        if (report.contains(QStringLiteral("roofline")))
            QVERIFY(view.roofline()->pointCount() >= 1);
        if (!timing.isEmpty())
            QCOMPARE(view.baselineChart()->barCount(), 1 + report.value(QStringLiteral("baselines")).toArray().size());
    }

    void absentFieldsReadSensibly()
    {
        ResultsView view;
        view.showReport(
            tkm::report::RunReport{.verdict = tkm::report::Verdict::Compiled, .summary = "The source compiles."});
        QVERIFY(view.correctnessText().contains(QStringLiteral("Compiles")));
        QVERIFY(view.performanceText().contains(QStringLiteral("not timed")));
        // Without a GPU the summary says it once; the raw reason sits behind "Details" until asked for.
        view.showReport(tkm::apptest::loadTypedReport(QStringLiteral("synthetic-no-gpu.json")));
        const QString text = view.correctnessText();
        QCOMPARE(text.count(QStringLiteral("No NVIDIA GPU")), 1);
        QVERIFY(text.contains(QStringLiteral("Details")));
        QVERIFY(!text.contains(QStringLiteral("CUDA_ERROR_NO_DEVICE")));
        auto* page = view.tabs()->widget(0)->findChild<QTextBrowser*>();
        auto* browser = page ? page : qobject_cast<QTextBrowser*>(view.tabs()->widget(0));
        QVERIFY(browser);
        emit browser->anchorClicked(QUrl(QStringLiteral("details:engine")));
        QVERIFY(view.correctnessText().contains(QStringLiteral("CUDA_ERROR_NO_DEVICE")));
        QVERIFY(view.performanceText().contains(QStringLiteral("not timed")));
        QCOMPARE(view.roofline()->pointCount(), 0);
        view.clear();
        QVERIFY(view.correctnessText().contains(QStringLiteral("Run your kernel")));
    }

    void progressAndCancel()
    {
        ResultsView view;
        QSignalSpy cancel(&view, &ResultsView::cancelRequested);
        view.showRunning(QStringLiteral("Your kernel"));
        QVERIFY(view.isRunning());
        view.showProgress(QStringLiteral("case"), 3, 7, QString());
        QVERIFY(view.findChild<QProgressBar*>()->maximum() == 7);
        QPushButton* button = nullptr;
        for (QPushButton* b : view.findChildren<QPushButton*>())
            if (b->text().contains(QStringLiteral("Cancel")))
                button = b;
        QVERIFY(button);
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(cancel.count(), 1);
        view.showCancelled();
        QVERIFY(!view.isRunning());
        QVERIFY(view.correctnessText().contains(QStringLiteral("cancelled")));
    }

    void diagnosticLinksJumpToTheLine()
    {
        ResultsView view;
        QSignalSpy activated(&view, &ResultsView::diagnosticActivated);
        tkm::report::RunReport rejected{.verdict = tkm::report::Verdict::CompileError};
        rejected.compile = tkm::report::CompileInfo{.ok = false};
        rejected.compile->diagnostics.push_back({"kernel.cu", 12, 5, "error", "x"});
        view.showReport(rejected);
        auto* browser = qobject_cast<QTextBrowser*>(view.tabs()->widget(0));
        QVERIFY(browser);
        emit browser->anchorClicked(QUrl(QStringLiteral("diag:12:5")));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toInt(), 12);
    }

    void comparisonAddsAPoint()
    {
        const tkm::report::RunReport report = tkm::apptest::loadTypedReport(QStringLiteral("synthetic-pass.json"));
        ResultsView view;
        view.showReport(report);
        const int before = view.roofline()->pointCount();
        view.setComparison(QStringLiteral("Solution"), report);
        QCOMPARE(view.roofline()->pointCount(), before + 1);
    }

    void formatting()
    {
        QCOMPARE(tkm::app::formatBytes(536900000), QStringLiteral("537 MB"));
        QCOMPARE(tkm::app::formatMs(0.243), QStringLiteral("0.243 ms"));
        QCOMPARE(tkm::app::formatStageMs(71.0), QStringLiteral("71 ms"));
        QCOMPARE(tkm::app::formatStageMs(0.4), QStringLiteral("0.4 ms"));
        QCOMPARE(tkm::app::formatStageMs(5410.0), QStringLiteral("5.41 s"));
        QCOMPARE(tkm::app::formatGbps(3314), QStringLiteral("3.31 TB/s"));
        QCOMPARE(tkm::app::formatPercent(3314, 4250), QStringLiteral("78 %"));
    }
};

QTEST_MAIN(TestResults)
#include "tst_results.moc"
