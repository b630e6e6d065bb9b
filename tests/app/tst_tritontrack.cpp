// The Triton track of the exercise view with the real content and the real engine worker, no GPU needed (the
// CPU interpreter runs Triton kernels): vector add and fused softmax open in Triton, a correct kernel passes, a
// missing mask faults on its line with program and lane; the Generated CUDA pane maps a Triton line to its CUDA
// lines and back; the PTX tab fills; the track is remembered and recorded with each run; "Run this bug" runs two
// spot-the-bug listings against their exercises; diagnostics stay with the track whose file they name; the
// Generated CUDA pane leaves 80 columns to the editor, collapses and expands. Screenshots go to <build>/screenshots/.
#include "apptest.h"

#include "app/activities/exerciseview.h"
#include "app/activities/markdownview.h"
#include "app/activities/spotthebugview.h"
#include "app/common/paths.h"
#include "app/editor/codeview.h"
#include "app/editor/editorsplit.h"
#include "app/editor/generatedpane.h"
#include "app/editor/kerneleditor.h"
#include "app/progress/progresscontroller.h"
#include "app/progress/sqlitestatestore.h"
#include "app/shell/mainwindow.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QListWidget>
#include <QScrollBar>
#include <QSettings>
#include <QSplitter>
#include <QToolButton>
#include <QTabWidget>
#include <QtTest>

#include "engine/problem/spec.h"
#include "modules/course/model.h"

using namespace tkm;

namespace {

QString readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// 1-based line of `text` holding `needle`, 0 when none.
int lineOf(const QString& text, const QString& needle)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

} // namespace

class TestTritonTrack : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<app::MainWindow> m_window;
    app::ProgressController* m_progress = nullptr;
    QTemporaryDir m_dir;

    bool open(course::ActivityKind kind, const std::function<bool(const course::Activity&)>& match)
    {
        const course::Course* c = m_window->course();
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
                const course::Activity& act = c->modules[m].activities[a];
                if (act.kind == kind && match(act))
                    return m_window->openActivity(m, a);
            }
        return false;
    }

    app::ExerciseView* openExercise(const QString& specId)
    {
        const bool ok = open(course::ActivityKind::Exercise, [&](const course::Activity& a) {
            return QString::fromStdString(a.as<course::Exercise>()->specId) == specId;
        });
        return ok ? qobject_cast<app::ExerciseView*>(m_window->currentView()) : nullptr;
    }

    static QString exerciseFile(app::ExerciseView* view, const QString& rel)
    {
        return readFile(QString::fromStdString((view->activity().as<course::Exercise>()->folder / rel.toStdString())));
    }

    // Runs the editor's text and waits for the report.
    static tkm::report::RunReport runEditor(app::ExerciseView* view)
    {
        const int job = view->runKernel();
        if (job <= 0)
            return {};
        auto asJson = [view] { return view->lastReport() ? nlohmann::json(*view->lastReport()) : nlohmann::json(); };
        const nlohmann::json before = asJson();
        if (!QTest::qWaitFor([&] { return view->lastReport() && asJson() != before; }, 60000))
            return {};
        return *view->lastReport();
    }

    void screenshot(const QString& name)
    {
        m_window->grab().save(tkm::apptest::screenshotDir() + QLatin1Char('/') + name);
    }

private slots:
    void initTestCase()
    {
        tkm::apptest::initTestEnvironment();
        if (!QFileInfo(app::workerPath()).isExecutable())
            QFAIL(qPrintable(QStringLiteral("the engine worker %1 is not built").arg(app::workerPath())));
    }

    void init()
    {
        m_window = std::make_unique<app::MainWindow>(app::workerPath());
        m_window->setConfirmHandler([](const QString&) { return true; });
        m_window->resize(1500, 900);
        m_window->show();
        QVERIFY(m_window->loadCourse(tkm::apptest::realContentDir()));
        m_progress = new app::ProgressController(m_window.get(), m_dir.filePath(QStringLiteral("progress.sqlite")));
    }

    void cleanup() { m_window.reset(); }

    void opensInTritonAndPasses_data()
    {
        QTest::addColumn<QString>("exercise");
        QTest::addColumn<QString>("masked");   // the solution's text whose mask is removed for the fault
        QTest::addColumn<QString>("unmasked"); // its replacement
        QTest::newRow("vector-add") << QStringLiteral("vector-add")
                                    << QStringLiteral("x = tl.load(x_ptr + offsets, mask=mask)")
                                    << QStringLiteral("x = tl.load(x_ptr + offsets)");
        QTest::newRow("fused-softmax") << QStringLiteral("fused-softmax") << QStringLiteral("num / den, mask=mask)")
                                       << QStringLiteral("num / den)");
    }

    void opensInTritonAndPasses()
    {
        QFETCH(QString, exercise);
        QFETCH(QString, masked);
        QFETCH(QString, unmasked);
        app::ExerciseView* view = openExercise(exercise);
        QVERIFY(view);
        QCOMPARE(view->track(), app::Track::Triton);
        QCOMPARE(view->editor()->language(), QStringLiteral("python"));
        QCOMPARE(view->editor()->text(), exerciseFile(view, QStringLiteral("starter.py")));
        QCOMPARE(view->promptView()->verticalScrollBar()->value(), 0);

        // A correct kernel passes on the interpreter, which is said once.
        const QString solution = exerciseFile(view, QStringLiteral("solution.py"));
        view->editor()->setText(solution);
        tkm::report::RunReport report = runEditor(view);
        QCOMPARE(report.language, std::string("triton"));
        QVERIFY2(report.verdict == tkm::report::Verdict::Pass, report.summary.c_str());
        if (report.executor == "cpu-interpreter")
            QCOMPARE(view->verdictText().count(QStringLiteral("CPU interpreter")), 1);
        QVERIFY(view->editor()->errorLines().isEmpty());

        // A missing mask faults on its line, with program and lane, and the editor goes there.
        QVERIFY(solution.contains(masked));
        QString bad = solution;
        bad.replace(masked, unmasked);
        const int badLine = lineOf(bad, unmasked);
        view->editor()->setText(bad);
        view->editor()->setCursorPosition(0, 0);
        report = runEditor(view);
        QCOMPARE(report.verdict, tkm::report::Verdict::Fault);
        QVERIFY(report.fault);
        QCOMPARE(report.fault->line, badLine);
        QVERIFY2(view->editor()->errorLines().contains(badLine), qPrintable(view->verdictText()));
        int line = 0, index = 0;
        view->editor()->getCursorPosition(&line, &index);
        QCOMPARE(line + 1, badLine);
        QVERIFY2(view->verdictText().contains(QStringLiteral("line %1, program (").arg(badLine)),
                 qPrintable(view->verdictText()));
        QVERIFY(view->verdictText().contains(QStringLiteral("lane [")));
        QVERIFY(!view->verdictText().contains(QStringLiteral("kernel.py:")));
        screenshot(QStringLiteral("triton-%1-fault.png").arg(exercise));

        // The track went into the progress store with the runs.
        auto history = m_progress->states()->store().runHistory(
            {view->moduleId().toStdString(), view->activityId().toStdString()});
        QVERIFY(history && history->size() >= 2);
        QCOMPARE(QString::fromStdString(history->front().track), QStringLiteral("triton"));
    }

    void generatedCudaMapsBothWays()
    {
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        const QString solution = exerciseFile(view, QStringLiteral("solution.py"));
        view->editor()->setText(solution);
        view->refreshGenerated();
        view->codeSplit()->setPaneCollapsed(false, false); // at 1500 px it may start collapsed
        app::GeneratedCodePane* pane = view->generatedPane();
        QVERIFY2(pane->isVisibleTo(view), qPrintable(QStringLiteral("hidden %1, visible to view %2, size %3x%4")
                                                         .arg(pane->isHidden())
                                                         .arg(pane->isVisibleTo(view))
                                                         .arg(pane->width())
                                                         .arg(pane->height())));
        QVERIFY2(pane->lowering().ok, qPrintable(pane->lowering().cuda.message));
        QVERIFY(pane->lowering().cuda.text.contains(QStringLiteral("__global__")));
        QVERIFY(!pane->lowering().cuda.text.contains(QStringLiteral("#line")));
        // The store line: its generated lines are highlighted, and every one of them maps back to it.
        const int storeLine = lineOf(solution, QStringLiteral("tl.store("));
        QVERIFY(storeLine > 0);
        view->editor()->setCursorPosition(storeLine - 1, 4);
        // (QScintilla reports the cursor move when it next updates its view.)
        QTRY_VERIFY(!pane->highlightedCudaLines().isEmpty());
        const QList<int> cudaLines = pane->highlightedCudaLines();
        QVERIFY2(!cudaLines.isEmpty(), "no generated line highlighted for the tl.store line");
        QCOMPARE(cudaLines, pane->lowering().cuda.linesFrom(storeLine));
        for (int l : cudaLines)
            QCOMPARE(pane->lowering().cuda.tritonLine(l), storeLine);
        // The reverse: a generated line of the load of x clicked tints its Triton line.
        const int loadLine = lineOf(solution, QStringLiteral("x = tl.load("));
        const QList<int> loadCuda = pane->lowering().cuda.linesFrom(loadLine);
        QVERIFY(!loadCuda.isEmpty());
        emit pane->cudaView()->lineActivated(loadCuda.first());
        QCOMPARE(view->editor()->highlightedLines(), QList<int>{loadLine});
        QCOMPARE(pane->highlightedCudaLines(), loadCuda);

        // PTX, mapped to the Triton lines through .loc.
        pane->tabs()->setCurrentIndex(1);
        QTRY_VERIFY_WITH_TIMEOUT(!pane->ptx().text.isEmpty() || !pane->ptx().message.isEmpty(), 60000);
        QVERIFY2(pane->ptx().text.contains(QStringLiteral(".entry")), qPrintable(pane->ptx().message));
        QVERIFY(!pane->ptx().linesFrom(loadLine).isEmpty());
        QVERIFY(pane->ptx().text.contains(QStringLiteral("ld.global")));
        m_window->resize(1600, 1000);
        screenshot(QStringLiteral("triton-vector-add-ptx.png"));
        pane->tabs()->setCurrentIndex(0);
        screenshot(QStringLiteral("triton-vector-add-generated.png"));
    }

    void trackSwitchIsRemembered()
    {
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        view->editor()->setText(QStringLiteral("# my triton work\n"));
        QVERIFY(view->setTrack(app::Track::Cuda));
        QCOMPARE(view->editor()->language(), QStringLiteral("cuda"));
        QCOMPARE(view->editor()->text(), exerciseFile(view, QStringLiteral("starter.cu")));
        QVERIFY(!view->generatedPane()->isVisible());
        m_window->goNext();
        m_window->goPrevious();
        view = qobject_cast<app::ExerciseView*>(m_window->currentView());
        QVERIFY(view);
        QCOMPARE(view->track(), app::Track::Cuda);
        QVERIFY(view->setTrack(app::Track::Triton));
        QCOMPARE(view->editor()->text(), QStringLiteral("# my triton work\n"));
    }

    void editorIndentsAndHovers()
    {
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        app::KernelEditor* editor = view->editor();
        // Python: one level deeper after a `:`.
        editor->setText(QString());
        editor->setFocus();
        QTest::keyClicks(editor->viewport(), QStringLiteral("def f(x):"));
        QTest::keyClick(editor->viewport(), Qt::Key_Return);
        QCOMPARE(editor->indentation(1), 4);
        QTest::keyClicks(editor->viewport(), QStringLiteral("return x"));
        QTest::keyClick(editor->viewport(), Qt::Key_Return);
        QCOMPARE(editor->indentation(2), 0);
        // A checker error underlines its operands; hovering shows the message and its notes.
        QString bad = exerciseFile(view, QStringLiteral("solution.py"));
        bad.replace(QStringLiteral("tl.arange(0, BLOCK_SIZE)"), QStringLiteral("tl.arange(0, 1000)"));
        editor->setText(bad);
        const tkm::report::RunReport report = runEditor(view);
        QCOMPARE(report.verdict, tkm::report::Verdict::CompileError);
        const int line = lineOf(bad, QStringLiteral("tl.arange(0, 1000)"));
        QVERIFY(editor->errorLines().contains(line));
        const int column = static_cast<int>(editor->text(line - 1).indexOf(QStringLiteral("1000"))) + 1;
        QVERIFY(editor->hasSquiggle(line, column));
        QVERIFY2(editor->hoverText(line, column).contains(QStringLiteral("power of two")),
                 qPrintable(editor->hoverText(line, column)));
        QVERIFY(view->diagnosticsList()->item(0)->text().startsWith(QStringLiteral("Line %1").arg(line)));

        // CUDA: a `}` alone on its line goes back to its `{`.
        QVERIFY(view->setTrack(app::Track::Cuda));
        editor->setText(QString());
        QTest::keyClicks(editor->viewport(), QStringLiteral("void f() {"));
        QTest::keyClick(editor->viewport(), Qt::Key_Return);
        QCOMPARE(editor->indentation(1), 4);
        QTest::keyClicks(editor->viewport(), QStringLiteral("}"));
        QCOMPARE(editor->indentation(1), 0);
        editor->setWordWrap(true);
        QVERIFY(editor->wordWrap());
    }

    void cudaTrackSaysWhereTheSemicolonIsMissing()
    {
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        QVERIFY(view->setTrack(app::Track::Cuda));
        QString code = exerciseFile(view, QStringLiteral("solution.cu"));
        const int brace = static_cast<int>(code.indexOf(QLatin1Char('{')));
        QVERIFY(brace > 0);
        code.insert(brace + 1, QStringLiteral("\n    int a = 1\n    int b = 2;\n"));
        view->editor()->setText(code);
        const tkm::report::RunReport report = runEditor(view);
        QCOMPARE(report.verdict, tkm::report::Verdict::CompileError);
        const int line = lineOf(code, QStringLiteral("int b = 2;"));
        QVERIFY2(
            view->editor()->annotationText(line).contains(QStringLiteral("the previous line may be missing a `;`")),
            qPrintable(view->editor()->annotationText(line)));
        QVERIFY(!view->diagnosticsList()->item(0)->text().contains(QStringLiteral("kernel.cu")));
        // Warnings get a marker and a squiggle but no annotation: they must not push the starter's TODOs away.
        view->editor()->setText(QStringLiteral("a\nb\nc\n"));
        view->editor()->setDiagnostics(
            {{2, 1, QStringLiteral("warning"), QStringLiteral("declared but never referenced"), {}, {}}});
        QVERIFY(view->editor()->annotationText(2).isEmpty());
        QVERIFY(view->editor()->hoverText(2, 1).contains(QStringLiteral("never referenced")));
    }

    // A report's diagnostics belong to the file they name: a CUDA compile error (kernel.cu) is never drawn on the
    // Triton editor, and switching track brings back that track's own last diagnostics and verdict.
    void diagnosticsStayWithTheirTrack()
    {
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        QVERIFY(view->setTrack(app::Track::Triton)); // the tests before may have left it in CUDA
        QString py = exerciseFile(view, QStringLiteral("solution.py"));
        py.replace(QStringLiteral("tl.arange(0, BLOCK_SIZE)"), QStringLiteral("tl.arange(0, 1000)"));
        view->editor()->setText(py);
        const tkm::report::RunReport tritonReport = runEditor(view);
        QCOMPARE(tritonReport.language, std::string("triton"));
        const int pyLine = lineOf(py, QStringLiteral("tl.arange(0, 1000)"));
        QCOMPARE(view->editor()->errorLines(), QList<int>{pyLine});

        QVERIFY(view->setTrack(app::Track::Cuda));
        QVERIFY(view->editor()->errorLines().isEmpty()); // no CUDA run yet: nothing of the Triton run here
        QVERIFY(view->diagnosticsList()->isHidden());
        QVERIFY(view->verdictText().isEmpty());
        QString cu = exerciseFile(view, QStringLiteral("solution.cu"));
        const int brace = static_cast<int>(cu.indexOf(QLatin1Char('{')));
        cu.insert(brace + 1, QStringLiteral("\n    undefined_name = 1;\n"));
        view->editor()->setText(cu);
        const tkm::report::RunReport cudaReport = runEditor(view);
        QCOMPARE(cudaReport.verdict, tkm::report::Verdict::CompileError);
        const int cuLine = lineOf(cu, QStringLiteral("undefined_name"));
        QCOMPARE(view->editor()->errorLines(), QList<int>{cuLine});

        // Back in Triton: its own error again, on its own line.
        QVERIFY(view->setTrack(app::Track::Triton));
        QCOMPARE(view->editor()->errorLines(), QList<int>{pyLine});
        QVERIFY(view->diagnosticsList()->item(0)->text().startsWith(QStringLiteral("Line %1").arg(pyLine)));
        QVERIFY(!view->verdictText().isEmpty());
        QVERIFY(view->lastReport().has_value());
        QCOMPARE(nlohmann::json(*view->lastReport()).dump(), nlohmann::json(tritonReport).dump());
        // A CUDA report arriving while the Triton track is shown stays with the CUDA track.
        view->showReport(cudaReport);
        QCOMPARE(view->editor()->errorLines(), QList<int>{pyLine});
        QVERIFY(view->diagnosticsList()->item(0)->text().startsWith(QStringLiteral("Line %1").arg(pyLine)));
        QVERIFY(app::trackDiagnostics(cudaReport, app::Track::Triton, QStringLiteral("kernel.py"), py).isEmpty());
        QVERIFY(view->setTrack(app::Track::Cuda));
        QCOMPARE(view->editor()->errorLines(), QList<int>{cuLine});
    }

    // The Generated CUDA pane beside the editor: 80 columns of code stay visible at 1600 px (the navigator and the
    // prompt take their share: the pane starts collapsed behind its toggle there and at 1400 px, open at 1920 px),
    // collapse and expand work, the learner's split and choice are kept. Screenshots at 1400, 1600 and 1920 px.
    void generatedPaneLayout()
    {
        QSettings().remove(QStringLiteral("exercise"));
        m_window->resize(1600, 1000);
        app::ExerciseView* view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        QVERIFY(view->setTrack(app::Track::Triton));
        app::EditorSplit* split = view->codeSplit();
        QTRY_VERIFY(split->width() > 0 && view->editor()->viewport()->width() > 0);
        QTest::qWait(50);
        const QString sizes = QStringLiteral("split %1 px, 80 columns need %2 px")
                                  .arg(split->width())
                                  .arg(split->editorWidthFor80Columns());
        QVERIFY2(split->paneCollapsed(), qPrintable(sizes));
        QVERIFY2(split->visibleColumns() >= 80, qPrintable(QString::number(split->visibleColumns()) + u' ' + sizes));
        QVERIFY(split->toggleButton()->isVisible());
        screenshot(QStringLiteral("triton-layout-1600-collapsed.png"));

        // Expand and collapse: the pane gets its room, then gives it back to the editor.
        split->toggleButton()->click();
        QVERIFY(!split->paneCollapsed());
        QTRY_VERIFY(view->generatedPane()->isVisible());
        QTRY_VERIFY2(view->generatedPane()->width() >= 320, qPrintable(QString::number(view->generatedPane()->width())));
        screenshot(QStringLiteral("triton-layout-1600-expanded.png"));
        split->toggleButton()->click();
        QVERIFY(split->paneCollapsed());
        QVERIFY(!view->generatedPane()->isVisible());
        QTRY_VERIFY(view->editor()->width() > split->width() - 20);
        split->toggleButton()->click();
        QTRY_VERIFY(view->generatedPane()->isVisible());

        // The learner's split and choice are kept for the next exercise.
        QSplitter* splitter = split->splitter();
        const int total = splitter->sizes().value(0) + splitter->sizes().value(1);
        splitter->setSizes({total * 6 / 10, total - total * 6 / 10});
        emit splitter->splitterMoved(total * 6 / 10, 1);
        app::ExerciseView* other = openExercise(QStringLiteral("fused-softmax"));
        QVERIFY(other);
        QVERIFY(other->setTrack(app::Track::Triton));
        QTRY_VERIFY(other->codeSplit()->splitter()->sizes().value(0) > 0);
        QTest::qWait(50);
        QVERIFY(!other->codeSplit()->paneCollapsed()); // expanded, as chosen
        const QList<int> kept = other->codeSplit()->splitter()->sizes();
        QVERIFY2(qAbs(double(kept[0]) / (kept[0] + kept[1]) - 0.6) < 0.03,
                 qPrintable(QStringLiteral("%1 | %2").arg(kept[0]).arg(kept[1])));

        // 1400 px, no choice made: collapsed, the editor as wide as it can be; the toggle opens it.
        QSettings().remove(QStringLiteral("exercise"));
        m_window->resize(1400, 900);
        view = openExercise(QStringLiteral("vector-add"));
        QVERIFY(view);
        QTRY_VERIFY(view->codeSplit()->width() > 0);
        QTest::qWait(50);
        QVERIFY(view->codeSplit()->paneCollapsed());
        QVERIFY(!view->generatedPane()->isVisible());
        qInfo() << "1400 px: the editor shows" << view->codeSplit()->visibleColumns() << "columns";
        QVERIFY(view->editor()->width() > view->codeSplit()->width() - 20);
        screenshot(QStringLiteral("triton-layout-1400-collapsed.png"));
        view->codeSplit()->toggleButton()->click();
        QTRY_VERIFY(view->generatedPane()->isVisible());
        screenshot(QStringLiteral("triton-layout-1400-expanded.png"));

        // 1920 px: editor and pane side by side from the start, 80 columns in the editor.
        QSettings().remove(QStringLiteral("exercise"));
        m_window->resize(1920, 1080);
        view = openExercise(QStringLiteral("fused-softmax"));
        QVERIFY(view);
        QTRY_VERIFY(view->codeSplit()->width() > 0);
        QTest::qWait(50);
        QVERIFY2(!view->codeSplit()->paneCollapsed(), qPrintable(QString::number(view->codeSplit()->width())));
        QVERIFY(view->codeSplit()->visibleColumns() >= 80);
        QVERIFY(view->generatedPane()->width() >= 320);
        screenshot(QStringLiteral("triton-layout-1920.png"));
        QSettings().remove(QStringLiteral("exercise"));
    }

    void runThisBug_data()
    {
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("verdict");
        QTest::newRow("vector add without a mask")
            << QStringLiteral("Illegal memory access at n = 1000") << QStringLiteral("fault");
        QTest::newRow("softmax without the max shift") << QString() << QStringLiteral("fail");
    }

    void runThisBug()
    {
        QFETCH(QString, title);
        QFETCH(QString, verdict);
        const bool ok = open(course::ActivityKind::SpotTheBug, [&](const course::Activity& a) {
            return title.isEmpty() ? a.id == "no-shift" : QString::fromStdString(a.title) == title;
        });
        QVERIFY(ok);
        auto* view = qobject_cast<app::SpotTheBugView*>(m_window->currentView());
        QVERIFY(view);
        QVERIFY(view->canRunThisBug());
        QVERIFY(view->runThisBug() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->bugRunResult().contains(QStringLiteral("</b>")), 60000);
        const QString result = view->bugRunResult();
        if (verdict == QLatin1String("fault"))
            QVERIFY2(result.contains(QStringLiteral("Fault at line")) && result.contains(QStringLiteral("lane [")),
                     qPrintable(result));
        else
            QVERIFY2(result.contains(QStringLiteral("Case “")), qPrintable(result));
        screenshot(QStringLiteral("run-this-bug-%1.png").arg(verdict));
    }
};

QTEST_MAIN(TestTritonTrack)
#include "tst_tritontrack.moc"
