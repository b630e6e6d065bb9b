// Instructor page, second half: validation of the edited module (course::validate on the model in memory, its
// findings shown on the fields they name), the live preview, and the field lookup by JSON pointer. The first half
// (instructorpage.cpp) builds the page and records edits.
#include "app/instructor/instructorpage.h"

#include "app/activities/activityview.h"
#include "app/common/qtconvert.h"
#include "app/instructor/activityeditor.h"
#include "app/instructor/activitykinds.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSpinBox>
#include <QStyle>
#include <QTimer>

#include "modules/course/loader.h"
#include "modules/course/validate.h"
#include "modules/course/writer.h"

#include <filesystem>

namespace tkm::app {

namespace fs = std::filesystem;

namespace {

// Where a finding is written, for the problem list: "activities/quiz.json", "lessons/intro.md:7", "module.json".
QString findingLocation(const course::Module& module, const course::FieldDiagnostic& d)
{
    if (d.activity < 0)
        return QStringLiteral("module.json");
    const auto index = static_cast<std::size_t>(d.activity);
    QString location = qs(course::activityRelativePath(module, index).generic_string());
    const course::Lesson* lesson = module.activities[index].as<course::Lesson>();
    if (lesson && d.pointer.rfind("/markdown/", 0) == 0)
        location += QStringLiteral(":%1").arg(lesson->bodyFirstLine - 1 + std::stoi(d.pointer.substr(10)));
    return location;
}

} // namespace

void InstructorPage::scheduleValidation()
{
    m_validateTimer->start();
}

bool InstructorPage::hasErrors() const
{
    return std::any_of(m_problems.begin(), m_problems.end(), [](const FieldProblem& p) { return p.error; });
}

void InstructorPage::refreshDerivedContent()
{
    for (std::size_t i = 0; i < m_module.activities.size(); ++i) {
        course::Activity& a = m_module.activities[i];
        if (auto* lesson = std::get_if<course::Lesson>(&a.payload))
            lesson->callouts = course::lessonCallouts(lesson->markdown, lesson->bodyFirstLine);
        auto* exercise = std::get_if<course::Exercise>(&a.payload);
        if (!exercise)
            continue;
        // An exercise's title and spec live in its folder (edited in the exercise editor): read it as it is now.
        const fs::path folder = exercise->folder.empty() ? a.source : exercise->folder;
        course::ExerciseLoadResult loaded = course::loadExercise(folder);
        for (const course::Diagnostic& d : loaded.diagnostics) {
            const QString where = qs(d.file.lexically_relative(folder).generic_string());
            m_problems.append({static_cast<int>(i), QString(), qs(d.message),
                               d.line > 0 ? QStringLiteral("%1:%2").arg(where).arg(d.line) : where,
                               d.severity == course::Severity::Error});
        }
        if (loaded.exercise) {
            a.title = loaded.exercise->spec->title;
            a.payload = std::move(*loaded.exercise);
        }
    }
}

const QList<FieldProblem>& InstructorPage::validateNow()
{
    m_validateTimer->stop();
    m_problems.clear();
    if (!m_hasModule)
        return m_problems;
    // Not an edit of its own: content derived from other fields and folders is kept in step first.
    refreshDerivedContent();
    for (const course::FieldDiagnostic& d : course::validate(m_module))
        m_problems.append({d.activity, qs(d.pointer), qs(d.message), findingLocation(m_module, d),
                           d.severity == course::Severity::Error});
    if (!hasErrors())
        rebuildPreview(m_module);
    m_previewNote->setVisible(hasErrors());
    m_previewNote->setText(tr("The preview shows the last version without errors; fix the %n problem(s) below.",
                              nullptr,
                              static_cast<int>(std::count_if(m_problems.begin(), m_problems.end(),
                                                             [](const FieldProblem& p) { return p.error; }))));
    m_problemList->clear();
    for (const FieldProblem& p : m_problems) {
        auto* item = new QListWidgetItem(
            style()->standardIcon(p.error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning),
            QStringLiteral("%1: %2").arg(p.location, p.message), m_problemList);
        item->setToolTip(p.location);
    }
    m_problemList->setVisible(!m_problems.isEmpty());
    applyProblemMarks();
    return m_problems;
}

void InstructorPage::rebuildPreview(const course::Module& valid)
{
    delete m_preview;
    m_preview = nullptr;
    m_previewModule = std::make_unique<course::Module>(valid);
    if (m_current < 0 || m_current >= static_cast<int>(m_previewModule->activities.size()))
        return;
    ActivityContext context;
    context.module = m_previewModule.get();
    context.confirm = [](const QString&) { return true; };
    const course::Activity& activity = m_previewModule->activities[m_current];
    m_preview = activityKindEntry(activity.kind).createPreview(activity, context, m_previewHost);
    m_previewHost->layout()->addWidget(m_preview);
}

QWidget* InstructorPage::moduleFieldWidget(const QString& pointer) const
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
            return t.value(2) == QLatin1String("id") ? static_cast<QWidget*>(m_activityId) : m_activities->list();
        return m_activities->list();
    }
    return nullptr;
}

void InstructorPage::setErrorMark(QWidget* widget, const QString& message)
{
    widget->setProperty("tkmError", !message.isEmpty());
    widget->setToolTip(message);
    widget->style()->unpolish(widget);
    widget->style()->polish(widget);
    widget->update();
}

void InstructorPage::applyProblemMarks()
{
    for (const QPointer<QWidget>& w : m_marked)
        if (w)
            setErrorMark(w, QString());
    m_marked.clear();
    QHash<QWidget*, QStringList> messages;
    for (const FieldProblem& p : m_problems) {
        QWidget* w = nullptr;
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
    QWidget* w = p.activity == -1                       ? moduleFieldWidget(p.pointer)
                 : p.pointer == QLatin1String("/title") ? m_activityTitle
                 : m_editor                             ? m_editor->fieldWidget(p.pointer, true)
                                                        : nullptr;
    applyProblemMarks();
    if (w)
        w->setFocus(Qt::OtherFocusReason);
    emit statusMessage(p.message);
}

course::Module InstructorPage::newModuleTemplate(const std::string& id, const std::string& title, int order)
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

course::Activity InstructorPage::newActivity(course::ActivityKind kind, const std::string& id)
{
    const ActivityKindEntry& entry = activityKindEntry(kind);
    return entry.newActivity ? entry.newActivity(id) : makeActivity(kind, id, std::string(), course::Lesson{});
}

} // namespace tkm::app
