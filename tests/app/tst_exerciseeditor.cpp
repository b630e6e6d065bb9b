// The instructor's exercise editor: every built-in exercise folder round-trips (same JSON, same sources, unknown
// fields kept); form and code edits share one undo history and mark the editor modified; a spec error and the weak-case
// warnings land on their fields and clicking one focuses it; Validate runs the engine (no GPU here: compile results
// and warnings); the unsaved-changes prompt; screenshots of the editor and of the verdict table.
#include "apptest.h"

#include "app/editor/kerneleditor.h"
#include "app/instructor/exercise/exerciseeditor.h"
#include "app/instructor/exercise/specform.h"
#include "app/instructor/exercise/verdictview.h"

#include <QApplication>
#include <QComboBox>
#include <QDirIterator>
#include <QFile>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <nlohmann/json.hpp>

#include "engine/problem/spec.h"

using namespace tkm;
using app::ExerciseEditor;
using app::SpecJson;

namespace {

QByteArray readAll(const QString &path)
{
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Copies `from` into `parent`/<its name>; returns the copy.
QString copyFolder(const QString &from, const QString &parent)
{
  const QString to = QDir(parent).filePath(QFileInfo(from).fileName());
  QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
  while (it.hasNext()) {
    const QString file = it.next();
    const QString target = QDir(to).filePath(QDir(from).relativeFilePath(file));
    QDir().mkpath(QFileInfo(target).absolutePath());
    QFile::copy(file, target);
  }
  return to;
}

QStringList exerciseFolders()
{
  QStringList out;
  QDirIterator it(apptest::realContentDir(), {QStringLiteral("exercise.json")}, QDir::Files,
                  QDirIterator::Subdirectories);
  while (it.hasNext())
    out << QFileInfo(it.next()).absolutePath();
  out.sort();
  return out;
}

QString weakFixture() { return apptest::testDataDir() + QStringLiteral("/weak/weak-vector-add"); }

QJsonObject validateFixture(const QString &name)
{
  return QJsonDocument::fromJson(readAll(apptest::testDataDir() + QStringLiteral("/validate/") + name)).object();
}

// Shows `editor` at `size` and opens a fresh copy of `folder` made in `tmp`; returns the copy (empty on failure).
QString openShown(ExerciseEditor &editor, const QString &folder, const QTemporaryDir &tmp, QSize size)
{
  const QString copy = copyFolder(folder, tmp.path());
  editor.resize(size);
  editor.show();
  if (!QTest::qWaitForWindowExposed(&editor))
    return {};
  QString error;
  return editor.load(copy, &error) ? copy : QString();
}

// Opens a fresh copy of the built-in vector-add exercise made in `tmp`; returns the copy (empty on failure).
QString openVectorAdd(ExerciseEditor &editor, const QTemporaryDir &tmp)
{
  const QString copy =
      copyFolder(apptest::realContentDir() + QStringLiteral("/02-vector-add/exercises/vector-add"), tmp.path());
  QString error;
  return editor.load(copy, &error) ? copy : QString();
}

void commitLine(QWidget *w, const QString &text)
{
  auto *line = qobject_cast<QLineEdit *>(w);
  QVERIFY(line);
  line->setText(text);
  emit line->editingFinished();
}

} // namespace

class TestExerciseEditor : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() { apptest::initTestEnvironment(); }

  void roundTripsEveryBuiltInExercise_data()
  {
    QTest::addColumn<QString>("folder");
    const QStringList folders = exerciseFolders();
    QCOMPARE(folders.size(), 16);
    for (const QString &f : folders)
      QTest::newRow(qPrintable(QFileInfo(f).fileName())) << f;
  }

  void roundTripsEveryBuiltInExercise()
  {
    QFETCH(QString, folder);
    QTemporaryDir tmp;
    const QString copy = copyFolder(folder, tmp.path());
    // A field the form knows nothing about must survive.
    auto spec = nlohmann::ordered_json::parse(readAll(copy + QStringLiteral("/exercise.json")).toStdString());
    spec["x_instructor_note"] = {{"reviewed", true}, {"by", "test"}};
    QFile out(copy + QStringLiteral("/exercise.json"));
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(QByteArray::fromStdString(spec.dump(2)));
    out.close();

    ExerciseEditor editor;
    QString error;
    QVERIFY2(editor.load(copy, &error), qPrintable(error));
    QVERIFY(!editor.isModified());
    QVERIFY(editor.form()->fieldPointers().contains(QStringLiteral("/x_instructor_note")));
    QVERIFY2(editor.save(&error), qPrintable(error));
    const auto saved = nlohmann::json::parse(readAll(copy + QStringLiteral("/exercise.json")).toStdString());
    QVERIFY(saved == nlohmann::json::parse(spec.dump()));
    const auto original = nlohmann::json::parse(readAll(folder + QStringLiteral("/exercise.json")).toStdString());
    nlohmann::json withoutNote = saved;
    withoutNote.erase("x_instructor_note");
    QVERIFY(withoutNote == original);
    // Every other file byte for byte.
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
      const QString file = it.next();
      const QString rel = QDir(folder).relativeFilePath(file);
      if (rel != QLatin1String("exercise.json"))
        QVERIFY2(readAll(file) == readAll(QDir(copy).filePath(rel)), qPrintable(rel));
    }
    // Saving keeps the built-in layout: small objects on one line, so a diff stays readable.
    const QByteArray text = readAll(copy + QStringLiteral("/exercise.json"));
    QVERIFY(text.contains("{\"name\": "));
  }

  void formAndCodeEditsShareOneUndoHistory()
  {
    QTemporaryDir tmp;
    ExerciseEditor editor;
    const QString copy = openVectorAdd(editor, tmp);
    QVERIFY(!copy.isEmpty());
    QString error;
    QSignalSpy modified(&editor, &ExerciseEditor::modifiedChanged);

    commitLine(editor.form()->fieldWidget(QStringLiteral("/title")), QStringLiteral("Vector add, edited"));
    QCOMPARE(QString::fromStdString(editor.document().value("/title").get<std::string>()),
             QStringLiteral("Vector add, edited"));
    QVERIFY(editor.isModified());
    QCOMPARE(modified.count(), 1);

    app::KernelEditor *solution = editor.sourceEditor(QStringLiteral("solution.cu"));
    QVERIFY(solution);
    const QString before = editor.document().source(QStringLiteral("solution.cu"));
    solution->insertAt(QStringLiteral("// edited\n"), 0, 0);
    QCOMPARE(editor.document().source(QStringLiteral("solution.cu")), QStringLiteral("// edited\n") + before);

    commitLine(editor.form()->fieldWidget(QStringLiteral("/cases/0/sizes")), QStringLiteral("n = 7"));
    QCOMPARE(editor.document().value("/cases/0/sizes/n").get<int>(), 7);
    QCOMPARE(editor.undoStack()->count(), 3);

    editor.undoStack()->undo(); // sizes
    QCOMPARE(editor.document().value("/cases/0/sizes/n").get<int>(), 1);
    editor.undoStack()->undo(); // code
    QCOMPARE(editor.document().source(QStringLiteral("solution.cu")), before);
    QCOMPARE(solution->text(), before);
    editor.undoStack()->undo(); // title
    QVERIFY(!editor.isModified());
    QCOMPARE(qobject_cast<QLineEdit *>(editor.form()->fieldWidget(QStringLiteral("/title")))->text(),
             QStringLiteral("Masked vector add"));
    editor.undoStack()->redo();
    editor.undoStack()->redo();
    QCOMPARE(solution->text(), QStringLiteral("// edited\n") + before);
    QVERIFY(editor.isModified());

    // Adding a bug variant adds a code tab that starts from the solution; undo removes it again.
    editor.setSpecValue("/bugs/2", SpecJson{{"file", "bugs/new.cu"}, {"title", "t"}, {"expect", {{"verdict", "fail"}}}});
    QVERIFY(editor.sourceEditor(QStringLiteral("bugs/new.cu")));
    QCOMPARE(editor.document().source(QStringLiteral("bugs/new.cu")), editor.document().source(QStringLiteral("solution.cu")));
    QVERIFY(editor.save(&error));
    QVERIFY(QFile::exists(copy + QStringLiteral("/bugs/new.cu")));
    QVERIFY(!editor.isModified());
    editor.undoStack()->undo();
    QVERIFY(!editor.sourceEditor(QStringLiteral("bugs/new.cu")));
  }

  void aSpecErrorLandsOnItsField()
  {
    QTemporaryDir tmp;
    ExerciseEditor editor;
    const QString copy = openVectorAdd(editor, tmp);
    QVERIFY(!copy.isEmpty());
    QString error;
    QCOMPARE(editor.form()->messageAt(QStringLiteral("/params/2/role")), QString());
    editor.setSpecValue("/params/2/role", "output");
    QTRY_VERIFY(!editor.form()->messageAt(QStringLiteral("/params/2/role")).isEmpty());
    QVERIFY(editor.form()->messageAt(QStringLiteral("/params/2/role")).contains(QStringLiteral("is not one of in, out, inout")));
    QWidget *role = editor.form()->fieldWidget(QStringLiteral("/params/2/role"));
    QVERIFY(qobject_cast<QComboBox *>(role));
    QCOMPARE(role->objectName(), QStringLiteral("/params/2/role"));
    QVERIFY(!role->styleSheet().isEmpty());
    // No other field carries it.
    QCOMPARE(editor.form()->messageAt(QStringLiteral("/params/1/role")), QString());
    editor.undoStack()->undo();
    QTRY_COMPARE(editor.form()->messageAt(QStringLiteral("/params/2/role")), QString());

    // A pointer below a field lands on that field: /cases/0/sizes/n on the sizes of case 1.
    commitLine(editor.form()->fieldWidget(QStringLiteral("/cases/0/sizes")), QStringLiteral("n = 0"));
    QTRY_VERIFY(!editor.form()->messageAt(QStringLiteral("/cases/0/sizes")).isEmpty());
    QVERIFY(editor.form()->messageAt(QStringLiteral("/cases/0/sizes")).contains(QStringLiteral("/cases/0/sizes")));

    // A malformed entry is refused on the field itself and changes nothing.
    const int steps = editor.undoStack()->count();
    commitLine(editor.form()->fieldWidget(QStringLiteral("/meta/0/allowed")), QStringLiteral("128, lots"));
    QCOMPARE(editor.undoStack()->count(), steps);
    QVERIFY(editor.form()->messageAt(QStringLiteral("/meta/0/allowed")).contains(QStringLiteral("not an integer")));
  }

  void warningsLandOnTheirFieldsAndClickingFocusesThem()
  {
    QTemporaryDir tmp;
    ExerciseEditor editor;
    QVERIFY(!openShown(editor, weakFixture(), tmp, {1400, 900}).isEmpty());
    QTRY_VERIFY(editor.form()->messageAt(QStringLiteral("/tolerance/f32/atol")).contains(QStringLiteral("looser")));
    QVERIFY(editor.form()->messageAt(QStringLiteral("/params/0/init")).contains(QStringLiteral("no input is ever negative")));
    QVERIFY(editor.form()->messageAt(QStringLiteral("/cases")).contains(QStringLiteral("multiple of the block")));

    const QJsonObject result = validateFixture(QStringLiteral("h200-weak-vector-add.json"));
    QVERIFY(!result.isEmpty());
    editor.showValidationResult(result);
    QTableWidget *table = editor.verdicts()->table();
    QCOMPARE(table->rowCount(), 5);
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("FAIL")); // bugs/no-mask.cu passes
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("ok"));
    QVERIFY(editor.form()->messageAt(QStringLiteral("/bugs/0")).contains(QStringLiteral("passes every case")));

    QListWidget *messages = editor.verdicts()->messages();
    QListWidgetItem *tolerance = nullptr;
    for (int i = 0; i < messages->count(); ++i)
      if (messages->item(i)->text().startsWith(QStringLiteral("/tolerance/f32/rtol")))
        tolerance = messages->item(i);
    QVERIFY(tolerance);
    QApplication::setActiveWindow(&editor);
    emit messages->itemClicked(tolerance);
    QTRY_VERIFY(editor.form()->fieldWidget(QStringLiteral("/tolerance/f32/rtol"))->hasFocus());
  }

  void validateRunsTheEngineAndShowsCompileResultsWithoutAGpu()
  {
    const QString engine = qEnvironmentVariable("TKM_RUN");
    if (engine.isEmpty() || !QFileInfo(engine).isExecutable())
      QSKIP("TKM_RUN is not set (run through ctest)");
    QTemporaryDir tmp;
    const QString copy = copyFolder(weakFixture(), tmp.path());
    ExerciseEditor editor;
    editor.setEnginePath(engine);
    QString error;
    QVERIFY(editor.load(copy, &error));
    // Validate what is on screen, not what is saved: break the starter without saving.
    editor.sourceEditor(QStringLiteral("starter.cu"))->insertAt(QStringLiteral("not CUDA;\n"), 0, 0);
    QSignalSpy finished(&editor, &ExerciseEditor::validationFinished);
    editor.validate();
    QVERIFY(editor.isValidating());
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 180000);
    QCOMPARE(finished.first().first().toBool(), false);
    const QString status = editor.verdicts()->statusText();
    QVERIFY2(status.contains(QStringLiteral("No NVIDIA GPU, so no GPU verdicts")) || status.contains(QStringLiteral("GPU verdicts on")),
             qPrintable(status));
    QTableWidget *table = editor.verdicts()->table();
    QCOMPARE(table->rowCount(), 5);
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("yes"));
    QCOMPARE(table->item(3, 1)->text(), QStringLiteral("no")); // the starter
    QVERIFY(!editor.sourceEditor(QStringLiteral("starter.cu"))->errorLines().isEmpty());
    QVERIFY(editor.isModified()); // validating saved nothing
    QVERIFY(!readAll(copy + QStringLiteral("/starter.cu")).startsWith("not CUDA"));
  }

  void tritonTrackFilesAreEditedAndValidated()
  {
    const QString engine = qEnvironmentVariable("TKM_RUN");
    if (engine.isEmpty() || !QFileInfo(engine).isExecutable())
      QSKIP("TKM_RUN is not set (run through ctest)");
    QTemporaryDir tmp;
    ExerciseEditor editor;
    editor.setEnginePath(engine);
    const QString copy = openVectorAdd(editor, tmp);
    QVERIFY(!copy.isEmpty());
    // The Triton track's files have their own tabs, highlighted as Python.
    for (const QString& rel : {QStringLiteral("starter.py"), QStringLiteral("solution.py"),
                              QStringLiteral("reference.py"), QStringLiteral("bugs/no-mask.py")}) {
      QVERIFY2(editor.sourceEditor(rel), qPrintable(rel));
      QCOMPARE(editor.sourceEditor(rel)->language(), QStringLiteral("python"));
    }
    QCOMPARE(editor.sourceEditor(QStringLiteral("starter.cu"))->language(), QStringLiteral("cuda"));
    // Validate what is on screen: a Triton solution our checker refuses lands on its line.
    tkm::app::KernelEditor *solution = editor.sourceEditor(QStringLiteral("solution.py"));
    const QString text = solution->text();
    QVERIFY(text.contains(QStringLiteral("tl.arange(0, BLOCK_SIZE)")));
    solution->setText(QString(text).replace(QStringLiteral("tl.arange(0, BLOCK_SIZE)"), QStringLiteral("tl.arange(0, 1000)")));
    int line = 0;
    for (int l = 0; l < solution->lines() && line == 0; ++l)
      if (solution->text(l).contains(QStringLiteral("tl.arange(0, 1000)")))
        line = l + 1;
    QSignalSpy finished(&editor, &ExerciseEditor::validationFinished);
    editor.validate();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 180000);
    QCOMPARE(finished.first().first().toBool(), false);
    QVERIFY2(solution->errorLines().contains(line), qPrintable(QString::number(solution->errorLines().value(0))));
    QVERIFY(solution->annotationText(line).contains(QStringLiteral("power of two")));
    // Saving writes the edited .py.
    QString error;
    QVERIFY2(editor.save(&error), qPrintable(error));
    QVERIFY(readAll(copy + QStringLiteral("/solution.py")).contains("tl.arange(0, 1000)"));
  }

  // Both tracks' prompts and hints are edited: the Triton section has its own prompt file (a Markdown tab that
  // starts from the CUDA prompt) and its own hints; saving writes both and the spec parses.
  void tritonPromptAndHintsAreEdited()
  {
    QTemporaryDir tmp;
    ExerciseEditor editor;
    const QString copy = openVectorAdd(editor, tmp);
    QVERIFY(!copy.isEmpty());
    QVERIFY(editor.sourceEditor(QStringLiteral("prompt.md"))); // the CUDA prompt has its tab too
    QVERIFY(editor.form()->fieldWidget(QStringLiteral("/triton/hints")));
    // The content may have a Triton prompt by now: start from a spec without one.
    const bool hadPrompt = editor.sourceEditor(QStringLiteral("prompt-triton.md")) != nullptr;
    editor.setSpecValue("/triton/prompt", SpecJson(SpecJson::value_t::discarded));
    editor.setSpecValue("/triton/hints", SpecJson(SpecJson::value_t::discarded));
    QVERIFY(!editor.sourceEditor(QStringLiteral("prompt-triton.md")));
    commitLine(editor.form()->fieldWidget(QStringLiteral("/triton/prompt")), QStringLiteral("prompt-triton.md"));
    tkm::app::KernelEditor *prompt = editor.sourceEditor(QStringLiteral("prompt-triton.md"));
    QVERIFY(prompt);
    if (!hadPrompt) // a new Triton prompt starts from the CUDA one
      QCOMPARE(prompt->text().toUtf8(), readAll(copy + QStringLiteral("/prompt.md")));
    bool labelled = false;
    for (QTabWidget *tabs : editor.findChildren<QTabWidget *>())
      for (int i = 0; i < tabs->count(); ++i)
        labelled = labelled || (tabs->tabText(i) == QStringLiteral("Triton prompt") &&
                                tabs->widget(i) == prompt);
    QVERIFY(labelled);
    prompt->setText(QStringLiteral("# Vector add in Triton\n\nOne program per tile.\n"));
    editor.setSpecValue("/triton/hints", SpecJson::array({"`pid = tl.program_id(0)`", "mask both"}));
    QString error;
    QVERIFY2(editor.save(&error), qPrintable(error));
    QCOMPARE(readAll(copy + QStringLiteral("/prompt-triton.md")), QByteArray("# Vector add in Triton\n\nOne program per tile.\n"));
    const auto spec = nlohmann::json::parse(readAll(copy + QStringLiteral("/exercise.json")).toStdString());
    QCOMPARE(QString::fromStdString(spec["triton"]["prompt"].get<std::string>()), QStringLiteral("prompt-triton.md"));
    QCOMPARE(spec["triton"]["hints"].size(), size_t(2));
    QVERIFY(spec["hints"] != spec["triton"]["hints"]); // the CUDA hints are untouched
    const auto parsed = tkm::problem::loadSpec(copy.toStdString());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(parsed->triton->hints.at(1), std::string("mask both"));
  }

  void unsavedChangesPrompt()
  {
    QTemporaryDir tmp;
    const QString copy = copyFolder(weakFixture(), tmp.path());
    ExerciseEditor editor;
    QString error;
    QVERIFY(editor.load(copy, &error));
    QVERIFY(editor.maybeSave()); // nothing to save: no question
    editor.setSpecValue("/title", "Renamed");
    QString asked;
    editor.setPromptHandler([&](const QString &what) {
      asked = what;
      return QMessageBox::Cancel;
    });
    QVERIFY(!editor.maybeSave());
    QCOMPARE(asked, QStringLiteral("weak-vector-add"));
    editor.setPromptHandler([](const QString &) { return QMessageBox::Discard; });
    QVERIFY(editor.maybeSave());
    QVERIFY(!readAll(copy + QStringLiteral("/exercise.json")).contains("Renamed"));
    editor.setPromptHandler([](const QString &) { return QMessageBox::Save; });
    QVERIFY(editor.maybeSave());
    QVERIFY(readAll(copy + QStringLiteral("/exercise.json")).contains("Renamed"));
    QVERIFY(!editor.isModified());
  }

  void screenshots()
  {
    QTemporaryDir tmp;
    ExerciseEditor editor;
    QVERIFY(!openShown(editor, weakFixture(), tmp, {1500, 950}).isEmpty());
    editor.showValidationResult(validateFixture(QStringLiteral("h200-weak-vector-add.json")));
    editor.showSource(QStringLiteral("bugs/no-mask.cu"));
    editor.focusField(QStringLiteral("/tolerance/f32/atol"));
    QTest::qWait(300);
    const QString dir = apptest::screenshotDir();
    QVERIFY(editor.grab().save(dir + QStringLiteral("/exercise-editor.png")));
    QVERIFY(editor.verdicts()->grab().save(dir + QStringLiteral("/exercise-verdicts.png")));

    // A spec error on its field.
    editor.setSpecValue("/params/2/role", "output");
    QTRY_VERIFY(!editor.form()->messageAt(QStringLiteral("/params/2/role")).isEmpty());
    editor.focusField(QStringLiteral("/params/2/role"));
    QTest::qWait(300);
    QVERIFY(editor.grab().save(dir + QStringLiteral("/exercise-editor-error.png")));

    // A built-in exercise as it opens (no validation yet).
    ExerciseEditor builtIn;
    QString error;
    builtIn.resize(1500, 950);
    builtIn.show();
    QVERIFY(builtIn.load(apptest::realContentDir() + QStringLiteral("/06-blocked-matmul/exercises/matmul-fp16"), &error));
    QTest::qWait(300);
    QVERIFY(builtIn.grab().save(dir + QStringLiteral("/exercise-editor-matmul.png")));
  }
};

QTEST_MAIN(TestExerciseEditor)
#include "tst_exerciseeditor.moc"
