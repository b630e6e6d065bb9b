// The progress feature in the window (app/progress/progresscontroller.h) on a temporary --db: a scripted session
// (quizzes right and wrong, a bug spotted, two kernel runs through a fake worker that answers with a real H200
// report) survives quitting — the same activity opens, with the same states, scores, code and run history; the
// dashboard shows it; the PDF and HTML exports of that session carry its figures (pdftotext), a PDF page and the
// dashboard are written to <build>/screenshots; runs compare and restore; resets; corrupt, too-new and shared
// databases are explained; `tkm --export-report` works without a window.
#include "apptest.h"

#include "app/activities/dragmatchview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/common/format.h"
#include "app/course/coursenavigator.h"
#include "app/editor/kerneleditor.h"
#include "app/progress/dashboardwidget.h"
#include "app/progress/progresscontroller.h"
#include "app/progress/runhistory.h"
#include "app/progress/sqlitestatestore.h"
#include "app/shell/mainwindow.h"

#include <QCryptographicHash>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "modules/course/model.h"
#include "modules/progress/store.h"

#include <SQLiteCpp/Database.h>

using namespace tkm;

namespace {

struct Where
{
    int module = -1;
    int activity = -1;
};

QByteArray fileHash(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

QString run(const QString& program, const QStringList& args, int* exitCode = nullptr, QString* err = nullptr)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000))
        return {};
    if (exitCode)
        *exitCode = p.exitCode();
    if (err)
        *err = QString::fromLocal8Bit(p.readAllStandardError());
    return QString::fromUtf8(p.readAllStandardOutput());
}

} // namespace

class TestProgress : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<app::MainWindow> m_window;
    app::ProgressController* m_progress = nullptr;
    QJsonObject m_passReport; ///< the real H200 vector-add report
    QJsonObject m_slowReport; ///< the same, 2× slower and with BLOCK_SIZE 256
    double m_bestMs = 0.0;

    QString dbPath() const { return m_dir.filePath(QStringLiteral("learner.db")); }

    /// A fake worker that answers every request with the report in current.json.
    QString fakeWorker()
    {
        const QString path = m_dir.filePath(QStringLiteral("worker.sh"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return {};
        f.write("#!/bin/bash\n"
                "while IFS= read -r line; do\n"
                "  id=$(printf '%s' \"$line\" | sed -E 's/.*\"id\":([0-9]+).*/\\1/')\n"
                "  printf '{\"id\":%s,\"type\":\"report\",\"report\":%s}\\n' \"$id\" \"$(cat '" +
                m_dir.filePath(QStringLiteral("current.json")).toUtf8() +
                "')\"\n"
                "done\n");
        f.close();
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        return path;
    }

    void setWorkerReport(const QJsonObject& report)
    {
        QFile f(m_dir.filePath(QStringLiteral("current.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(report).toJson(QJsonDocument::Compact));
    }

    void startApp(const QString& db)
    {
        m_window = std::make_unique<app::MainWindow>(fakeWorker());
        m_window->setConfirmHandler([](const QString&) { return true; });
        m_window->resize(1400, 900);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        QVERIFY(m_window->loadCourse(apptest::realContentDir()));
        m_progress = new app::ProgressController(m_window.get(), db);
        m_progress->resume();
    }

    void quitApp()
    {
        m_window->close(); // the exercise saves its code, the time span is closed
        m_window.reset();
        m_progress = nullptr;
    }

    Where find(course::ActivityKind kind, const char* moduleDir = nullptr) const
    {
        const course::Course* c = m_window->course();
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m) {
            if (moduleDir && c->modules[m].id != moduleDir)
                continue;
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a)
                if (c->modules[m].activities[a].kind == kind)
                    return {m, a};
        }
        return {};
    }

    QString ids(Where w) const
    {
        const course::Module& m = m_window->course()->modules[w.module];
        return QString::fromStdString(m.id + "/" + m.activities[w.activity].id);
    }

    app::ActivityState stateOf(Where w) const
    {
        const course::Module& m = m_window->course()->modules[w.module];
        return m_window->states()->state(QString::fromStdString(m.id),
                                         QString::fromStdString(m.activities[w.activity].id));
    }

    QList<int> rightChoices(const course::Question& q) const
    {
        QList<int> out;
        for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
            if (q.choices[i].correct)
                out << i;
        return out;
    }

    QList<int> wrongChoice(const course::Question& q) const
    {
        for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
            if (!q.choices[i].correct)
                return {i};
        return {};
    }

    static QString pdfText(const QString& pdf)
    {
        return run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    }

private slots:
    void initTestCase()
    {
        apptest::initTestEnvironment();
        QVERIFY(m_dir.isValid());
        QSettings().setValue(QLatin1String(app::kLearnerNameKey), QStringLiteral("Ada Tester"));
        QFile f(apptest::testDataDir() + QStringLiteral("/reports/h200-vector-add.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        m_passReport = QJsonDocument::fromJson(f.readAll()).object();
        QVERIFY(!m_passReport.isEmpty());
        m_bestMs =
            m_passReport.value(QStringLiteral("timing")).toObject().value(QStringLiteral("median_ms")).toDouble();
        QVERIFY(m_bestMs > 0);
        m_slowReport = m_passReport;
        QJsonObject timing = m_slowReport.value(QStringLiteral("timing")).toObject();
        timing.insert(QStringLiteral("median_ms"), m_bestMs * 2);
        timing.insert(QStringLiteral("achieved_gbps"), timing.value(QStringLiteral("achieved_gbps")).toDouble() / 2);
        m_slowReport.insert(QStringLiteral("timing"), timing);
    }

    void scriptedSessionResumesExactly()
    {
        startApp(dbPath());
        QCOMPARE(m_progress->database().path, QFileInfo(dbPath()).absoluteFilePath());
        QVERIFY(m_progress->database().notice.isEmpty());
        QVERIFY(m_window->currentView()); // a fresh database opens the first activity

        // Quiz: first question right, second wrong.
        const Where quizAt = find(course::ActivityKind::Quiz);
        QVERIFY(quizAt.module >= 0);
        QVERIFY(m_window->openActivity(quizAt.module, quizAt.activity));
        auto* quiz = qobject_cast<app::QuizView*>(m_window->currentView());
        QVERIFY(quiz && quiz->questionCount() >= 2);
        const auto& questions = quiz->activity().as<course::Quiz>()->questions;
        quiz->select(0, rightChoices(questions[0]));
        QVERIFY(quiz->check(0));
        quiz->select(1, wrongChoice(questions[1]));
        QVERIFY(!quiz->check(1));
        const QString quizScore = quiz->scoreText();

        // Spot the bug: a wrong line, then the bug.
        const Where bugAt = find(course::ActivityKind::SpotTheBug);
        QVERIFY(m_window->openActivity(bugAt.module, bugAt.activity));
        auto* bug = qobject_cast<app::SpotTheBugView*>(m_window->currentView());
        QVERIFY(bug);
        const auto* spot = bug->activity().as<course::SpotTheBug>();
        const int bugLine = spot->bugLines.front();
        int wrongLine = 1;
        while (std::find(spot->bugLines.begin(), spot->bugLines.end(), wrongLine) != spot->bugLines.end())
            ++wrongLine;
        QVERIFY(!bug->pick(wrongLine));
        QVERIFY(bug->pick(bugLine));

        // Drag-match: every item on its right target. Step-through: watched to its last step.
        const Where dragAt = find(course::ActivityKind::DragMatch);
        QVERIFY(m_window->openActivity(dragAt.module, dragAt.activity));
        auto* drag = qobject_cast<app::DragMatchView*>(m_window->currentView());
        QVERIFY(drag);
        for (const course::DragItem& item : drag->activity().as<course::DragMatch>()->items)
            QVERIFY(drag->place(QString::fromStdString(item.id), QString::fromStdString(item.target)));
        QVERIFY(drag->check());
        const Where stepsAt = find(course::ActivityKind::StepThrough);
        QVERIFY(m_window->openActivity(stepsAt.module, stepsAt.activity));
        auto* steps = qobject_cast<app::StepThroughView*>(m_window->currentView());
        QVERIFY(steps && steps->goTo(steps->stepCount() - 1));

        // Exercise: two runs through the fake worker, the faster in the CUDA track, the slower one second in the
        // Triton track (each report says its `language`); the learner ends in the CUDA track with a hint shown.
        const Where exAt = find(course::ActivityKind::Exercise, "vector-add");
        QVERIFY(exAt.module >= 0);
        QVERIFY(m_window->openActivity(exAt.module, exAt.activity));
        auto* exercise = qobject_cast<app::ExerciseView*>(m_window->currentView());
        QVERIFY(exercise);
        QVERIFY(exercise->setTrack(app::Track::Cuda));
        QJsonObject cudaRun = m_passReport;
        cudaRun.insert(QStringLiteral("language"), QStringLiteral("cuda"));
        setWorkerReport(cudaRun);
        const QString firstSource = exercise->editor()->text();
        QVERIFY(exercise->runKernel() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            exercise->lastReport() && exercise->lastReport()->verdict == tkm::report::Verdict::Pass, 15000);
        QVERIFY(exercise->setTrack(app::Track::Triton));
        QJsonObject tritonRun = m_slowReport;
        tritonRun.insert(QStringLiteral("language"), QStringLiteral("triton"));
        setWorkerReport(tritonRun);
        exercise->editor()->replaceAllText(exercise->editor()->text() + QStringLiteral("\n# second try\n"));
        QVERIFY(exercise->runKernel() > 0);
        QTRY_COMPARE_WITH_TIMEOUT(m_progress->history()->table()->topLevelItemCount(), 2, 15000);
        QVERIFY(exercise->setTrack(app::Track::Cuda));
        exercise->editor()->replaceAllText(firstSource + QStringLiteral("\n// my latest edit\n"));
        QVERIFY(exercise->showNextHint());

        QCOMPARE(stateOf(quizAt), app::ActivityState::InProgress);
        QCOMPARE(stateOf(bugAt), app::ActivityState::Done);
        QCOMPARE(stateOf(exAt), app::ActivityState::Done);

        // The dashboard shows the session.
        m_progress->refreshDashboard();
        const QString totals = m_progress->dashboard()->totalsLabel()->text();
        QVERIFY2(totals.contains(QStringLiteral("quiz accuracy 50 %")), qPrintable(totals));
        QVERIFY2(totals.contains(QStringLiteral("1 of")), qPrintable(totals));
        QVERIFY(m_window->showPage(QStringLiteral("progress-dashboard")));
        QTest::qWait(100);
        QVERIFY(m_window->grab().save(apptest::screenshotDir() + QStringLiteral("/progress-window-dashboard.png")));
        // The review list names the missed question; activating it opens its quiz.
        QTreeWidget* review = m_progress->dashboard()->reviewTree();
        QVERIFY(review->topLevelItemCount() >= 1 && review->topLevelItem(0)->childCount() >= 1);
        QTreeWidgetItem* missed = review->topLevelItem(0)->child(0);
        QVERIFY2(missed->text(0).endsWith(QStringLiteral("question 2")), qPrintable(missed->text(0)));
        emit review->itemActivated(missed, 0);
        auto* reviewed = qobject_cast<app::QuizView*>(m_window->currentView());
        QVERIFY(reviewed);
        QVERIFY(reviewed->showQuestion(QString::fromStdString(questions[1].id)));
        QVERIFY(!reviewed->showQuestion(QStringLiteral("no-such-question")));
        QCOMPARE(ids({quizAt.module, quizAt.activity}),
                 m_window->currentView()->moduleId() + QLatin1Char('/') + m_window->currentView()->activityId());
        QVERIFY(m_window->openActivity(exAt.module, exAt.activity)); // where the learner stops

        quitApp();

        // Restart on the same database: same activity, code, states, scores and runs.
        startApp(dbPath());
        auto* again = qobject_cast<app::ExerciseView*>(m_window->currentView());
        QVERIFY2(again, "the exercise the learner was at is open again");
        QCOMPARE(again->activityId(),
                 QString::fromStdString(m_window->course()->modules[exAt.module].activities[exAt.activity].id));
        QVERIFY(again->editor()->text().contains(QStringLiteral("// my latest edit")));
        QCOMPARE(again->hintsShown(), 1);
        QVERIFY(again->passed());
        QCOMPARE(stateOf(quizAt), app::ActivityState::InProgress);
        QCOMPARE(stateOf(bugAt), app::ActivityState::Done);
        QCOMPARE(stateOf(exAt), app::ActivityState::Done);
        QVERIFY(m_window->navigator()
                    ->activityItem(bugAt.module, bugAt.activity)
                    ->toolTip(0)
                    .endsWith(QStringLiteral("done")));
        QCOMPARE(m_progress->history()->table()->topLevelItemCount(), 2);
        QCOMPARE(m_progress->history()->table()->topLevelItem(0)->text(2), app::formatMs(m_bestMs * 2)); // newest first
        QCOMPARE(m_progress->history()->table()->topLevelItem(1)->text(2), app::formatMs(m_bestMs));
        // Each run shows the track it used (the Track column).
        QCOMPARE(m_progress->history()->table()->headerItem()->text(7), QStringLiteral("Track"));
        QCOMPARE(m_progress->history()->table()->topLevelItem(0)->text(7), QStringLiteral("Triton"));
        QCOMPARE(m_progress->history()->table()->topLevelItem(1)->text(7), QStringLiteral("CUDA"));

        // The records behind it.
        progress::Store& store = m_progress->states()->store();
        QCOMPARE(store.quizAnswers()->size(), size_t(2));
        QCOMPARE(store.spotPicks()->size(), size_t(2));
        QCOMPARE(store.helpViews()->size(), size_t(1));
        QCOMPARE(store.dragAttempts()->size(), size_t(1));
        QCOMPARE(store.dragAttempts()->front().correctCount, store.dragAttempts()->front().itemCount);
        QCOMPARE(store.stepCompletions()->size(), size_t(1));
        QCOMPARE(stateOf(dragAt), app::ActivityState::Done);
        QCOMPARE(stateOf(stepsAt), app::ActivityState::Done);
        QVERIFY(*store.secondsSpent() >= 0.0);
        QVERIFY(store.timeSpans()->size() >= 3); // quiz, bug, exercise were each open

        QVERIFY(m_window->openActivity(quizAt.module, quizAt.activity));
        auto* quizAgain = qobject_cast<app::QuizView*>(m_window->currentView());
        QVERIFY(quizAgain);
        QVERIFY(quizAgain->isRight(0));
        QVERIFY(!quizAgain->isRight(1));
        QCOMPARE(quizAgain->scoreText(), quizScore);
        QVERIFY(m_window->openActivity(exAt.module, exAt.activity));
    }

    void historyComparesAndRestores()
    {
        auto* exercise = qobject_cast<app::ExerciseView*>(m_window->currentView());
        QVERIFY(exercise);
        app::RunHistoryWidget* history = m_progress->history();
        QCOMPARE(history->table()->topLevelItemCount(), 2);
        // Compare the two runs: a dialog with both medians, the faster one marked.
        const QList<qint64> ids{history->table()->topLevelItem(0)->data(0, Qt::UserRole).toLongLong(),
                                history->table()->topLevelItem(1)->data(0, Qt::UserRole).toLongLong()};
        history->selectRuns(ids);
        QPushButton* compareButton = nullptr;
        for (QPushButton* b : history->findChildren<QPushButton*>())
            if (b->text().remove(QLatin1Char('&')) == QLatin1String("Compare"))
                compareButton = b;
        QVERIFY(compareButton && compareButton->isEnabled());
        compareButton->click();
        auto* dialog = m_window->findChild<app::RunComparisonDialog*>();
        QVERIFY(dialog);
        QTreeWidgetItem* median = dialog->figures()->topLevelItem(2);
        QCOMPARE(median->text(0), QStringLiteral("Median time"));
        QCOMPARE(median->text(1), app::formatMs(m_bestMs) + QStringLiteral("  ✓"));
        QCOMPARE(median->text(2), app::formatMs(m_bestMs * 2));
        QVERIFY(dialog->grab().save(apptest::screenshotDir() + QStringLiteral("/progress-compare-runs.png")));
        dialog->close();

        // Restore the older run's source: the editor gets it, Undo brings the current code back.
        const QString current = exercise->editor()->text();
        history->selectRuns({ids[1]});
        QPushButton* restore = nullptr;
        for (QPushButton* b : history->findChildren<QPushButton*>())
            if (b->text().startsWith(QStringLiteral("Restore")))
                restore = b;
        QVERIFY(restore && restore->isEnabled());
        restore->click();
        QVERIFY(!exercise->editor()->text().contains(QStringLiteral("// second try")));
        QVERIFY(!exercise->editor()->text().contains(QStringLiteral("// my latest edit")));
        exercise->editor()->undo();
        QCOMPARE(exercise->editor()->text(), current);
    }

    void exportsOfTheSessionCarryItsFigures()
    {
        const QString pdf = m_dir.filePath(QStringLiteral("session.pdf"));
        const QString html = m_dir.filePath(QStringLiteral("session.html"));
        const QString csv = m_dir.filePath(QStringLiteral("session.csv"));
        const QString json = m_dir.filePath(QStringLiteral("session.json"));
        QString error;
        QVERIFY2(m_progress->exportReport(pdf, QPageSize::A4, &error), qPrintable(error));
        QVERIFY2(m_progress->exportReport(html, QPageSize::A4, &error), qPrintable(error));
        QVERIFY2(m_progress->exportReport(csv, QPageSize::A4, &error), qPrintable(error));
        QVERIFY2(m_progress->exportReport(json, QPageSize::A4, &error), qPrintable(error));
        QVERIFY(!m_progress->exportReport(m_dir.filePath(QStringLiteral("session.docx")), QPageSize::A4, &error));
        QVERIFY(error.contains(QStringLiteral(".csv")));

        const QString text = pdfText(pdf);
        QVERIFY2(text.contains(QStringLiteral("Ada Tester")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("NVIDIA H200")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("50 %")), qPrintable(text));  // quiz accuracy: 1 of 2 answers right
        QVERIFY2(text.contains(app::formatMs(m_bestMs)), qPrintable(text)); // the best run, not the later slower one
        QVERIFY2(text.contains(QStringLiteral("Track")) && text.contains(QStringLiteral("CUDA")), qPrintable(text));
        QFile htmlFile(html);
        QVERIFY(htmlFile.open(QIODevice::ReadOnly));
        const QString htmlText = QString::fromUtf8(htmlFile.readAll());
        QVERIFY(htmlText.contains(QStringLiteral("Ada Tester")));
        QVERIFY(htmlText.contains(app::formatMs(m_bestMs).toHtmlEscaped()));
        // The Track column: the best run's track (CUDA here; the later Triton run was slower).
        QVERIFY(htmlText.contains(QStringLiteral(">Track</th>")));
        QVERIFY(htmlText.contains(QStringLiteral("<td class=\"t\">CUDA</td>")));
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const QString csvText = QString::fromUtf8(csvFile.readAll());
        QCOMPARE(csvText.count(QStringLiteral("\r\nquiz,")), 2);
        QCOMPARE(csvText.count(QStringLiteral("\r\nkernel-run,")), 2);
        QVERIFY(csvText.startsWith(QStringLiteral("kind,")) && csvText.section(QStringLiteral("\r\n"), 0, 0).endsWith(QStringLiteral(",track")));
        QStringList runTracks;
        for (const QString& row : csvText.split(QStringLiteral("\r\n")))
            if (row.startsWith(QStringLiteral("kernel-run,")))
                runTracks << row.section(QLatin1Char(','), -1);
        QCOMPARE(runTracks, (QStringList{QStringLiteral("cuda"), QStringLiteral("triton")})); // oldest first
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject doc = QJsonDocument::fromJson(jsonFile.readAll()).object();
        QCOMPARE(doc.value(QStringLiteral("kernel_runs")).toArray().size(), 2);
        QStringList jsonTracks;
        for (const QJsonValue& r : doc.value(QStringLiteral("kernel_runs")).toArray())
            jsonTracks << r.toObject().value(QStringLiteral("track")).toString();
        jsonTracks.sort();
        QCOMPARE(jsonTracks, (QStringList{QStringLiteral("cuda"), QStringLiteral("triton")}));

        // The first two pages, to look at.
        const QString png = apptest::screenshotDir() + QStringLiteral("/progress-session-report");
        int code = -1;
        run(QStringLiteral("pdftoppm"),
            {QStringLiteral("-png"), QStringLiteral("-r"), QStringLiteral("70"), QStringLiteral("-f"),
             QStringLiteral("1"), QStringLiteral("-l"), QStringLiteral("2"), pdf, png},
            &code);
        QCOMPARE(code, 0);
        QVERIFY(QFile::exists(png + QStringLiteral("-1.png")));
    }

    void exportCommandNeedsNoWindow()
    {
#ifdef TKM_APP_EXE
        const QString tkm = QStringLiteral(TKM_APP_EXE);
#else
        const QString tkm;
#endif
        if (tkm.isEmpty() || !QFile::exists(tkm))
            QSKIP("the tkm executable is not built");
        const QString out = m_dir.filePath(QStringLiteral("cli.pdf"));
        int code = -1;
        QString err;
        run(tkm,
            {QStringLiteral("--export-report"), out, QStringLiteral("--db"), dbPath(), QStringLiteral("--page"),
             QStringLiteral("letter"), QStringLiteral("--learner"), QStringLiteral("Grace Hopper")},
            &code, &err);
        QVERIFY2(code == 0, qPrintable(err));
        const QString text = pdfText(out);
        QVERIFY(text.contains(QStringLiteral("Grace Hopper")));
        QVERIFY(text.contains(app::formatMs(m_bestMs)));
        run(tkm,
            {QStringLiteral("--export-report"), m_dir.filePath(QStringLiteral("x.txt")), QStringLiteral("--db"),
             dbPath()},
            &code, &err);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral(".pdf")), qPrintable(err));
        run(tkm,
            {QStringLiteral("--export-report"), out, QStringLiteral("--db"), m_dir.filePath(QStringLiteral("none.db"))},
            &code, &err);
        QCOMPARE(code, 1);
        QVERIFY2(err.contains(QStringLiteral("no progress database")), qPrintable(err));
    }

    void resetsReachNavigatorAndDashboard()
    {
        const Where quizAt = find(course::ActivityKind::Quiz);
        const Where bugAt = find(course::ActivityKind::SpotTheBug);
        const Where exAt = find(course::ActivityKind::Exercise, "vector-add");
        QStringList asked;
        m_window->setConfirmHandler([&asked](const QString& q) {
            asked << q;
            return true;
        });
        // The open exercise's progress.
        QVERIFY(m_progress->resetActivityProgress());
        QCOMPARE(asked.size(), 1);
        QCOMPARE(stateOf(exAt), app::ActivityState::New);
        QCOMPARE(m_progress->history()->table()->topLevelItemCount(), 0);
        QCOMPARE(stateOf(bugAt), app::ActivityState::Done);
        // A refusal changes nothing.
        m_window->setConfirmHandler([](const QString&) { return false; });
        QVERIFY(!m_progress->resetAllProgress());
        QCOMPARE(stateOf(bugAt), app::ActivityState::Done);
        // The bug's module, then everything.
        m_window->setConfirmHandler([](const QString&) { return true; });
        QVERIFY(m_window->openActivity(bugAt.module, bugAt.activity));
        QVERIFY(m_progress->resetModuleProgress());
        QCOMPARE(stateOf(bugAt), app::ActivityState::New);
        QVERIFY(m_progress->resetAllProgress());
        QCOMPARE(stateOf(quizAt), app::ActivityState::New);
        QVERIFY(m_window->navigator()
                    ->activityItem(quizAt.module, quizAt.activity)
                    ->toolTip(0)
                    .endsWith(QStringLiteral("new")));
        m_progress->refreshDashboard();
        const QString totals = m_progress->dashboard()->totalsLabel()->text();
        QVERIFY2(totals.contains(QRegularExpression(QStringLiteral("· 0 of \\d+ exercises passed"))),
                 qPrintable(totals));
        QCOMPARE(m_progress->states()->store().quizAnswers()->size(), size_t(0));
        quitApp();
    }

    void corruptDatabaseIsMovedAsideAndTheLearnerTold()
    {
        const QString db = m_dir.filePath(QStringLiteral("corrupt.db"));
        QFile f(db);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8192, 'x'));
        f.close();
        startApp(db);
        const QString notice = m_progress->database().notice;
        QVERIFY2(notice.contains(QStringLiteral("corrupt")), qPrintable(notice));
        QVERIFY(!m_progress->database().sessionOnly);
        QVERIFY(!m_progress->showOpenNotice().isEmpty());
        quitApp();
    }

    void newerDatabaseIsRefusedAndTheSessionStillWorks()
    {
        const QString db = m_dir.filePath(QStringLiteral("newer.db"));
        {
            auto store = progress::Store::open(db.toStdString());
            QVERIFY(store);
            store->database().exec("PRAGMA user_version = 99");
        }
        const QByteArray before = fileHash(db);
        startApp(db);
        QVERIFY(m_progress->database().sessionOnly);
        QVERIFY2(m_progress->database().notice.contains(QStringLiteral("newer version")),
                 qPrintable(m_progress->database().notice));
        const Where bugAt = find(course::ActivityKind::SpotTheBug);
        QVERIFY(m_window->openActivity(bugAt.module, bugAt.activity));
        auto* bug = qobject_cast<app::SpotTheBugView*>(m_window->currentView());
        QVERIFY(bug->pick(bug->activity().as<course::SpotTheBug>()->bugLines.front()));
        QCOMPARE(stateOf(bugAt), app::ActivityState::Done); // kept for the session
        quitApp();
        QCOMPARE(fileHash(db), before);
    }

    void secondInstanceIsToldAndBothRecord()
    {
        const QString db = m_dir.filePath(QStringLiteral("shared.db"));
        startApp(db);
        QVERIFY(!m_progress->database().shared);
        app::MainWindow second(fakeWorker());
        QVERIFY(second.loadCourse(apptest::realContentDir()));
        auto* other = new app::ProgressController(&second, db);
        QVERIFY(other->database().shared);
        QVERIFY(other->database().notice.contains(QStringLiteral("Another")));
        const Where quizAt = find(course::ActivityKind::Quiz);
        const QString m = QString::fromStdString(m_window->course()->modules[quizAt.module].id);
        const QString a =
            QString::fromStdString(m_window->course()->modules[quizAt.module].activities[quizAt.activity].id);
        for (int i = 0; i < 20; ++i) {
            m_progress->states()->recordQuizAnswer(m, a, QStringLiteral("q%1").arg(i), {0}, true);
            other->states()->recordQuizAnswer(m, a, QStringLiteral("r%1").arg(i), {1}, false);
        }
        QCOMPARE(m_progress->states()->store().quizAnswers()->size(), size_t(40));
        QCOMPARE(*m_progress->states()->store().integrityCheck(), std::string("ok"));
        quitApp();
    }
};

QTEST_MAIN(TestProgress)
#include "tst_progress.moc"
