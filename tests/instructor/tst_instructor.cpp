// Instructor mode end to end (offscreen): a module with one activity of each kind made in the editors, saved,
// reloaded, exported and imported into a fresh profile; a built-in module edited and restored; undo/redo; the
// unsaved-change prompt; validation errors on their fields; malicious packs refused through the UI path with
// their messages and nothing written; screenshots of the editors in <build>/screenshots.
#include "../app/apptest.h"

#include "app/activities/activityview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/quizview.h"
#include "app/course/coursenavigator.h"
#include "app/instructor/activitykinds.h"
#include "app/instructor/dragmatcheditor.h"
#include "app/instructor/exerciseactivityeditor.h"
#include "app/instructor/lessoneditor.h"
#include "app/instructor/quizeditor.h"
#include "app/instructor/spotthebugeditor.h"
#include "app/instructor/stepthrougheditor.h"
#include "app/instructor/exercise/exerciseeditor.h"
#include "app/instructor/exercisewindow.h"
#include "app/instructor/instructormode.h"
#include "app/instructor/instructorpage.h"
#include "app/shell/mainwindow.h"

#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <zip.h>

#include "modules/course/loader.h"
#include "modules/course/validate.h"
#include "modules/course/writer.h"

#include <fstream>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tkm;
namespace fs = std::filesystem;

namespace {

// A window with instructor mode on a profile folder; every question is answered by the test.
struct Session {
  explicit Session(const QString &dataDir)
      : window(QStringLiteral("/nonexistent/tkm-run")), mode(new app::InstructorMode(&window, root(), dataDir))
  {
    window.setConfirmHandler([](const QString &) { return true; });
    mode->setConfirmHandler([](const QString &) { return true; });
    mode->setMessageHandler([this](const QString &title, const QString &text) { messages << title + QStringLiteral(": ") + text; });
    mode->setUnsavedHandler([this](const QString &question) {
      prompts << question;
      return unsavedAnswer;
    });
    window.resize(1400, 900);
  }
  static QString root() { return apptest::realContentDir(); }
  app::InstructorPage *page() const { return mode->page(); }

  app::MainWindow window;
  app::InstructorMode *mode;
  QStringList messages;
  QStringList prompts;
  app::UnsavedChoice unsavedAnswer = app::UnsavedChoice::Cancel;
};

QString problemsText(const QList<app::FieldProblem> &problems)
{
  QStringList lines;
  for (const auto &p : problems)
    lines << p.location + QStringLiteral(" ") + p.pointer + QStringLiteral(": ") + p.message;
  return lines.join(QLatin1Char('\n'));
}

const course::Module *findModule(const app::MainWindow &window, const std::string &id)
{
  return window.course() ? window.course()->findModule(id) : nullptr;
}

int moduleIndex(const app::MainWindow &window, const std::string &id)
{
  for (int i = 0; window.course() && i < static_cast<int>(window.course()->modules.size()); ++i)
    if (window.course()->modules[i].id == id)
      return i;
  return -1;
}

// {module, activity} of the first activity of `kind` in the course, or {-1, -1}.
QPair<int, int> firstOfKind(const course::Course &c, course::ActivityKind kind)
{
  for (int m = 0; m < static_cast<int>(c.modules.size()); ++m)
    for (int a = 0; a < static_cast<int>(c.modules[m].activities.size()); ++a)
      if (c.modules[m].activities[a].kind == kind)
        return {m, a};
  return {-1, -1};
}

// The first exercise folder of the built-in course.
QString someExerciseFolder(const course::Course &c)
{
  for (const auto &m : c.modules)
    for (const auto &a : m.activities)
      if (a.kind == course::ActivityKind::Exercise)
        return QString::fromStdString(a.source.string());
  return {};
}

struct ZipEntry {
  std::string name;
  std::string data;
};

bool craftZip(const QString &file, const std::vector<ZipEntry> &entries)
{
  int err = 0;
  zip_t *z = zip_open(file.toLocal8Bit().constData(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  if (!z)
    return false;
  for (const auto &e : entries) {
    zip_source_t *src = zip_source_buffer(z, e.data.data(), e.data.size(), 0);
    const zip_int64_t idx = zip_file_add(z, e.name.c_str(), src, ZIP_FL_ENC_RAW);
    if (idx < 0)
      return false;
    zip_file_set_external_attributes(z, static_cast<zip_uint64_t>(idx), 0, ZIP_OPSYS_UNIX, (S_IFREG | 0644u) << 16);
  }
  return zip_close(z) == 0;
}

std::vector<ZipEntry> goodPackEntries(const std::string &manifest)
{
  std::vector<ZipEntry> out{{"pack.json", manifest}};
  const fs::path module = fs::path(apptest::fixtureContentDir().toStdString()) / "01-alpha";
  for (const auto &e : fs::recursive_directory_iterator(module)) {
    if (!e.is_regular_file())
      continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    out.push_back({"alpha/" + fs::relative(e.path(), module).generic_string(), data});
  }
  return out;
}

void save(QWidget *widget, const QString &name)
{
  QCoreApplication::processEvents();
  const QString path = apptest::screenshotDir() + QLatin1Char('/') + name + QStringLiteral(".png");
  QVERIFY2(widget->grab().save(path), qPrintable(path));
  qInfo().noquote() << "saved" << path;
}

} // namespace

class TestInstructor : public QObject {
  Q_OBJECT
private slots:
  void initTestCase() { apptest::initTestEnvironment(); }
  void init() { QSettings().clear(); }

  void everyKindSavesReloadsExportsAndImports();
  void builtinModuleEditedAndRestored();
  void editExerciseUsesThePackCopy();
  void newModuleWithNewExercise();
  void undoAndRedo();
  void unsavedChangePrompts();
  void validationErrorsOnTheirFields();
  void validationWritesNoFile();
  void everyKindHasAnEntry();
  void maliciousPacksAreRefused_data();
  void maliciousPacksAreRefused();
  void screenshots();
};

void TestInstructor::everyKindSavesReloadsExportsAndImports()
{
  QTemporaryDir profileA, profileB, out;
  Session a(profileA.path());
  QVERIFY(a.window.loadCourse(Session::root()));
  const QString exercise = someExerciseFolder(*a.window.course());
  QVERIFY(!exercise.isEmpty());
  const int builtinModules = static_cast<int>(a.window.course()->modules.size());

  QVERIFY2(a.mode->createModule(QStringLiteral("my-kernels"), QStringLiteral("My kernels")), qPrintable(a.messages.join(QLatin1Char('\n'))));
  QVERIFY(a.mode->isActive());
  app::InstructorPage *page = a.page();
  QCOMPARE(page->module().id, std::string("my-kernels"));
  QCOMPARE(static_cast<int>(a.window.course()->modules.size()), builtinModules + 1);

  // One activity of each kind, each edited through its editor.
  for (auto kind : {course::ActivityKind::Walkthrough, course::ActivityKind::Quiz, course::ActivityKind::SpotTheBug,
                    course::ActivityKind::DragMatch, course::ActivityKind::StepThrough})
    page->addActivity(kind);
  QVERIFY(page->addExerciseActivity(exercise));
  QCOMPARE(page->module().activities.size(), size_t(7));

  page->selectActivity(0);
  auto *lesson = qobject_cast<app::LessonEditor *>(page->editor());
  QVERIFY(lesson);
  lesson->markdownEdit()->setPlainText(QStringLiteral("# Tiles\n\nA program owns one tile.\n"));
  lesson->insertCallout(QStringLiteral("PROBE"));
  page->activityTitleEdit()->setText(QStringLiteral("Tiles and programs"));

  page->selectActivity(2);
  auto *quiz = qobject_cast<app::QuizEditor *>(page->editor());
  QVERIFY(quiz);
  quiz->promptEdit()->setPlainText(QStringLiteral("Why does the last program need a mask?"));
  quiz->addChoice();
  quiz->choices()->item(2, 1)->setText(QStringLiteral("It does not."));
  quiz->choices()->item(2, 2)->setText(QStringLiteral("Sizes are rarely multiples of the block."));

  page->selectActivity(3);
  auto *bug = qobject_cast<app::SpotTheBugEditor *>(page->editor());
  QVERIFY(bug);
  bug->toggleBugLine(3);
  bug->toggleBugLine(2);
  QCOMPARE(bug->bugLines(), std::vector<int>{3});
  bug->toggleBugLine(2);

  page->selectActivity(4);
  auto *match = qobject_cast<app::DragMatchEditor *>(page->editor());
  QVERIFY(match);
  match->targets()->item(0, 1)->setText(QStringLiteral("CUDA thread block"));

  page->selectActivity(5);
  auto *steps = qobject_cast<app::StepThroughEditor *>(page->editor());
  QVERIFY(steps);
  steps->stateEdit()->setPlainText(QStringLiteral("{\"values\": {\"x\": 2, \"tile\": \"0..127\"}}"));

  const auto &problems = page->validateNow();
  QVERIFY2(!page->hasErrors(), qPrintable(problemsText(problems)));
  QVERIFY(page->isModified());
  QVERIFY(page->preview());
  const course::Module edited = page->module();
  QVERIFY2(a.mode->save(), qPrintable(a.messages.join(QLatin1Char('\n'))));
  QVERIFY(!page->isModified());

  // Reload from disk: identical content, every kind present.
  const course::Module *saved = findModule(a.window, "my-kernels");
  QVERIFY(saved);
  const course::ModuleLoadResult reloaded = course::loadModule(saved->folder);
  QVERIFY(reloaded.module);
  QCOMPARE(QString::fromStdString(course::contentDifference(edited, *reloaded.module)), QString());
  QSet<int> kinds;
  for (const auto &act : reloaded.module->activities)
    kinds.insert(static_cast<int>(act.kind));
  QCOMPARE(kinds.size(), 7);
  QCOMPARE(reloaded.module->activities[0].title, std::string("Tiles and programs"));
  QCOMPARE(reloaded.module->activities[3].as<course::SpotTheBug>()->bugLines, (std::vector<int>{2, 3}));

  // Export, import into a fresh profile, find it identical; a learner can take it.
  const QString file = out.filePath(QStringLiteral("my-modules.tkmpack"));
  QVERIFY2(a.mode->exportPack(QString::fromLatin1(app::InstructorMode::kUserPackId), file), qPrintable(a.messages.join(QLatin1Char('\n'))));
  Session b(profileB.path());
  QVERIFY(b.window.loadCourse(Session::root()));
  QVERIFY(!findModule(b.window, "my-kernels"));
  QVERIFY2(b.mode->importPack(file), qPrintable(b.messages.join(QLatin1Char('\n'))));
  const course::Module *imported = findModule(b.window, "my-kernels");
  QVERIFY(imported);
  QCOMPARE(QString::fromStdString(course::contentDifference(*reloaded.module, *imported)), QString());
  QVERIFY(QString::fromStdString(imported->folder.string()).startsWith(profileB.path()));
  QVERIFY(b.window.navigator()->activityItem(moduleIndex(b.window, "my-kernels"), 2));
  QVERIFY(b.window.openActivity(QStringLiteral("my-kernels"), QStringLiteral("quiz")));
  QVERIFY(qobject_cast<app::QuizView *>(b.window.currentView()));
}

void TestInstructor::builtinModuleEditedAndRestored()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  const course::Module original = s.window.course()->modules.front();
  std::ifstream in(original.folder / "module.json", std::ios::binary);
  const std::string builtinBefore((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());

  s.mode->setActive(true);
  QCOMPARE(s.page()->module().id, original.id);
  QVERIFY(s.mode->originOf(QString::fromStdString(original.id)).packId.empty());
  s.page()->moduleTitleEdit()->setText(QStringLiteral("Edited title"));
  QVERIFY(s.page()->isModified());
  QVERIFY2(s.mode->save(), qPrintable(s.messages.join(QLatin1Char('\n'))));

  QCOMPARE(s.window.course()->modules.front().title, std::string("Edited title"));
  const packs::ModuleOrigin origin = s.mode->originOf(QString::fromStdString(original.id));
  QCOMPARE(origin.packId, std::string(app::InstructorMode::kUserPackId));
  QVERIFY(origin.overridesBuiltin);
  const fs::path copy = s.window.course()->modules.front().folder;
  QVERIFY(QString::fromStdString(copy.string()).startsWith(profile.path()));
  std::ifstream again(original.folder / "module.json", std::ios::binary);
  const std::string builtinAfter((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
  QCOMPARE(builtinAfter, builtinBefore); // the built-in content is never written

  QCOMPARE(s.mode->restoreBuiltinCourse(), 1);
  QCOMPARE(s.window.course()->modules.front().title, original.title);
  QCOMPARE(QString::fromStdString(course::contentDifference(original, s.window.course()->modules.front())), QString());
  QVERIFY(!fs::exists(copy));
  QCOMPARE(s.page()->module().title, original.title);
}

void TestInstructor::editExerciseUsesThePackCopy()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.mode->setActive(true);
  const auto [module, activity] = firstOfKind(*s.window.course(), course::ActivityKind::Exercise);
  QVERIFY(module >= 0);
  emit s.window.navigator()->activityChosen(module, activity);
  QVERIFY(qobject_cast<app::ExerciseActivityEditor *>(s.page()->editor()));
  QPushButton *edit = nullptr;
  for (QPushButton *b : s.page()->editor()->findChildren<QPushButton *>())
    if (b->text().startsWith(QStringLiteral("Edit exercise")))
      edit = b;
  QVERIFY(edit);
  const auto findWindow = app::connectExerciseWindows(s.mode, &s.window);
  QSignalSpy spy(s.mode, &app::InstructorMode::editExerciseRequested);
  edit->click();
  QCOMPARE(spy.size(), 1);
  const QString dir = spy[0][0].toString();
  QVERIFY2(dir.startsWith(profile.path() + QStringLiteral("/packs/")), qPrintable(dir));
  QVERIFY(QFile::exists(dir + QStringLiteral("/exercise.json")));
  QVERIFY(s.mode->originOf(QString::fromStdString(s.window.course()->modules[module].id)).overridesBuiltin);

  // The request opens the exercise editor window on that folder; a save writes the pack's copy only.
  app::ExerciseWindow *window = findWindow(dir);
  QVERIFY(window);
  QCOMPARE(window->editor()->folder(), dir);
  int saveShortcuts = 0; // two actions on one key would make Qt call it ambiguous and run neither
  for (QAction *action : window->findChildren<QAction *>())
    saveShortcuts += action->shortcut() == QKeySequence(QKeySequence::Save) ? 1 : 0;
  QCOMPARE(saveShortcuts, 1);
  window->editor()->setSpecValue("/title", app::SpecJson("Edited in the exercise window"));
  QVERIFY(window->editor()->isModified());
  QVERIFY(window->isWindowModified());
  QVERIFY(window->save());
  QVERIFY(!window->isWindowModified());
  QFile spec(dir + QStringLiteral("/exercise.json"));
  QVERIFY(spec.open(QIODevice::ReadOnly));
  QVERIFY(spec.readAll().contains("Edited in the exercise window"));
  QVERIFY(window->close()); // nothing unsaved: closes without asking
}

// Issue 7's done-when, without the GPU part: a new module with a new coding exercise (from the template), saved,
// opened in the exercise editor, exported, and imported into a fresh profile where a learner opens the exercise.
// The pack is also written to <build>/instructor-demo.tkmpack so scripts/gpu-check can validate it on a GPU.
void TestInstructor::newModuleWithNewExercise()
{
  QTemporaryDir profileA, profileB;
  Session a(profileA.path());
  QVERIFY(a.window.loadCourse(Session::root()));
  QVERIFY2(a.mode->createModule(QStringLiteral("saxpy-drills"), QStringLiteral("SAXPY drills")),
           qPrintable(a.messages.join(QLatin1Char('\n'))));
  app::InstructorPage *page = a.page();

  QString error;
  QVERIFY(!page->addNewExercise(QStringLiteral("Bad Id"), QStringLiteral("x"), &error));
  QVERIFY2(error.contains(QStringLiteral("not a usable exercise id")), qPrintable(error));
  QVERIFY2(page->addNewExercise(QStringLiteral("saxpy-drill"), QStringLiteral("SAXPY drill"), &error), qPrintable(error));
  QVERIFY(!page->addNewExercise(QStringLiteral("saxpy-drill"), QStringLiteral("again"), &error));
  QVERIFY2(error.contains(QStringLiteral("already has an exercise")), qPrintable(error));
  QVERIFY2(a.mode->save(), qPrintable(a.messages.join(QLatin1Char('\n'))));

  const course::Module *saved = findModule(a.window, "saxpy-drills");
  QVERIFY(saved);
  const course::Exercise *exercise = nullptr;
  for (const course::Activity &act : saved->activities)
    if (const auto *e = act.as<course::Exercise>())
      exercise = e;
  QVERIFY(exercise);
  const QString folder = QString::fromStdString(exercise->folder.string());
  QVERIFY2(folder.startsWith(profileA.path() + QStringLiteral("/packs/")), qPrintable(folder));
  QFile spec(folder + QStringLiteral("/exercise.json"));
  QVERIFY(spec.open(QIODevice::ReadOnly));
  const QByteArray specText = spec.readAll();
  QVERIFY(specText.contains("\"id\": \"saxpy-drill\""));
  QVERIFY(specText.contains("SAXPY drill"));
  for (const char *file : {"starter.cu", "solution.cu", "reference.cu", "prompt.md"})
    QVERIFY2(QFile::exists(folder + QLatin1Char('/') + QLatin1String(file)), file);

  // Export where the GPU check finds it, import on a fresh profile, and open the exercise as a learner.
  const QString file = QDir(apptest::screenshotDir()).absoluteFilePath(QStringLiteral("../instructor-demo.tkmpack"));
  QFile::remove(file);
  QVERIFY2(a.mode->exportPack(QString::fromLatin1(app::InstructorMode::kUserPackId), file),
           qPrintable(a.messages.join(QLatin1Char('\n'))));
  Session b(profileB.path());
  QVERIFY(b.window.loadCourse(Session::root()));
  QVERIFY2(b.mode->importPack(file), qPrintable(b.messages.join(QLatin1Char('\n'))));
  const course::Module *imported = findModule(b.window, "saxpy-drills");
  QVERIFY(imported);
  QVERIFY(b.window.openActivity(QStringLiteral("saxpy-drills"), QString::fromStdString(imported->activities.back().id)));
  QVERIFY(qobject_cast<app::ExerciseView *>(b.window.currentView()));
}

void TestInstructor::undoAndRedo()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.mode->setActive(true);
  app::InstructorPage *page = s.page();
  int quizIndex = -1;
  for (int i = 0; i < static_cast<int>(page->module().activities.size()); ++i)
    if (page->module().activities[i].kind == course::ActivityKind::Quiz)
      quizIndex = i;
  QVERIFY(quizIndex >= 0);
  page->selectActivity(quizIndex);
  auto *quiz = qobject_cast<app::QuizEditor *>(page->editor());
  QVERIFY(quiz);
  const std::string before = page->module().activities[quizIndex].as<course::Quiz>()->questions[0].prompt;
  quiz->promptEdit()->setPlainText(QStringLiteral("An edited prompt"));
  QCOMPARE(page->module().activities[quizIndex].as<course::Quiz>()->questions[0].prompt, std::string("An edited prompt"));
  QVERIFY(page->undoStack()->canUndo());
  QVERIFY(page->isModified());

  page->undoStack()->undo();
  QCOMPARE(page->module().activities[quizIndex].as<course::Quiz>()->questions[0].prompt, before);
  quiz = qobject_cast<app::QuizEditor *>(page->editor());
  QCOMPARE(quiz->promptEdit()->toPlainText(), QString::fromStdString(before));
  QVERIFY(!page->isModified());

  page->undoStack()->redo();
  QCOMPARE(page->module().activities[quizIndex].as<course::Quiz>()->questions[0].prompt, std::string("An edited prompt"));
  quiz = qobject_cast<app::QuizEditor *>(page->editor());
  QCOMPARE(quiz->promptEdit()->toPlainText(), QStringLiteral("An edited prompt"));

  // Structural edits undo too.
  const size_t count = page->module().activities.size();
  page->removeActivity(quizIndex);
  QCOMPARE(page->module().activities.size(), count - 1);
  page->undoStack()->undo();
  QCOMPARE(page->module().activities.size(), count);
}

void TestInstructor::unsavedChangePrompts()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&s.window));
  s.mode->setActive(true);
  const std::string first = s.page()->module().id;
  s.page()->moduleTitleEdit()->setText(QStringLiteral("Changed"));

  // Switching module: asked; Cancel keeps the edits and the module.
  s.unsavedAnswer = app::UnsavedChoice::Cancel;
  emit s.window.navigator()->activityChosen(1, 0);
  QCOMPARE(s.prompts.size(), 1);
  QVERIFY(s.prompts[0].contains(QStringLiteral("switching to another module")));
  QCOMPARE(s.page()->module().id, first);
  QVERIFY(s.page()->isModified());

  // Closing the window: asked; Cancel keeps it open.
  QVERIFY(!s.window.close());
  QCOMPARE(s.prompts.size(), 2);
  QVERIFY(s.window.isVisible());

  // Leaving instructor mode: asked; Discard drops the edits.
  s.unsavedAnswer = app::UnsavedChoice::Discard;
  QVERIFY(!s.mode->setActive(false));
  QCOMPARE(s.prompts.size(), 3);
  QVERIFY(!s.page()->isModified());
  QVERIFY(s.window.currentView());

  // No changes: no prompt.
  s.mode->setActive(true);
  emit s.window.navigator()->activityChosen(1, 0);
  QCOMPARE(s.prompts.size(), 3);
  QCOMPARE(s.page()->module().id, s.window.course()->modules[1].id);
}

void TestInstructor::validationErrorsOnTheirFields()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.mode->setActive(true);
  app::InstructorPage *page = s.page();
  page->addActivity(course::ActivityKind::Quiz);
  auto *quiz = qobject_cast<app::QuizEditor *>(page->editor());
  QVERIFY(quiz);
  quiz->choices()->item(1, 2)->setText(QString()); // an explanation is required
  const auto hasProblem = [&](int activity, const QString &pointer) {
    for (const auto &p : page->validateNow())
      if (p.activity == activity && p.pointer == pointer)
        return true;
    return false;
  };
  QVERIFY2(hasProblem(page->currentActivity(), QStringLiteral("/questions/0/choices/1/explanation")),
           qPrintable(problemsText(page->problems())));
  QVERIFY(page->hasErrors());
  QVERIFY(quiz->choices()->property("tkmError").toBool());
  QVERIFY(!quiz->choices()->toolTip().isEmpty());
  QVERIFY(!quiz->promptEdit()->property("tkmError").toBool());

  page->moduleTitleEdit()->setText(QString()); // a module needs a title
  QVERIFY2(hasProblem(-1, QStringLiteral("/title")), qPrintable(problemsText(page->problems())));
  QVERIFY(page->moduleTitleEdit()->property("tkmError").toBool());

  // Saving is refused with a message; nothing is written.
  QVERIFY(!s.mode->save());
  QVERIFY(s.messages.last().startsWith(QStringLiteral("Not saved")));
  QVERIFY(!QDir(profile.path() + QStringLiteral("/packs")).exists());
  QVERIFY(page->isModified());

  // Fixing the fields clears their marks.
  page->moduleTitleEdit()->setText(QStringLiteral("A title"));
  quiz->choices()->item(1, 2)->setText(QStringLiteral("Because."));
  page->validateNow();
  QVERIFY2(!page->hasErrors(), qPrintable(problemsText(page->problems())));
  QVERIFY(!quiz->choices()->property("tkmError").toBool());
  QVERIFY(!page->moduleTitleEdit()->property("tkmError").toBool());
}

// Validation runs on the model in memory: an error lands on its field while no file appears in the temporary
// folder (TMPDIR, where a QTemporaryDir would go), the profile's packs or the module's own folder.
void TestInstructor::validationWritesNoFile()
{
  QTemporaryDir profile, tmp;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.mode->setActive(true);
  app::InstructorPage *page = s.page();
  const auto [m, a] = firstOfKind(*s.window.course(), course::ActivityKind::DragMatch);
  QVERIFY(m >= 0);
  emit s.window.navigator()->activityChosen(m, a);
  auto *match = qobject_cast<app::DragMatchEditor *>(page->editor());
  QVERIFY(match);
  const fs::path moduleFolder = page->module().folder;
  auto listing = [](const fs::path &folder) {
    QStringList entries;
    for (const auto &e : fs::recursive_directory_iterator(folder))
      entries << QString::fromStdString(e.path().string() + " " +
                                        std::to_string(e.is_regular_file() ? fs::file_size(e.path()) : 0));
    entries.sort();
    return entries;
  };
  const QStringList moduleBefore = listing(moduleFolder);

  const QByteArray oldTmp = qgetenv("TMPDIR");
  qputenv("TMPDIR", tmp.path().toLocal8Bit());
  // A folder made and removed again within the call still shows as an event here.
  const int watch = inotify_init1(IN_NONBLOCK);
  QVERIFY(watch >= 0);
  QVERIFY(inotify_add_watch(watch, tmp.path().toLocal8Bit().constData(), IN_CREATE | IN_MOVED_TO) >= 0);
  match->targets()->item(0, 0)->setText(QStringLiteral("Not An Id")); // ids are [a-z0-9-]
  const QList<app::FieldProblem> problems = page->validateNow();
  char events[4096];
  const ssize_t eventBytes = read(watch, events, sizeof events);
  close(watch);
  qputenv("TMPDIR", oldTmp);
  QVERIFY2(eventBytes < 0, "validation created a file or folder in TMPDIR");

  bool onField = false;
  for (const auto &p : problems)
    onField = onField || (p.activity == a && p.pointer == QStringLiteral("/targets/0/id") && p.error);
  QVERIFY2(onField, qPrintable(problemsText(problems)));
  QVERIFY(match->targets()->property("tkmError").toBool());
  QVERIFY(!match->targets()->toolTip().isEmpty());
  QVERIFY2(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
           qPrintable(QDir(tmp.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).join(QLatin1Char(' '))));
  QVERIFY(!QDir(profile.path() + QStringLiteral("/packs")).exists());
  QCOMPARE(listing(moduleFolder), moduleBefore);
}

// The kinds table covers every kind: an editor, a preview of valid content, a new activity for the addable ones.
void TestInstructor::everyKindHasAnEntry()
{
  QCOMPARE(app::activityKinds().size(), size_t(7));
  for (const app::ActivityKindEntry &entry : app::activityKinds()) {
    QVERIFY(!entry.displayName().isEmpty());
    std::unique_ptr<app::ActivityEditor> editor(entry.createEditor(nullptr));
    QVERIFY(editor);
    QCOMPARE(entry.newActivity == nullptr, entry.kind == course::ActivityKind::Exercise);
    if (!entry.newActivity)
      continue;
    const course::Activity fresh = entry.newActivity("fresh");
    QCOMPARE(fresh.kind, entry.kind);
    course::Module module = app::InstructorPage::newModuleTemplate("m", "M", 1);
    module.activities.push_back(fresh);
    const auto found = course::validate(module);
    QVERIFY2(found.empty(), found.empty() ? "" : found.front().message.c_str());
    editor->load(fresh);
    app::ActivityContext context;
    context.module = &module;
    std::unique_ptr<app::ActivityView> preview(entry.createPreview(module.activities.back(), context, nullptr));
    QVERIFY(preview);
  }
}

void TestInstructor::maliciousPacksAreRefused_data()
{
  QTest::addColumn<QString>("kind");
  QTest::addColumn<QString>("expected");
  QTest::newRow("path traversal") << "traversal" << "entry \"../evil.md\" has a '..' component";
  QTest::newRow("huge entry") << "huge" << "entry \"alpha/big.txt\" is 9.0 MiB";
  QTest::newRow("bad JSON") << "json" << "pack.json: is not valid JSON";
  QTest::newRow("unknown version") << "version" << "newer version of Triton Kernel Mastery (format 7); update the app";
}

void TestInstructor::maliciousPacksAreRefused()
{
  QFETCH(QString, kind);
  QFETCH(QString, expected);
  if (apptest::fixtureContentDir().isEmpty())
    QSKIP("tests/data/content-good is missing");
  const std::string manifest =
      R"({"format": 1, "id": "evil", "title": "Evil", "author": "", "created": "", "modules": ["alpha"]})";
  std::vector<ZipEntry> entries = goodPackEntries(manifest);
  if (kind == QLatin1String("traversal"))
    entries.push_back({"../evil.md", "# evil"});
  else if (kind == QLatin1String("huge"))
    entries.push_back({"alpha/big.txt", std::string(9u << 20, 'x')});
  else if (kind == QLatin1String("json"))
    entries[0].data = "{\"format\": 1, \"id\": ";
  else
    entries[0].data = R"({"format": 7, "id": "evil", "title": "E", "modules": ["alpha"]})";

  QTemporaryDir profile, out;
  const QString file = out.filePath(QStringLiteral("bad.tkmpack"));
  QVERIFY(craftZip(file, entries));
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  const int modules = static_cast<int>(s.window.course()->modules.size());
  QVERIFY(!s.mode->importPack(file));
  QCOMPARE(s.messages.size(), 1);
  QVERIFY2(s.messages[0].startsWith(QStringLiteral("Pack not imported: ")), qPrintable(s.messages[0]));
  QVERIFY2(s.messages[0].contains(expected), qPrintable(s.messages[0]));
  QVERIFY2(s.messages[0].contains(QStringLiteral("bad.tkmpack")), qPrintable(s.messages[0]));
  const QDir packs(profile.path() + QStringLiteral("/packs"));
  QVERIFY(!packs.exists() || packs.entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty());
  QVERIFY(!QFile::exists(profile.path() + QStringLiteral("/evil.md")));
  QVERIFY(!QFile::exists(out.filePath(QStringLiteral("evil.md"))));
  QCOMPARE(static_cast<int>(s.window.course()->modules.size()), modules);
}

void TestInstructor::screenshots()
{
  QTemporaryDir profile;
  Session s(profile.path());
  QVERIFY(s.window.loadCourse(Session::root()));
  s.window.show();
  QVERIFY(QTest::qWaitForWindowExposed(&s.window));
  s.window.resultsDock()->hide();
  s.mode->setActive(true);
  app::InstructorPage *page = s.page();
  auto show = [&](course::ActivityKind kind) {
    const auto [m, a] = firstOfKind(*s.window.course(), kind);
    if (m < 0)
      return false;
    emit s.window.navigator()->activityChosen(m, a);
    page->validateNow();
    return true;
  };
  QVERIFY(show(course::ActivityKind::Quiz));
  save(&s.window, QStringLiteral("instructor-quiz"));
  QVERIFY(show(course::ActivityKind::SpotTheBug));
  save(&s.window, QStringLiteral("instructor-spot-the-bug"));
  QVERIFY(show(course::ActivityKind::StepThrough));
  save(&s.window, QStringLiteral("instructor-step-through"));
  QVERIFY(show(course::ActivityKind::DragMatch));
  save(&s.window, QStringLiteral("instructor-drag-match"));
  QVERIFY(show(course::ActivityKind::Lesson));
  page->moduleTitleEdit()->setText(QString()); // shows an error marked on its field
  page->validateNow();
  save(&s.window, QStringLiteral("instructor-module-metadata"));
}

QTEST_MAIN(TestInstructor)
#include "tst_instructor.moc"
