// Qt side of the progress feature: a scripted session (quizzes answered, kernels run, quit, restart) resumes exactly,
// the dashboard shows it, and the PDF (A4 and Letter, checked with pdftotext / pdfinfo) and HTML reports carry the
// expected figures. The first PDF page is rendered to <build>/screenshots/progress-report-a4.png to be looked at.
#include "app/progress/dashboardwidget.h"
#include "app/progress/reportexporter.h"
#include "modules/progress/store.h"

#include <QLabel>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

namespace tkm::app {
namespace {

using course::ActivityKind;

std::vector<progress::ModuleOutline> course()
{
    return {{"01-gpu-model",
             "GPU execution model",
             {{"lesson", ActivityKind::Lesson, "Programs and tiles", {}},
              {"quiz", ActivityKind::Quiz, "Execution quiz", {"q-warps", "q-blocks"}}}},
            {"02-vector-add",
             "Masked vector add",
             {{"quiz", ActivityKind::Quiz, "Masks quiz", {"q-mask", "q-other", "q-fill"}},
              {"bug", ActivityKind::SpotTheBug, "Missing mask", {}},
              {"vector-add", ActivityKind::Exercise, "Vector add kernel", {}}}},
            {"03-softmax", "Fused softmax", {{"softmax", ActivityKind::Exercise, "Row softmax kernel", {}}}}};
}

tkm::report::RunReport report(const std::string& exercise, const std::string& verdict, double ms)
{
    return nlohmann::json{
        {"schema", "tkm-run-report/1"},
        {"exercise", {{"id", exercise}}},
        {"meta", {{"BLOCK_SIZE", 1024}}},
        {"device", {{"name", "NVIDIA H200"}}},
        {"verdict", verdict},
        {"timing", {{"median_ms", ms}, {"achieved_gbps", 3200.0}}},
        {"traffic",
         {{"available", true},
          {"dram_read_bytes", 536900000},
          {"stored_bytes", 268440000},
          {"ideal_bytes", 805306368}}},
        {"ceilings", {{"theoretical_gbps", 4812.0}, {"measured_copy_gbps", 4250.0}}},
        {"baselines",
         {{{"name", "torch add"}, {"median_ms", 0.301}, {"dram_read_bytes", 537000000}, {"stored_bytes", 268500000}}}}}
        .get<tkm::report::RunReport>();
}

class ProgressAppTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString dbPath() const { return m_dir.filePath(QStringLiteral("progress.db")); }
    QString screenshotDir() const { return QStringLiteral(TKM_BUILD_DIR "/screenshots"); }

    ReportData collect()
    {
        auto store = progress::Store::open(dbPath().toStdString());
        if (!store)
            qFatal("open: %s", store.error().message.c_str());
        auto data =
            collectReportData(*store, course(), QStringLiteral("Ada Lovelace"),
                              {{QStringLiteral("02-vector-add/vector-add"), SolutionFigures{0.243, 805400000.0}}});
        if (!data)
            qFatal("collect: %s", data.error().message.c_str());
        return *data;
    }

    static QString pdfText(const QString& pdf)
    {
        QProcess p;
        p.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
        if (!p.waitForFinished(30000) || p.exitCode() != 0)
            return {};
        return QString::fromUtf8(p.readAllStandardOutput());
    }

    static QString pdfInfo(const QString& pdf)
    {
        QProcess p;
        p.start(QStringLiteral("pdfinfo"), {pdf});
        p.waitForFinished(30000);
        return QString::fromUtf8(p.readAllStandardOutput());
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        // The scripted session: study, answer, run, quit.
        auto store = progress::Store::open(dbPath().toStdString());
        QVERIFY2(store, store ? "" : store.error().message.c_str());
        const progress::ActivityRef lesson{"01-gpu-model", "lesson"};
        QVERIFY(store->addTimeSpent(lesson, 600.0, 1'796'000'000'000));
        QVERIFY(store->setActivityValue(lesson, progress::kStateKey, 2)); // the lesson view: read
        QVERIFY(store->recordQuizAnswer({0, {"01-gpu-model", "quiz"}, "q-warps", {1}, true, 1'796'000'100'000}));
        QVERIFY(store->recordQuizAnswer({0, {"01-gpu-model", "quiz"}, "q-blocks", {0}, true, 1'796'000'200'000}));
        const progress::ActivityRef quiz{"02-vector-add", "quiz"};
        QVERIFY(store->recordQuizAnswer({0, quiz, "q-mask", {2}, false, 1'796'000'300'000}));
        QVERIFY(store->recordQuizAnswer({0, quiz, "q-other", {0}, true, 1'796'000'400'000}));
        QVERIFY(store->recordSpotPick({0, {"02-vector-add", "bug"}, {3}, false, 1'796'000'500'000}));
        const progress::ActivityRef ex{"02-vector-add", "vector-add"};
        for (const auto& [verdict, ms, at] :
             {std::tuple{"fail", 0.2, 1'796'000'600'000LL}, std::tuple{"pass", 0.31, 1'796'000'700'000LL},
              std::tuple{"pass", 0.25, 1'796'000'800'000LL}}) {
            auto run =
                progress::kernelRunFromReport(ex, "// kernel " + std::to_string(at), report("vector-add", verdict, ms));
            run.atMs = at;
            QVERIFY(store->recordKernelRun(run));
        }
        QVERIFY(store->addTimeSpent(ex, 1800.0, 1'796'000'900'000));
        auto failed = progress::kernelRunFromReport({"03-softmax", "softmax"}, "x", report("softmax", "fault", 1.0));
        failed.atMs = 1'796'001'000'000;
        QVERIFY(store->recordKernelRun(failed));
        QVERIFY(store->setPosition(ex, 1'796'001'000'000));
    }

    void restartResumesExactly()
    {
        auto store = progress::Store::open(dbPath().toStdString());
        QVERIFY(store);
        auto position = store->position();
        QVERIFY(position && position->has_value());
        QCOMPARE(QString::fromStdString((*position)->where.activityId), QStringLiteral("vector-add"));
        QCOMPARE(store->runHistory({"02-vector-add", "vector-add"})->size(), size_t(3));
        QCOMPARE(store->quizAnswers()->size(), size_t(4));
    }

    void dashboardShowsSeededProgress()
    {
        DashboardWidget dashboard;
        dashboard.resize(1000, 900);
        auto store = progress::Store::open(dbPath().toStdString());
        QVERIFY(store);
        QVERIFY(dashboard.refresh(*store, course(), QStringLiteral("Ada"),
                                  {{QStringLiteral("02-vector-add/vector-add"), SolutionFigures{0.243, {}}}}));
        dashboard.show();
        QTreeWidget* modules = dashboard.modulesTable();
        QCOMPARE(modules->topLevelItemCount(), 3);
        QCOMPARE(modules->topLevelItem(0)->text(1), QStringLiteral("100 % (2/2)")); // lesson read, both questions right
        QCOMPARE(modules->topLevelItem(1)->text(1), QStringLiteral("33 % (1/3)")); // the exercise; quiz 1 of 3 right
        QCOMPARE(modules->topLevelItem(1)->text(2), QStringLiteral("50 %"));
        QCOMPARE(modules->topLevelItem(1)->text(3), QStringLiteral("1/1"));
        QCOMPARE(modules->topLevelItem(1)->text(4), QStringLiteral("30 min"));
        QTreeWidget* exercises = dashboard.exercisesTable();
        QCOMPARE(exercises->topLevelItemCount(), 2);
        QCOMPARE(exercises->topLevelItem(0)->text(1), QStringLiteral("3"));
        QCOMPARE(exercises->topLevelItem(0)->text(2), QStringLiteral("0.250 ms"));
        QCOMPARE(exercises->topLevelItem(0)->text(3), QStringLiteral("75 %")); // 3200 / 4250
        QCOMPARE(exercises->topLevelItem(0)->text(4), QStringLiteral("100 %"));
        QCOMPARE(exercises->topLevelItem(0)->text(5), QStringLiteral("0.243 ms"));
        QCOMPARE(exercises->topLevelItem(0)->text(6), QStringLiteral("1.03×"));
        QCOMPARE(exercises->topLevelItem(1)->text(2), QStringLiteral("not passed"));
        QVERIFY(dashboard.totalsLabel()->text().contains(QStringLiteral("1 of 3 modules complete")));
        QVERIFY(dashboard.totalsLabel()->text().contains(QStringLiteral("1 of 2 exercises passed")));

        QTreeWidget* review = dashboard.reviewTree();
        QCOMPARE(review->topLevelItemCount(), 2); // vector add (question, bug) and softmax (exercise)
        QTreeWidgetItem* group = review->topLevelItem(0);
        QCOMPARE(group->childCount(), 2);
        QCOMPARE(group->child(0)->text(0), QStringLiteral("Masks quiz — question 1"));
        QCOMPARE(group->child(1)->text(1), QStringLiteral("bug not spotted"));
        QSignalSpy spy(&dashboard, &DashboardWidget::activityRequested);
        emit review->itemActivated(group->child(0), 0);
        QCOMPARE(spy.count(), 1);
        QCOMPARE(spy.at(0).at(0).toString(), QStringLiteral("02-vector-add"));
        QCOMPARE(spy.at(0).at(1).toString(), QStringLiteral("quiz"));
        QCOMPARE(spy.at(0).at(2).toString(), QStringLiteral("q-mask"));
        emit review->itemActivated(group, 0); // a module heading opens nothing
        QCOMPARE(spy.count(), 1);

        QDir().mkpath(screenshotDir());
        QVERIFY(dashboard.grab().save(screenshotDir() + QStringLiteral("/progress-dashboard.png")));
    }

    void pdfReportHasTheFigures_data()
    {
        QTest::addColumn<int>("page");
        QTest::addColumn<QString>("sizeName");
        QTest::newRow("A4") << int(QPageSize::A4) << QStringLiteral("A4");
        QTest::newRow("Letter") << int(QPageSize::Letter) << QStringLiteral("letter");
    }

    void pdfReportHasTheFigures()
    {
        QFETCH(int, page);
        QFETCH(QString, sizeName);
        const QString pdf = m_dir.filePath(QStringLiteral("report-%1.pdf").arg(sizeName));
        QString error;
        QVERIFY2(ReportExporter(collect()).writePdf(pdf, QPageSize::PageSizeId(page), &error), qPrintable(error));
        const QString info = pdfInfo(pdf);
        QVERIFY2(info.contains(QStringLiteral("(%1)").arg(sizeName)), qPrintable(info));
        if (sizeName == QLatin1String("A4")) {
            QDir().mkpath(screenshotDir());
            QProcess render;
            render.start(QStringLiteral("pdftoppm"),
                         {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("80"), QStringLiteral("-f"),
                          QStringLiteral("1"), QStringLiteral("-l"), QStringLiteral("2"), pdf,
                          screenshotDir() + QStringLiteral("/progress-report-a4")});
            QVERIFY(render.waitForFinished(30000));
            QCOMPARE(render.exitCode(), 0);
        }
        // Compared without spaces: pdftotext's spacing inside table cells varies with the page width.
        const QString text = pdfText(pdf).remove(QRegularExpression(QStringLiteral("\\s")));
        QVERIFY2(!text.isEmpty(), "pdftotext gave nothing");
        for (const QString& expected :
             {QStringLiteral("Ada Lovelace"), QStringLiteral("NVIDIA H200"), QStringLiteral("Masked vector add"),
              QStringLiteral("GPU execution model"), QStringLiteral("Modules complete 1 / 3"),
              QStringLiteral("Exercises passed 1 / 2"), QStringLiteral("Quiz accuracy 75 %"),
              QStringLiteral("0.250 ms"), QStringLiteral("3.20 TB/s"), QStringLiteral("0.243 ms"),
              QStringLiteral("1.03×"), QStringLiteral("Weak topics"), QStringLiteral("question 1"),
              QStringLiteral("bug not spotted"), QStringLiteral("exercise not passed"),
              QStringLiteral("2026-11-30 00:38 UTC")}) {
            QVERIFY2(text.contains(QString(expected).remove(QLatin1Char(' '))),
                     qPrintable(QStringLiteral("missing \"%1\" in:\n%2").arg(expected, text)));
        }
    }

    void htmlReportIsSelfContained()
    {
        const QString html = m_dir.filePath(QStringLiteral("report.html"));
        QString error;
        QVERIFY2(ReportExporter(collect()).write(html, QPageSize::A4, &error), qPrintable(error));
        QFile file(html);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        QVERIFY(text.contains(QStringLiteral("Ada Lovelace")));
        QVERIFY(text.contains(QStringLiteral("0.250 ms")));
        QVERIFY(text.contains(QStringLiteral("NVIDIA H200")));
        QCOMPARE(text.count(QStringLiteral("src=\"data:image/png;base64,")), 2); // scores + the passed exercise
        QVERIFY(!text.contains(QStringLiteral("chart:")));
    }

    void unknownSuffixIsRefusedWithASentence()
    {
        QString error;
        QVERIFY(!ReportExporter(collect()).write(m_dir.filePath(QStringLiteral("report.txt")), QPageSize::A4, &error));
        QVERIFY(error.contains(QStringLiteral(".pdf or .html")));
    }

    void exportCommandWritesTheFileOrExplains()
    {
        ExportReportCommand command;
        command.file = m_dir.filePath(QStringLiteral("cli.pdf"));
        command.databasePath = dbPath();
        command.learnerName = QStringLiteral("Ada Lovelace");
        command.page = *parsePageSize(QStringLiteral("Letter"));
        QCOMPARE(runExportReportCommand(command, course()), 0);
        QVERIFY(pdfText(command.file).contains(QStringLiteral("Ada Lovelace")));
        command.databasePath = m_dir.filePath(QStringLiteral("missing.db"));
        QCOMPARE(runExportReportCommand(command, course()), 1);
        QVERIFY(!QFile::exists(command.databasePath)); // not created
        QVERIFY(!parsePageSize(QStringLiteral("A5")));
    }
};

} // namespace
} // namespace tkm::app

QTEST_MAIN(tkm::app::ProgressAppTest)
#include "tst_progressreport.moc"
