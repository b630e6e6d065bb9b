// Each track of an exercise speaks its own language (issue 18): on a copy of module 01 whose scaled-copy exercise
// gets a Triton prompt and Triton hints in its spec's "triton" block, the Triton track shows that prompt and those
// hints, the CUDA track its own, and each track keeps the hints shown in it; without a Triton prompt the Triton
// track shows the CUDA prompt under a one-line note and has no hints (never the CUDA ones).
#include "apptest.h"

#include "app/activities/exercisetrack.h"
#include "app/activities/exerciseview.h"
#include "app/activities/markdownview.h"
#include "app/progress/sqlitestatestore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include "modules/course/loader.h"
#include "modules/course/model.h"
#include "modules/progress/store.h"

using namespace tkm;

namespace {

bool copyTree(const QString& from, const QString& to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(file);
        QDir().mkpath(QFileInfo(target).absolutePath());
        if (!QFile::copy(file, target))
            return false;
    }
    return true;
}

const QString kTritonPrompt = QStringLiteral("# Scaled copy, in Triton\n\nOne program per tile: `tl.program_id(0)`.\n");
const QStringList kTritonHints = {QStringLiteral("Triton first: `offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)`."),
                                  QStringLiteral("Triton second: `mask = offs < n` on the load and the store.")};

} // namespace

class TestExerciseTracks : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::unique_ptr<app::SqliteStateStore> m_states;

    // Module 01 copied; its scaled-copy spec's "triton" block gets `prompt`/`hints` when `withTritonText`,
    // loses them otherwise (the content may have its own by now).
    std::optional<course::Module> module(bool withTritonText, const QString& name)
    {
        const QString root = m_dir.filePath(name);
        if (!copyTree(apptest::realContentDir() + QStringLiteral("/01-programming-model"), root))
            return std::nullopt;
        const QString specPath = root + QStringLiteral("/exercises/scaled-copy/exercise.json");
        QFile f(specPath);
        if (!f.open(QIODevice::ReadOnly))
            return std::nullopt;
        QJsonObject spec = QJsonDocument::fromJson(f.readAll()).object();
        f.close();
        QJsonObject triton = spec.value(QStringLiteral("triton")).toObject();
        triton.remove(QStringLiteral("prompt"));
        triton.remove(QStringLiteral("hints"));
        if (withTritonText) {
            QFile p(root + QStringLiteral("/exercises/scaled-copy/prompt-triton.md"));
            if (!p.open(QIODevice::WriteOnly) || p.write(kTritonPrompt.toUtf8()) < 0)
                return std::nullopt;
            triton.insert(QStringLiteral("prompt"), QStringLiteral("prompt-triton.md"));
            triton.insert(QStringLiteral("hints"), QJsonArray::fromStringList(kTritonHints));
        }
        spec.insert(QStringLiteral("triton"), triton);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return std::nullopt;
        f.write(QJsonDocument(spec).toJson());
        f.close();
        course::ModuleLoadResult loaded = course::loadModule(root.toStdString());
        if (!loaded.module)
            qWarning().noquote() << QString::fromStdString(loaded.diagnostics.empty() ? std::string()
                                                                                 : loaded.diagnostics[0].format());
        return loaded.module ? std::optional<course::Module>(std::move(*loaded.module)) : std::nullopt;
    }

    static const course::Activity* scaledCopy(const course::Module& m)
    {
        for (const course::Activity& a : m.activities)
            if (const auto* ex = a.as<course::Exercise>(); ex && ex->specId == "scaled-copy")
                return &a;
        return nullptr;
    }

private slots:
    void initTestCase()
    {
        apptest::initTestEnvironment();
        QVERIFY(m_dir.isValid());
        auto store = progress::Store::open(m_dir.filePath(QStringLiteral("progress.sqlite")).toStdString());
        QVERIFY(static_cast<bool>(store));
        m_states = std::make_unique<app::SqliteStateStore>(std::make_shared<progress::Store>(std::move(*store)));
    }

    void loaderReadsTheTritonPromptAndHints()
    {
        const auto m = module(true, QStringLiteral("loaded"));
        QVERIFY(m);
        const course::Activity* a = scaledCopy(*m);
        QVERIFY(a);
        const auto* ex = a->as<course::Exercise>();
        QCOMPARE(QString::fromStdString(ex->tritonPrompt), kTritonPrompt);
        QCOMPARE(ex->tritonHints.size(), size_t(2));
        QCOMPARE(QString::fromStdString(ex->tritonHints[0]), kTritonHints[0]);
        QCOMPARE(app::trackPrompt(*ex, app::Track::Triton), kTritonPrompt);
        QCOMPARE(app::trackHints(*ex, app::Track::Triton), kTritonHints);
        QCOMPARE(app::trackPrompt(*ex, app::Track::Cuda), QString::fromStdString(ex->prompt));
        QCOMPARE(app::trackHints(*ex, app::Track::Cuda).size(), static_cast<qsizetype>(ex->hints.size()));
    }

    void eachTrackShowsItsPromptAndHints()
    {
        const auto m = module(true, QStringLiteral("with"));
        QVERIFY(m);
        const course::Activity* a = scaledCopy(*m);
        QVERIFY(a);
        const auto* ex = a->as<course::Exercise>();
        app::ExerciseView view(*a,
                               app::ActivityContext{nullptr, m_states.get(), &*m, [](const QString&) { return true; }});
        view.resize(1400, 900);
        view.show();
        QCOMPARE(view.track(), app::Track::Triton);
        const QString tritonPrompt = view.promptView()->toPlainText();
        QVERIFY2(tritonPrompt.contains(QStringLiteral("Scaled copy, in Triton")), qPrintable(tritonPrompt));
        QVERIFY(!tritonPrompt.contains(app::promptNote()));
        QVERIFY(view.showNextHint());
        QVERIFY(view.showNextHint());
        QVERIFY(!view.showNextHint()); // two Triton hints, whatever the CUDA track has
        QCOMPARE(view.hintsShown(), 2);
        const QString hints = view.hintsView()->toPlainText();
        QVERIFY2(hints.contains(QStringLiteral("Triton first")) && hints.contains(QStringLiteral("Triton second")),
                 qPrintable(hints));
        QVERIFY2(!hints.contains(QStringLiteral("blockIdx")), qPrintable(hints));
        view.grab().save(apptest::screenshotDir() + QStringLiteral("/exercise-triton-prompt-hints.png"));

        // The CUDA track: its prompt, its hints, none shown yet there.
        QVERIFY(view.setTrack(app::Track::Cuda));
        QVERIFY(!view.promptView()->toPlainText().contains(QStringLiteral("Scaled copy, in Triton")));
        QCOMPARE(view.hintsShown(), 0);
        QVERIFY(view.hintsView()->isHidden());
        QVERIFY(view.showNextHint());
        QVERIFY(view.hintsView()->toPlainText().contains(
            QString::fromStdString(ex->hints.front()).section(QLatin1Char('`'), 0, 0).trimmed()));
        QVERIFY(!view.hintsView()->toPlainText().contains(QStringLiteral("Triton first")));

        // Back in Triton, its two hints are there again.
        QVERIFY(view.setTrack(app::Track::Triton));
        QCOMPARE(view.hintsShown(), 2);
        QVERIFY(view.hintsView()->toPlainText().contains(QStringLiteral("Triton second")));
    }

    void withoutATritonPromptTheCudaOneCarriesANote()
    {
        const auto m = module(false, QStringLiteral("without"));
        QVERIFY(m);
        const course::Activity* a = scaledCopy(*m);
        QVERIFY(a);
        const auto* ex = a->as<course::Exercise>();
        QVERIFY(ex->tritonPrompt.empty() && ex->tritonHints.empty());
        app::ExerciseView view(*a, app::ActivityContext{nullptr, nullptr, &*m, [](const QString&) { return true; }});
        view.resize(1400, 900);
        view.show();
        QCOMPARE(view.track(), app::Track::Triton);
        const QString text = view.promptView()->toPlainText();
        QVERIFY2(text.startsWith(app::promptNote()), qPrintable(text)); // one line, above the CUDA prompt
        QVERIFY(!view.showNextHint());                                  // never the CUDA hints
        QCOMPARE(view.hintsShown(), 0);
        QPushButton* hint = nullptr;
        for (QPushButton* b : view.findChildren<QPushButton*>())
            if (b->text().contains(QStringLiteral("hints")))
                hint = b;
        QVERIFY(hint && !hint->isEnabled());
        QVERIFY(view.setTrack(app::Track::Cuda));
        const QString cuda = view.promptView()->toPlainText();
        QVERIFY(!cuda.contains(app::promptNote()));
        QVERIFY2(cuda.size() > 40 && text.contains(cuda.left(40)), qPrintable(cuda)); // the same CUDA prompt
        QVERIFY(view.showNextHint());
        view.grab().save(apptest::screenshotDir() + QStringLiteral("/exercise-triton-cuda-prompt-note.png"));
    }
};

QTEST_MAIN(TestExerciseTracks)
#include "tst_exercisetracks.moc"
