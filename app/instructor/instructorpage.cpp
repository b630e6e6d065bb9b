#include "app/instructor/instructorpage.h"

#include "app/activities/activityview.h"
#include "app/common/qtconvert.h"
#include "app/course/coursenavigator.h"
#include "app/instructor/activityeditor.h"
#include "app/instructor/activitykinds.h"
#include "app/instructor/exerciseactivityeditor.h"
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
class EditCommand : public QUndoCommand
{
public:
    EditCommand(InstructorPage* page, course::Module before, int beforeActivity, course::Module after,
                int afterActivity, QString field, const QString& text, bool applyFirst)
        : QUndoCommand(text), m_page(page), m_before(std::move(before)), m_after(std::move(after)),
          m_beforeActivity(beforeActivity), m_afterActivity(afterActivity), m_field(std::move(field)),
          m_skipRedo(!applyFirst)
    {
    }
    int id() const override { return 0x746b6d; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const EditCommand*>(other);
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
    InstructorPage* m_page;
    course::Module m_before;
    course::Module m_after;
    int m_beforeActivity;
    int m_afterActivity;
    QString m_field;
    bool m_skipRedo;
};

QString activityLabel(const course::Activity& a)
{
    return QStringLiteral("%1 · %2").arg(activityKindLabel(qs(course::activityKindName(a.kind))), qs(a.title));
}

std::string freeActivityId(const course::Module& m, const std::string& stem)
{
    for (int n = 1;; ++n) {
        const std::string id = n == 1 ? stem : stem + "-" + std::to_string(n);
        if (!m.findActivity(id))
            return id;
    }
}

} // namespace

InstructorPage::InstructorPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("InstructorPage"));
    setStyleSheet(QStringLiteral("*[tkmError=\"true\"] { border: 2px solid #d9534f; border-radius: 3px; }"));
    m_undo = new QUndoStack(this);
    m_validateTimer = new QTimer(this);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(400);
    connect(m_validateTimer, &QTimer::timeout, this, [this] { validateNow(); });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    layout->addWidget(splitter, 1);

    auto* modulePanel = new QWidget(splitter);
    buildModulePanel(modulePanel);

    auto* editorColumn = new QWidget(splitter);
    auto* editorLayout = new QVBoxLayout(editorColumn);
    editorLayout->setContentsMargins(4, 0, 4, 0);
    m_kindLabel = new QLabel(editorColumn);
    QFont kindFont = m_kindLabel->font();
    kindFont.setBold(true);
    kindFont.setPointSizeF(kindFont.pointSizeF() * 1.2);
    m_kindLabel->setFont(kindFont);
    editorLayout->addWidget(m_kindLabel);
    auto* header = new QFormLayout;
    m_activityId = new QLineEdit(editorColumn);
    m_activityId->setPlaceholderText(tr("unique in the module, [a-z0-9-]"));
    m_activityTitle = new QLineEdit(editorColumn);
    header->addRow(tr("Activity id"), m_activityId);
    header->addRow(tr("Title"), m_activityTitle);
    editorLayout->addLayout(header);
    auto* scroll = new QScrollArea(editorColumn);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the forms follow the column's width
    m_editorHost = new QWidget(scroll);
    auto* hostLayout = new QVBoxLayout(m_editorHost);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(m_editorHost);
    editorLayout->addWidget(scroll, 1);
    connect(m_activityId, &QLineEdit::textChanged, this,
            [this] { onActivityHeaderEdited(QStringLiteral("id"), tr("Change an activity id")); });
    connect(m_activityTitle, &QLineEdit::textChanged, this,
            [this] { onActivityHeaderEdited(QStringLiteral("title"), tr("Change an activity title")); });

    auto* previewColumn = new QWidget(splitter);
    auto* previewLayout = new QVBoxLayout(previewColumn);
    previewLayout->setContentsMargins(4, 0, 0, 0);
    auto* previewTitle = new QLabel(tr("<b>Preview</b> — what the learner sees"), previewColumn);
    previewLayout->addWidget(previewTitle);
    m_previewNote = new QLabel(previewColumn);
    m_previewNote->setWordWrap(true);
    m_previewNote->setStyleSheet(QStringLiteral("color: #b94a48;"));
    m_previewNote->hide();
    previewLayout->addWidget(m_previewNote);
    m_previewHost = new QWidget(previewColumn);
    auto* previewHostLayout = new QVBoxLayout(m_previewHost);
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
            [this](QListWidgetItem* item) { revealProblem(m_problemList->row(item)); });

    connect(m_undo, &QUndoStack::indexChanged, this, [this] { emit modifiedChanged(isModified()); });
}

InstructorPage::~InstructorPage()
{
    // The preview view refers to m_previewModule: delete it first.
    delete m_preview;
    m_preview = nullptr;
}

void InstructorPage::buildModulePanel(QWidget* panel)
{
    auto* layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 4, 0);
    m_origin = new QLabel(panel);
    m_origin->setWordWrap(true);
    m_origin->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_origin);
    auto* form = new QFormLayout;
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

    auto field = [this](const QString& name, const QString& description) {
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
        for (const ActivityKindEntry& entry : activityKinds()) {
            if (!entry.newActivity)
                continue;
            const course::ActivityKind kind = entry.kind;
            menu.addAction(activityKindIcon(qs(course::activityKindName(kind))), entry.displayName(), this,
                           [this, kind] { addActivity(kind); });
        }
        QAction* fresh =
            menu.addAction(activityKindIcon(QStringLiteral("exercise")), tr("New exercise…"), this, [this] {
                bool ok = false;
                const QString id =
                    QInputDialog::getText(this, tr("New exercise"),
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

void InstructorPage::openModule(const course::Module& module, int activity, const QString& origin)
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

void InstructorPage::applyState(const course::Module& module, int activity)
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
    for (const std::string& p : m_module.prerequisites)
        prerequisites << qs(p);
    m_prerequisites->setText(prerequisites.join(QStringLiteral(", ")));
    m_loadingFields = false;
}

void InstructorPage::refreshActivityList()
{
    QStringList labels;
    for (const course::Activity& a : m_module.activities)
        labels << activityLabel(a);
    m_activities->setItems(labels, m_current);
    for (int i = 0; i < m_activities->list()->count(); ++i)
        m_activities->list()->item(i)->setIcon(
            activityKindIcon(qs(course::activityKindName(m_module.activities[i].kind))));
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
    const course::Activity& a = m_module.activities[m_current];
    const QString kind = qs(course::activityKindName(a.kind));
    m_kindLabel->setText(activityKindLabel(kind));
    m_loadingFields = true;
    m_activityId->setText(qs(a.id));
    m_activityTitle->setText(qs(a.title));
    m_activityTitle->setCursorPosition(0);
    m_loadingFields = false;
    m_activityTitle->setEnabled(a.kind != course::ActivityKind::Exercise);
    m_activityTitle->setToolTip(
        a.kind == course::ActivityKind::Exercise ? tr("An exercise's title is its spec's title.") : QString());
    m_editor = createActivityEditor(a.kind, m_editorHost);
    m_editor->load(a);
    m_editorHost->layout()->addWidget(m_editor);
    connect(m_editor, &ActivityEditor::edited, this, &InstructorPage::onEditorEdited);
    connect(m_editor, &ActivityEditor::itemShown, this, &InstructorPage::applyProblemMarks);
    if (auto* exercise = qobject_cast<ExerciseActivityEditor*>(m_editor))
        connect(exercise, &ExerciseActivityEditor::editExerciseRequested, this, &InstructorPage::editExerciseRequested);
}

bool InstructorPage::isModified() const
{
    return m_hasModule && !course::contentDifference(m_module, m_saved).empty();
}

void InstructorPage::markSaved(const course::Module& saved)
{
    m_saved = saved;
    m_undo->setClean();
    emit modifiedChanged(isModified());
}

void InstructorPage::commit(const course::Module& next, int activity, const QString& field, const QString& description,
                            bool reload)
{
    auto* command = new EditCommand(this, m_module, m_current, next, activity, field, description, reload);
    if (!reload) {
        m_module = next;
        m_current = activity;
    }
    m_undo->push(command);
    scheduleValidation();
    emit modifiedChanged(isModified());
}

void InstructorPage::onEditorEdited(const QString& field, const QString& description)
{
    if (m_current < 0)
        return;
    course::Module next = m_module;
    m_editor->store(next.activities[m_current]);
    commit(next, m_current, field.isEmpty() ? QString() : QStringLiteral("a%1/%2").arg(m_current).arg(field),
           description, false);
}

void InstructorPage::onActivityHeaderEdited(const QString& field, const QString& description)
{
    if (m_loadingFields || m_current < 0)
        return;
    course::Module next = m_module;
    course::Activity& a = next.activities[m_current];
    if (field == QLatin1String("id")) {
        a.id = m_activityId->text().trimmed().toStdString();
    } else {
        a.title = m_activityTitle->text().toStdString();
        if (auto* lesson = std::get_if<course::Lesson>(&a.payload))
            lesson->title = a.title;
    }
    m_activities->setLabel(m_current, activityLabel(a));
    commit(next, m_current, QStringLiteral("a%1/%2").arg(m_current).arg(field), description, false);
}

void InstructorPage::onModuleFieldEdited(const QString& field, const QString& description)
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
    for (const QString& p : m_prerequisites->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
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

void InstructorPage::setExerciseTemplate(const QString& templateFolder, const QString& draftsDir)
{
    m_exerciseTemplate = templateFolder;
    m_draftsDir = draftsDir;
}

bool InstructorPage::addNewExercise(const QString& id, const QString& title, QString* error)
{
    const auto fail = [error](const QString& sentence) {
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
    for (const course::Activity& a : m_module.activities)
        if (const auto* e = std::get_if<course::Exercise>(&a.payload); e && e->folder.filename() == target.filename())
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

bool InstructorPage::addExerciseActivity(const QString& exerciseFolder)
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

} // namespace tkm::app
