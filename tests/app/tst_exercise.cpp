// The coding exercise with the real engine worker (tkm-run) and no GPU needed: a compile error lands on its line
// as a margin marker, an inline annotation and a clickable list entry; a good kernel compiles (or passes on a GPU);
// the learner's code is saved as they type and restored; hints, reset and the solution.
#include "apptest.h"

#include "app/activities/exerciseview.h"
#include "app/common/paths.h"
#include "app/editor/findreplacedialog.h"
#include "app/editor/kerneleditor.h"
#include "app/engine/engineclient.h"
#include "app/results/resultsview.h"
#include "app/shell/mainwindow.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QLineEdit>
#include <QListWidget>
#include <QtTest>

#include "modules/course/model.h"

using namespace tkm;

class TestExercise : public QObject
{
    Q_OBJECT
private:
    std::unique_ptr<app::MainWindow> m_window;

    app::ExerciseView* openExercise()
    {
        const course::Course* c = m_window->course();
        for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
            for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a)
                if (c->modules[m].activities[a].kind == course::ActivityKind::Exercise) {
                    m_window->openActivity(m, a);
                    return qobject_cast<app::ExerciseView*>(m_window->currentView());
                }
        return nullptr;
    }

private slots:
    void initTestCase() { tkm::apptest::initTestEnvironment(); }

    void init()
    {
        const QString root = tkm::apptest::fixtureContentDir();
        if (root.isEmpty())
            QSKIP("tests/data/content-good is missing");
        m_window = std::make_unique<app::MainWindow>(app::workerPath());
        m_window->setConfirmHandler([](const QString&) { return true; });
        m_window->resize(1300, 850);
        m_window->show();
        QVERIFY(m_window->loadCourse(root));
    }

    void cleanup() { m_window.reset(); }

    void compileErrorLandsOnItsLine()
    {
        if (!QFileInfo(app::workerPath()).isExecutable())
            QSKIP(qPrintable(QStringLiteral("SKIPPED: the engine worker %1 is not built").arg(app::workerPath())));
        app::ExerciseView* view = openExercise();
        QVERIFY(view);
        app::KernelEditor* editor = view->editor();
        // Type an undefined identifier on a line of its own, after the starter.
        editor->setText(QString::fromStdString(view->activity().as<course::Exercise>()->starter));
        editor->append(QStringLiteral("\n__global__ void broken(float* p) { p[0] = undefined_name; }\n"));
        int badLine = 0;
        for (int l = 0; l < editor->lines() && badLine == 0; ++l)
            if (editor->text(l).contains(QStringLiteral("undefined_name")))
                badLine = l + 1;
        QVERIFY(badLine > 0);
        const int job = view->runKernel();
        QVERIFY(job > 0);
        QTRY_VERIFY_WITH_TIMEOUT(view->lastReport().has_value(), 60000);
        QCOMPARE(view->lastReport()->verdict, tkm::report::Verdict::CompileError);
        QVERIFY2(editor->errorLines().contains(badLine),
                 qPrintable(QStringLiteral("error lines %1, expected %2")
                                .arg(QString::number(editor->errorLines().value(0)), QString::number(badLine))));
        QVERIFY(editor->annotationText(badLine).contains(QStringLiteral("undefined_name")));
        QVERIFY(view->diagnosticsList()->count() >= 1);
        // Clicking the list entry puts the cursor on the line.
        editor->setCursorPosition(0, 0);
        QListWidgetItem* ours = nullptr;
        for (int i = 0; i < view->diagnosticsList()->count(); ++i)
            if (view->diagnosticsList()->item(i)->text().startsWith(QStringLiteral("Line %1,").arg(badLine)))
                ours = view->diagnosticsList()->item(i);
        QVERIFY(ours);
        emit view->diagnosticsList()->itemClicked(ours);
        int line = 0, index = 0;
        editor->getCursorPosition(&line, &index);
        QCOMPARE(line + 1, badLine);
        // The results dock shows the same report.
        QVERIFY(m_window->results()->correctnessText().contains(QStringLiteral("undefined_name")));
    }

    void goodKernelCompilesOrPasses()
    {
        if (!QFileInfo(app::workerPath()).isExecutable())
            QSKIP(qPrintable(QStringLiteral("SKIPPED: the engine worker %1 is not built").arg(app::workerPath())));
        app::ExerciseView* view = openExercise();
        QVERIFY(view);
        view->editor()->setText(QString::fromStdString(view->activity().as<course::Exercise>()->solution));
        QVERIFY(view->setMetaValue(QStringLiteral("BLOCK_SIZE"), 256));
        view->runKernel();
        QTRY_VERIFY_WITH_TIMEOUT(view->lastReport().has_value(), 60000);
        const tkm::report::RunReport& report = *view->lastReport();
        QVERIFY2(report.verdict == tkm::report::Verdict::Compiled || report.verdict == tkm::report::Verdict::Pass,
                 report.summary.c_str());
        QVERIFY(view->editor()->errorLines().isEmpty());
        // The meta-parameters the report echoes (absent when the run stopped before them).
        const auto block = report.meta.find("BLOCK_SIZE");
        QCOMPARE(block == report.meta.end() ? int64_t(256) : block->second, int64_t(256));
    }

    void codeIsSavedAndRestored()
    {
        app::ExerciseView* view = openExercise();
        QVERIFY(view);
        const QString path = view->codePath();
        view->editor()->setText(QStringLiteral("// my work in progress\n"));
        auto onDisk = [&path] {
            QFile f(path);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
        };
        QTRY_COMPARE(onDisk(), QStringLiteral("// my work in progress\n")); // debounced save
        view->editor()->append(QStringLiteral("int x;\n"));
        // Leaving the activity saves at once; coming back restores.
        m_window->goNext();
        m_window->goPrevious();
        view = qobject_cast<app::ExerciseView*>(m_window->currentView());
        QVERIFY(view);
        QCOMPARE(view->editor()->text(), QStringLiteral("// my work in progress\nint x;\n"));
    }

    void hintsResetSolutionFind()
    {
        app::ExerciseView* view = openExercise();
        QVERIFY(view);
        const auto* ex = view->activity().as<course::Exercise>();
        for (int i = 0; i < static_cast<int>(ex->hints.size()); ++i)
            QVERIFY(view->showNextHint());
        QVERIFY(!view->showNextHint());
        QCOMPARE(view->hintsShown(), static_cast<int>(ex->hints.size()));
        view->editor()->setText(QStringLiteral("garbage"));
        view->reset(); // confirmed by the test's handler
        QCOMPARE(view->editor()->text(), QString::fromStdString(ex->starter));
        view->editor()->undo(); // reset is one undo step
        QCOMPARE(view->editor()->text(), QStringLiteral("garbage"));
        QVERIFY(view->showSolution());
        QVERIFY(view->solutionDialog() && view->solutionDialog()->isVisible());
        // Find / replace.
        view->editor()->setText(QStringLiteral("a b a b a"));
        app::FindReplaceDialog* find = view->editor()->findReplaceDialog();
        find->setFindText(QStringLiteral("a"));
        find->replaceEdit()->setText(QStringLiteral("x"));
        QCOMPARE(find->replaceAll(), 3);
        QCOMPARE(view->editor()->text(), QStringLiteral("x b x b x"));
    }
};

QTEST_MAIN(TestExercise)
#include "tst_exercise.moc"
