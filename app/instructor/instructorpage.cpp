#include "app/instructor/instructorpage.h"

#include "app/activities/activityview.h"
#include "app/course/coursenavigator.h"
#include "app/course/qtconvert.h"
#include "app/instructor/activityeditors.h"
#include "app/instructor/exercise/exercisedocument.h"

#include <QFileDialog>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>
#include <QVBoxLayout>

#include "engine/common/paths.h"
#include "modules/course/writer.h"

namespace tkm::app {

namespace fs = std::filesystem;

namespace {

// One undo step: the whole module before and after (a module is a few kilobytes of text).
class EditCommand : public QUndoCommand {
public:
  EditCommand(InstructorPage *page, course::Module before, int beforeActivity, course::Module after,
              int afterActivity, QString field, const QString &text, bool applyFirst)
      : QUndoCommand(text), m_page(page), m_before(std::move(before)), m_after(std::move(after)),
        m_beforeActivity(beforeActivity), m_afterActivity(afterActivity), m_field(std::move(field)),
        m_skipRedo(!applyFirst)
  {
  }
  int id() const override { return 0x746b6d; }
  bool mergeWith(const QUndoCommand *other) override
  {
    const auto *o = static_cast<const EditCommand *>(other);
    // Typing into one field is one step; anything else is a step of its own.
    if (m_field.isEmpty() || o->m_field != m_field || o->m_afterActivity != m_afterActivity)
      return false;
    m_after = o->m_after;
    return true;
  }
  void redo() override
  {
    if (m_skipRedo) { // the widgets already show the new state
      m_skipRedo = false;
      return;
    }
    m_page->applyState(m_after, m_afterActivity);
  }
  void undo() override { m_page->applyState(m_before, m_beforeActivity); }

private:
  InstructorPage *m_page;
  course::Module m_before;
  course::Module m_after;
  int m_beforeActivity;
  int m_afterActivity;
  QString m_field;
  bool m_skipRedo;
};

QString activityLabel(const course::Activity &a)
{
  return QStringLiteral("%1 · %2").arg(activityKindLabel(qs(course::activityKindName(a.kind))), qs(a.title));
}

std::string freeActivityId(const course::Module &m, const std::string &stem)
{
  for (int n = 1;; ++n) {
    const std::string id = n == 1 ? stem : stem + "-" + std::to_string(n);
    if (!m.findActivity(id))
      return id;
  }
}

// Line number [1-based] of the first body line of a lesson page text (after the front matter's closing "---").
int lessonBodyFirstLine(const std::string &text)
{
  int line = 1;
  int fences = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 0 || text[i - 1] == '\n') {
      if (text.compare(i, 3, "---") == 0 && ++fences == 2)
        return line + 1;
    }
    if (text[i] == '\n')
      ++line;
  }
  return 1;
}

} // namespace

InstructorPage::InstructorPage(QWidget *parent) : QWidget(parent)
{
  setObjectName(QStringLiteral("InstructorPage"));
  setStyleSheet(QStringLiteral("*[tkmError=\"true\"] { border: 2px solid #d9534f; border-radius: 3px; }"));
  m_undo = new QUndoStack(this);
  m_validateTimer = new QTimer(this);
  m_validateTimer->setSingleShot(true);
  m_validateTimer->setInterval(400);
  connect(m_validateTimer, &QTimer::timeout, this, [this] { validateNow(); });

  auto *layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto *splitter = new QSplitter(Qt::Horizontal, this);
  layout->addWidget(splitter, 1);

  auto *modulePanel = new QWidget(splitter);
  buildModulePanel(modulePanel);

  auto *editorColumn = new QWidget(splitter);
  auto *editorLayout = new QVBoxLayout(editorColumn);
  editorLayout->setContentsMargins(4, 0, 4, 0);
  m_kindLabel = new QLabel(editorColumn);
  QFont kindFont = m_kindLabel->font();
  kindFont.setBold(true);
  kindFont.setPointSizeF(kindFont.pointSizeF() * 1.2);
  m_kindLabel->setFont(kindFont);
  editorLayout->addWidget(m_kindLabel);
  auto *header = new QFormLayout;
  m_activityId = new QLineEdit(editorColumn);
  m_activityId->setPlaceholderText(tr("unique in the module, [a-z0-9-]"));
  m_activityTitle = new QLineEdit(editorColumn);
  header->addRow(tr("Activity id"), m_activityId);
  header->addRow(tr("Title"), m_activityTitle);
  editorLayout->addLayout(header);
  auto *scroll = new QScrollArea(editorColumn);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the forms follow the column's width
  m_editorHost = new QWidget(scroll);
  auto *hostLayout = new QVBoxLayout(m_editorHost);
  hostLayout->setContentsMargins(0, 0, 0, 0);
  scroll->setWidget(m_editorHost);
  editorLayout->addWidget(scroll, 1);
  connect(m_activityId, &QLineEdit::textChanged, this,
          [this] { onActivityHeaderEdited(QStringLiteral("id"), tr("Change an activity id")); });
  connect(m_activityTitle, &QLineEdit::textChanged, this,
          [this] { onActivityHeaderEdited(QStringLiteral("title"), tr("Change an activity title")); });

  auto *previewColumn = new QWidget(splitter);
  auto *previewLayout = new QVBoxLayout(previewColumn);
  previewLayout->setContentsMargins(4, 0, 0, 0);
  auto *previewTitle = new QLabel(tr("<b>Preview</b> — what the learner sees"), previewColumn);
  previewLayout->addWidget(previewTitle);
  m_previewNote = new QLabel(previewColumn);
  m_previewNote->setWordWrap(true);
  m_previewNote->setStyleSheet(QStringLiteral("color: #b94a48;"));
  m_previewNote->hide();
  previewLayout->addWidget(m_previewNote);
  m_previewHost = new QWidget(previewColumn);
  auto *previewHostLayout = new QVBoxLayout(m_previewHost);
  previewHostLayout->setContentsMargins(0, 0, 0, 0);
  previewLayout->addWidget(m_previewHost, 1);

  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 3);
  splitter->setStretchFactor(2, 2);
  splitter->setSizes({230, 560, 380});

  m_problemList = new QListWidget(this);
  m_problemList->setObjectName(QStringLiteral("problems"));
  m_problemList->setMaximumHeight(110);
  m_problemList->setToolTip(tr("Problems the content checker finds; double-click one to go to its field."));
  m_problemList->hide();
  layout->addWidget(m_problemList);
  connect(m_problemList, &QListWidget::itemActivated, this,
          [this](QListWidgetItem *item) { revealProblem(m_problemList->row(item)); });

  connect(m_undo, &QUndoStack::indexChanged, this, [this] { emit modifiedChanged(isModified()); });
}

InstructorPage::~InstructorPage()
{
  // The preview view refers to m_previewModule: delete it first.
  delete m_preview;
  m_preview = nullptr;
}

void InstructorPage::buildModulePanel(QWidget *panel)
{
  auto *layout = new QVBoxLayout(panel);
  layout->setContentsMargins(0, 0, 4, 0);
  m_origin = new QLabel(panel);
  m_origin->setWordWrap(true);
  m_origin->setForegroundRole(QPalette::PlaceholderText);
  layout->addWidget(m_origin);
  auto *form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  m_id = new QLineEdit(panel);
  m_title = new QLineEdit(panel);
  m_summary = makeTextEdit(panel, 3, false);
  m_order = new QSpinBox(panel);
  m_order->setRange(1, 999);
  m_minutes = new QSpinBox(panel);
  m_minutes->setRange(1, 6000);
  m_minutes->setSuffix(tr(" min"));
  m_prerequisites = new QLineEdit(panel);
  m_prerequisites->setPlaceholderText(tr("module ids, comma-separated"));
  form->addRow(tr("Module id"), m_id);
  form->addRow(tr("Title"), m_title);
  form->addRow(tr("Summary"), m_summary);
  form->addRow(tr("Order"), m_order);
  form->addRow(tr("Study time"), m_minutes);
  form->addRow(tr("Prerequisites"), m_prerequisites);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("<b>Activities</b> (in the order shown)"), panel));
  m_activities = new ItemListPanel(tr("activity"), panel);
  layout->addWidget(m_activities, 1);

  auto field = [this](const QString &name, const QString &description) {
    return [=, this] { onModuleFieldEdited(name, description); };
  };
  connect(m_id, &QLineEdit::textChanged, this, field(QStringLiteral("id"), tr("Change the module id")));
  connect(m_title, &QLineEdit::textChanged, this, field(QStringLiteral("title"), tr("Change the module title")));
  connect(m_summary, &QPlainTextEdit::textChanged, this, field(QStringLiteral("summary"), tr("Edit the summary")));
  connect(m_order, &QSpinBox::valueChanged, this, field(QStringLiteral("order"), tr("Change the order")));
  connect(m_minutes, &QSpinBox::valueChanged, this, field(QStringLiteral("minutes"), tr("Change the study time")));
  connect(m_prerequisites, &QLineEdit::textChanged, this,
          field(QStringLiteral("prerequisites"), tr("Change the prerequisites")));

  connect(m_activities, &ItemListPanel::currentChanged, this, [this](int row) {
    if (row >= 0 && row != m_current)
      selectActivity(row);
  });
  connect(m_activities, &ItemListPanel::addRequested, this, [this] {
    QMenu menu(this);
    for (course::ActivityKind kind : {course::ActivityKind::Lesson, course::ActivityKind::Walkthrough,
                                      course::ActivityKind::Quiz, course::ActivityKind::SpotTheBug,
                                      course::ActivityKind::DragMatch, course::ActivityKind::StepThrough}) {
      const QString name = qs(course::activityKindName(kind));
      menu.addAction(activityKindIcon(name), activityKindLabel(name), this, [this, kind] { addActivity(kind); });
    }
    QAction *fresh = menu.addAction(activityKindIcon(QStringLiteral("exercise")), tr("New exercise…"), this, [this] {
      bool ok = false;
      const QString id = QInputDialog::getText(this, tr("New exercise"),
                                               tr("Id of the new exercise (lower-case letters, digits and dashes). "
                                                  "It starts as a copy of the vector-add exercise: a spec, starter, "
                                                  "solution, reference and a bug variant that already validate."),
                                               QLineEdit::Normal, QStringLiteral("my-exercise"), &ok)
                               .trimmed();
      if (!ok || id.isEmpty())
        return;
      QString error;
      if (!addNewExercise(id, tr("New exercise %1").arg(id), &error))
        emit statusMessage(error);
    });
    fresh->setEnabled(!m_exerciseTemplate.isEmpty());
    menu.addAction(activityKindIcon(QStringLiteral("exercise")), tr("Exercise from a folder…"), this, [this] {
      const QString folder = QFileDialog::getExistingDirectory(
          this, tr("Choose an exercise folder (it holds exercise.json)"), qs(m_module.folder));
      if (!folder.isEmpty() && !addExerciseActivity(folder))
        emit statusMessage(tr("“%1” has no exercise.json: choose an exercise folder.").arg(folder));
    });
    menu.exec(QCursor::pos());
  });
  connect(m_activities, &ItemListPanel::removeRequested, this, [this](int row) { removeActivity(row); });
  connect(m_activities, &ItemListPanel::moveRequested, this, [this](int row, int d) { moveActivity(row, d); });
}

void InstructorPage::openModule(const course::Module &module, int activity, const QString &origin)
{
  m_hasModule = true;
  m_module = module;
  m_saved = module;
  m_undo->clear();
  m_origin->setText(origin);
  m_current = -1;
  applyState(m_module, activity);
  validateNow();
}

void InstructorPage::applyState(const course::Module &module, int activity)
{
  m_module = module;
  loadModuleFields();
  m_current = m_module.activities.empty() ? -1 : std::clamp(activity, 0, int(m_module.activities.size()) - 1);
  refreshActivityList();
  showEditor();
  scheduleValidation();
  emit modifiedChanged(isModified());
}

void InstructorPage::loadModuleFields()
{
  m_loadingFields = true;
  const QSignalBlocker b(m_summary);
  m_id->setText(qs(m_module.id));
  m_title->setText(qs(m_module.title));
  m_title->setCursorPosition(0);
  m_summary->setPlainText(qs(m_module.summary));
  m_order->setValue(m_module.order);
  m_minutes->setValue(m_module.estimatedMinutes);
  QStringList prerequisites;
  for (const std::string &p : m_module.prerequisites)
    prerequisites << qs(p);
  m_prerequisites->setText(prerequisites.join(QStringLiteral(", ")));
  m_loadingFields = false;
}

void InstructorPage::refreshActivityList()
{
  QStringList labels;
  for (const course::Activity &a : m_module.activities)
    labels << activityLabel(a);
  m_activities->setItems(labels, m_current);
  for (int i = 0; i < m_activities->list()->count(); ++i)
    m_activities->list()->item(i)->setIcon(activityKindIcon(qs(course::activityKindName(m_module.activities[i].kind))));
}

void InstructorPage::selectActivity(int index)
{
  if (index < 0 || index >= static_cast<int>(m_module.activities.size()))
    return;
  m_current = index;
  {
    const QSignalBlocker block(m_activities->list());
    m_activities->list()->setCurrentRow(index);
  }
  showEditor();
  if (m_previewModule && m_previewModule->activities.size() == m_module.activities.size())
    rebuildPreview(course::Module(*m_previewModule));
  applyProblemMarks();
  emit activityShown(index);
}

void InstructorPage::showEditor()
{
  delete m_editor;
  m_editor = nullptr;
  const bool has = m_current >= 0;
  m_activityId->setEnabled(has);
  m_activityTitle->setEnabled(has);
  if (!has) {
    m_kindLabel->setText(tr("No activity: add one with “+ Add” under the module."));
    m_loadingFields = true;
    m_activityId->clear();
    m_activityTitle->clear();
    m_loadingFields = false;
    return;
  }
  const course::Activity &a = m_module.activities[m_current];
  const QString kind = qs(course::activityKindName(a.kind));
  m_kindLabel->setText(activityKindLabel(kind));
  m_loadingFields = true;
  m_activityId->setText(qs(a.id));
  m_activityTitle->setText(qs(a.title));
  m_activityTitle->setCursorPosition(0);
  m_loadingFields = false;
  m_activityTitle->setEnabled(a.kind != course::ActivityKind::Exercise);
  m_activityTitle->setToolTip(a.kind == course::ActivityKind::Exercise ? tr("An exercise's title is its spec's title.")
                                                                       : QString());
  m_editor = createActivityEditor(a.kind, m_editorHost);
  m_editor->load(a);
  m_editorHost->layout()->addWidget(m_editor);
  connect(m_editor, &ActivityEditor::edited, this, &InstructorPage::onEditorEdited);
  connect(m_editor, &ActivityEditor::itemShown, this, &InstructorPage::applyProblemMarks);
  if (auto *exercise = qobject_cast<ExerciseActivityEditor *>(m_editor))
    connect(exercise, &ExerciseActivityEditor::editExerciseRequested, this, &InstructorPage::editExerciseRequested);
}

bool InstructorPage::isModified() const
{
  return m_hasModule && !course::contentDifference(m_module, m_saved).empty();
}

void InstructorPage::markSaved(const course::Module &saved)
{
  m_saved = saved;
  m_undo->setClean();
  emit modifiedChanged(isModified());
}

void InstructorPage::commit(const course::Module &next, int activity, const QString &field,
                            const QString &description, bool reload)
{
  auto *command = new EditCommand(this, m_module, m_current, next, activity, field, description, reload);
  if (!reload) {
    m_module = next;
    m_current = activity;
  }
  m_undo->push(command);
  scheduleValidation();
  emit modifiedChanged(isModified());
}

void InstructorPage::onEditorEdited(const QString &field, const QString &description)
{
  if (m_current < 0)
    return;
  course::Module next = m_module;
  m_editor->store(next.activities[m_current]);
  commit(next, m_current,
         field.isEmpty() ? QString() : QStringLiteral("a%1/%2").arg(m_current).arg(field), description, false);
}

void InstructorPage::onActivityHeaderEdited(const QString &field, const QString &description)
{
  if (m_loadingFields || m_current < 0)
    return;
  course::Module next = m_module;
  course::Activity &a = next.activities[m_current];
  if (field == QLatin1String("id")) {
    a.id = m_activityId->text().trimmed().toStdString();
  } else {
    a.title = m_activityTitle->text().toStdString();
    if (auto *lesson = std::get_if<course::Lesson>(&a.payload))
      lesson->title = a.title;
  }
  m_activities->setLabel(m_current, activityLabel(a));
  commit(next, m_current, QStringLiteral("a%1/%2").arg(m_current).arg(field), description, false);
}

void InstructorPage::onModuleFieldEdited(const QString &field, const QString &description)
{
  if (m_loadingFields || !m_hasModule)
    return;
  course::Module next = m_module;
  next.id = m_id->text().trimmed().toStdString();
  next.title = m_title->text().toStdString();
  next.summary = m_summary->toPlainText().toStdString();
  next.order = m_order->value();
  next.estimatedMinutes = m_minutes->value();
  next.prerequisites.clear();
  for (const QString &p : m_prerequisites->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
    if (!p.trimmed().isEmpty())
      next.prerequisites.push_back(p.trimmed().toStdString());
  commit(next, m_current, QStringLiteral("module/") + field, description, false);
}

void InstructorPage::addActivity(course::ActivityKind kind)
{
  if (!m_hasModule || kind == course::ActivityKind::Exercise)
    return;
  course::Module next = m_module;
  const std::string stem = std::string(course::activityKindName(kind));
  const int at = m_current + 1;
  next.activities.insert(next.activities.begin() + at, newActivity(kind, freeActivityId(next, stem)));
  commit(next, at, QString(), tr("Add a %1").arg(activityKindLabel(qs(stem)).toLower()), true);
}

void InstructorPage::setExerciseTemplate(const QString &templateFolder, const QString &draftsDir)
{
  m_exerciseTemplate = templateFolder;
  m_draftsDir = draftsDir;
}

bool InstructorPage::addNewExercise(const QString &id, const QString &title, QString *error)
{
  const auto fail = [error](const QString &sentence) {
    if (error)
      *error = sentence;
    return false;
  };
  if (!m_hasModule)
    return fail(tr("Open a module first: a new exercise is added to the module being edited."));
  static const QRegularExpression idPattern(QStringLiteral("^[a-z0-9]+(-[a-z0-9]+)*$"));
  if (!idPattern.match(id).hasMatch())
    return fail(tr("“%1” is not a usable exercise id: use lower-case letters, digits and single dashes "
                   "(e.g. saxpy-drill).")
                    .arg(id));
  const fs::path source = m_exerciseTemplate.toStdString();
  if (m_exerciseTemplate.isEmpty() || !fs::is_regular_file(source / "exercise.json"))
    return fail(tr("The exercise template %1 is missing: reinstall the app, or add an exercise from a folder.")
                    .arg(m_exerciseTemplate));
  const fs::path target = fs::path(m_draftsDir.toStdString()) / id.toStdString();
  for (const course::Activity &a : m_module.activities)
    if (const auto *e = std::get_if<course::Exercise>(&a.payload); e && e->folder.filename() == target.filename())
      return fail(tr("This module already has an exercise folder named “%1”: choose another id.").arg(id));
  std::error_code ec;
  if (fs::exists(target, ec))
    fs::remove_all(target, ec); // an earlier draft that was never saved into a pack
  fs::create_directories(target.parent_path(), ec);
  fs::copy(source, target, fs::copy_options::recursive, ec);
  if (ec)
    return fail(tr("Could not copy the template to %1: %2").arg(qs(target.string()), qs(ec.message())));
  // The copy's spec gets its own id and title; everything else stays as in the template.
  const auto text = engine::readTextFile(target / "exercise.json");
  SpecJson spec = text ? SpecJson::parse(*text, nullptr, false) : SpecJson(nullptr);
  if (spec.is_discarded() || !spec.is_object())
    return fail(tr("The template's exercise.json is not valid JSON: %1").arg(m_exerciseTemplate));
  spec["id"] = id.toStdString();
  spec["title"] = title.toStdString();
  if (auto written = engine::writeFileAtomic(target / "exercise.json", formatSpecJson(spec) + '\n'); !written)
    return fail(qs(written.error().message));
  return addExerciseActivity(qs(target.string())) ||
         fail(tr("The new exercise folder %1 could not be added.").arg(qs(target.string())));
}

bool InstructorPage::addExerciseActivity(const QString &exerciseFolder)
{
  const fs::path folder = exerciseFolder.toStdString();
  if (!m_hasModule || !fs::is_regular_file(folder / "exercise.json"))
    return false;
  course::Module next = m_module;
  course::Activity a;
  a.kind = course::ActivityKind::Exercise;
  a.id = freeActivityId(next, folder.filename().string());
  a.title = folder.filename().string();
  a.source = folder;
  course::Exercise exercise;
  exercise.folder = folder;
  a.payload = std::move(exercise);
  const int at = m_current + 1;
  next.activities.insert(next.activities.begin() + at, std::move(a));
  commit(next, at, QString(), tr("Add an exercise"), true);
  validateNow(); // fills in the exercise's title and spec from its folder
  return true;
}

void InstructorPage::removeActivity(int index)
{
  if (index < 0 || index >= static_cast<int>(m_module.activities.size()))
    return;
  course::Module next = m_module;
  next.activities.erase(next.activities.begin() + index);
  commit(next, std::min(index, static_cast<int>(next.activities.size()) - 1), QString(),
         tr("Remove “%1”").arg(qs(m_module.activities[index].title)), true);
}

void InstructorPage::moveActivity(int index, int delta)
{
  const int to = index + delta;
  if (index < 0 || to < 0 || to >= static_cast<int>(m_module.activities.size()))
    return;
  course::Module next = m_module;
  std::swap(next.activities[index], next.activities[to]);
  commit(next, to, QString(), tr("Move “%1”").arg(qs(m_module.activities[index].title)), true);
}

void InstructorPage::scheduleValidation() { m_validateTimer->start(); }

bool InstructorPage::hasErrors() const
{
  return std::any_of(m_problems.begin(), m_problems.end(), [](const FieldProblem &p) { return p.error; });
}

const QList<FieldProblem> &InstructorPage::validateNow()
{
  m_validateTimer->stop();
  m_problems.clear();
  if (!m_hasModule)
    return m_problems;
  QTemporaryDir dir;
  const fs::path folder =
      fs::path(dir.path().toStdString()) / (m_module.folder.empty() ? fs::path("module") : m_module.folder.filename());
  if (engine::Status written = course::writeModule(m_module, folder); !written) {
    m_problems.append({-2, QString(), qs(written.error().message), QString(), true});
  } else {
    course::ModuleLoadResult loaded = course::loadModule(folder);
    const std::vector<course::ModuleFile> files = course::moduleFiles(m_module);
    for (const course::Diagnostic &d : loaded.diagnostics) {
      FieldProblem p;
      p.message = qs(d.message);
      p.location = qs(d.file.lexically_relative(folder).generic_string());
      if (d.line > 0)
        p.location += QStringLiteral(":%1").arg(d.line) + (d.column > 0 ? QStringLiteral(":%1").arg(d.column) : QString());
      p.error = d.severity == course::Severity::Error;
      p.activity = -2;
      const fs::path rel = d.file.lexically_relative(folder);
      for (const course::ModuleFile &f : files) {
        if (f.relative != rel)
          continue;
        p.activity = f.activity;
        if (rel.extension() == ".md") {
          const int body = lessonBodyFirstLine(f.text);
          if (d.line >= body)
            p.pointer = QStringLiteral("/markdown/%1").arg(d.line - body + 1);
          else if (d.message.find("minutes") != std::string::npos)
            p.pointer = QStringLiteral("/minutes");
          else
            p.pointer = QStringLiteral("/title");
        } else {
          p.pointer = qs(course::jsonPointerAt(f.text, d.line, d.column));
        }
      }
      if (p.activity == -2) { // a file of an exercise folder: it belongs to that exercise's activity
        for (int i = 0; i < static_cast<int>(m_module.activities.size()); ++i) {
          const auto &a = m_module.activities[i];
          const fs::path exerciseRel = course::activityRelativePath(m_module, static_cast<std::size_t>(i));
          if (a.kind == course::ActivityKind::Exercise && rel.string().rfind(exerciseRel.string(), 0) == 0)
            p.activity = i;
        }
      }
      m_problems.append(p);
    }
    if (loaded.module) {
      // Exercise titles and specs come from their folders, a lesson's callouts from its Markdown: keep them in
      // step (not an edit of its own).
      for (std::size_t i = 0; i < m_module.activities.size() && i < loaded.module->activities.size(); ++i) {
        course::Activity &a = m_module.activities[i];
        const course::Lesson *parsed = loaded.module->activities[i].as<course::Lesson>();
        if (auto *lesson = std::get_if<course::Lesson>(&a.payload); lesson && parsed) {
          lesson->callouts = parsed->callouts;
          lesson->bodyFirstLine = parsed->bodyFirstLine;
        }
        if (a.kind == course::ActivityKind::Exercise && loaded.module->activities[i].kind == a.kind) {
          a.title = loaded.module->activities[i].title;
          a.payload = loaded.module->activities[i].payload;
          if (auto *e = std::get_if<course::Exercise>(&a.payload)) // the copy in the temporary folder goes away
            e->folder = a.source;
        }
      }
      rebuildPreview(*loaded.module);
    }
  }
  m_previewNote->setVisible(hasErrors());
  m_previewNote->setText(tr("The preview shows the last version without errors; fix the %n problem(s) below.",
                            nullptr, static_cast<int>(std::count_if(m_problems.begin(), m_problems.end(),
                                                                    [](const FieldProblem &p) { return p.error; }))));
  m_problemList->clear();
  for (const FieldProblem &p : m_problems) {
    auto *item = new QListWidgetItem(
        style()->standardIcon(p.error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning),
        QStringLiteral("%1: %2").arg(p.location, p.message), m_problemList);
    item->setToolTip(p.location);
  }
  m_problemList->setVisible(!m_problems.isEmpty());
  applyProblemMarks();
  return m_problems;
}

void InstructorPage::rebuildPreview(const course::Module &valid)
{
  delete m_preview;
  m_preview = nullptr;
  m_previewModule = std::make_unique<course::Module>(valid);
  if (m_current < 0 || m_current >= static_cast<int>(m_previewModule->activities.size()))
    return;
  ActivityContext context;
  context.module = m_previewModule.get();
  context.confirm = [](const QString &) { return true; };
  m_preview = createActivityView(m_previewModule->activities[m_current], context, m_previewHost);
  m_previewHost->layout()->addWidget(m_preview);
}

QWidget *InstructorPage::moduleFieldWidget(const QString &pointer) const
{
  const QStringList t = pointerTokens(pointer);
  const QString field = t.value(0);
  if (field == QLatin1String("id"))
    return m_id;
  if (field == QLatin1String("title"))
    return m_title;
  if (field == QLatin1String("summary"))
    return m_summary;
  if (field == QLatin1String("order"))
    return m_order;
  if (field == QLatin1String("estimated_minutes"))
    return m_minutes;
  if (field == QLatin1String("prerequisites"))
    return m_prerequisites;
  if (field == QLatin1String("activities")) {
    if (t.size() >= 2 && t[1].toInt() == m_current)
      return t.value(2) == QLatin1String("id") ? static_cast<QWidget *>(m_activityId) : m_activities->list();
    return m_activities->list();
  }
  return nullptr;
}

void InstructorPage::setErrorMark(QWidget *widget, const QString &message)
{
  widget->setProperty("tkmError", !message.isEmpty());
  widget->setToolTip(message);
  widget->style()->unpolish(widget);
  widget->style()->polish(widget);
  widget->update();
}

void InstructorPage::applyProblemMarks()
{
  for (const QPointer<QWidget> &w : m_marked)
    if (w)
      setErrorMark(w, QString());
  m_marked.clear();
  QHash<QWidget *, QStringList> messages;
  for (const FieldProblem &p : m_problems) {
    QWidget *w = nullptr;
    if (p.activity == -1)
      w = moduleFieldWidget(p.pointer);
    else if (p.activity == m_current && m_current >= 0)
      w = p.pointer == QLatin1String("/title") ? m_activityTitle
                                               : (m_editor ? m_editor->fieldWidget(p.pointer, false) : nullptr);
    if (w)
      messages[w] << p.message;
  }
  for (auto it = messages.begin(); it != messages.end(); ++it) {
    setErrorMark(it.key(), it.value().join(QLatin1Char('\n')));
    m_marked.append(it.key());
  }
}

void InstructorPage::revealProblem(int row)
{
  if (row < 0 || row >= m_problems.size())
    return;
  const FieldProblem p = m_problems[row];
  if (p.activity >= 0 && p.activity != m_current)
    selectActivity(p.activity);
  QWidget *w = p.activity == -1 ? moduleFieldWidget(p.pointer)
               : p.pointer == QLatin1String("/title") ? m_activityTitle
               : m_editor                              ? m_editor->fieldWidget(p.pointer, true)
                                                       : nullptr;
  applyProblemMarks();
  if (w)
    w->setFocus(Qt::OtherFocusReason);
  emit statusMessage(p.message);
}

course::Module InstructorPage::newModuleTemplate(const std::string &id, const std::string &title, int order)
{
  course::Module m;
  m.id = id;
  m.title = title;
  m.summary = "What this module teaches, in one or two sentences.";
  m.order = order;
  m.estimatedMinutes = 30;
  m.activities.push_back(newActivity(course::ActivityKind::Lesson, "introduction"));
  return m;
}

course::Activity InstructorPage::newActivity(course::ActivityKind kind, const std::string &id)
{
  course::Activity a;
  a.id = id;
  a.kind = kind;
  switch (kind) {
  case course::ActivityKind::Lesson:
    a.title = "New lesson";
    a.payload = course::Lesson{a.title, std::nullopt, "# New lesson\n\nWrite the page here in Markdown.\n", 1, {}};
    break;
  case course::ActivityKind::Walkthrough: {
    a.title = "New walkthrough";
    course::WalkthroughPane pane{"Triton", "python", "import triton\nimport triton.language as tl\n", {}};
    pane.notes[1] = "What this line does.";
    a.payload = course::Walkthrough{{pane}};
    break;
  }
  case course::ActivityKind::Quiz: {
    a.title = "New quiz";
    course::Question q;
    q.id = "q1";
    q.prompt = "The question.";
    q.choices = {{"The right answer.", true, "Why it is right."}, {"A wrong answer.", false, "Why it is wrong."}};
    a.payload = course::Quiz{{q}};
    break;
  }
  case course::ActivityKind::SpotTheBug: {
    a.title = "New spot the bug";
    course::SpotTheBug s;
    s.language = "python";
    s.code = "offs = pid * BLOCK + tl.arange(0, BLOCK)\nx = tl.load(x_ptr + offs)\ntl.store(y_ptr + offs, x)\n";
    s.bugLines = {2};
    s.why = "The load has no mask: the last program reads past the end.";
    s.fix = "Load with `mask=offs < n`.";
    a.payload = std::move(s);
    break;
  }
  case course::ActivityKind::DragMatch: {
    a.title = "New drag-match";
    course::DragMatch d;
    d.prompt = "Drag each item onto its target.";
    d.targets = {{"target-1", "A target"}};
    d.items = {{"item-1", "An item", "target-1", "Why it belongs there."}};
    a.payload = std::move(d);
    break;
  }
  case course::ActivityKind::StepThrough: {
    a.title = "New step-through";
    course::StepThrough s;
    s.diagram = course::Diagram::Table;
    s.params = nlohmann::json::object();
    s.steps.push_back({"First step", "What happens.", nlohmann::json{{"values", {{"x", 1}}}}});
    a.payload = std::move(s);
    break;
  }
  case course::ActivityKind::Exercise:
    break;
  }
  return a;
}

} // namespace tkm::app
