// The Triton track of the exercise view with the real content and the real engine worker, no GPU needed (the
// CPU interpreter runs Triton kernels): vector add and fused softmax open in Triton, a correct kernel passes, a
// missing mask faults on its line with program and lane; the Generated CUDA pane maps a Triton line to its CUDA
// lines and back; the PTX tab fills; the track is remembered and recorded with each run; "Run this bug" runs two
// spot-the-bug listings against their exercises. Screenshots go to <build>/screenshots/.
#include "apptest.h"

#include "app/activities/exerciseview.h"
#include "app/activities/markdownview.h"
#include "app/activities/spotthebugview.h"
#include "app/common/paths.h"
#include "app/editor/codeview.h"
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
    static QJsonObject runEditor(app::ExerciseView* view)
    {
        const int job = view->runKernel();
        if (job <= 0)
            return {};
        const QJsonObject before = view->lastReport();
        if (!QTest::qWaitFor([&] { return view->lastReport() != before; }, 60000))
            return {};
        return view->lastReport();
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
        QJsonObject report = runEditor(view);
        QCOMPARE(report.value(QStringLiteral("language")).toString(), QStringLiteral("triton"));
        QVERIFY2(report.value(QStringLiteral("verdict")).toString() == QLatin1String("pass"),
                 qPrintable(report.value(QStringLiteral("summary")).toString()));
        if (report.value(QStringLiteral("executor")).toString() == QLatin1String("cpu-interpreter"))
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
        QCOMPARE(report.value(QStringLiteral("verdict")).toString(), QStringLiteral("fault"));
        QCOMPARE(report.value(QStringLiteral("fault")).toObject().value(QStringLiteral("line")).toInt(), badLine);
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
        const QJsonObject report = runEditor(view);
        QCOMPARE(report.value(QStringLiteral("verdict")).toString(), QStringLiteral("compile_error"));
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
        const QJsonObject report = runEditor(view);
        QCOMPARE(report.value(QStringLiteral("verdict")).toString(), QStringLiteral("compile_error"));
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
