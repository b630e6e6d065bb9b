// Instructor page, second half: validation of the edited module (the loader's diagnostics, shown on the fields
// they name), the live preview, and the field lookup by JSON pointer. The first half (instructorpage.cpp) builds
// the page and records edits.
#include "app/instructor/instructorpage.h"

#include "app/activities/activityview.h"
#include "app/common/qtconvert.h"
#include "app/instructor/activityeditors.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSpinBox>
#include <QStyle>
#include <QTemporaryDir>
#include <QTimer>

#include "engine/common/paths.h"
#include "modules/course/loader.h"
#include "modules/course/writer.h"

#include <filesystem>

namespace tkm::app {

namespace fs = std::filesystem;

namespace {

// Line number [1-based] of the first body line of a lesson page text (after the front matter's closing "---").
int lessonBodyFirstLine(const std::string& text)
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

void InstructorPage::scheduleValidation()
{
    m_validateTimer->start();
}

bool InstructorPage::hasErrors() const
{
    return std::any_of(m_problems.begin(), m_problems.end(), [](const FieldProblem& p) { return p.error; });
}

const QList<FieldProblem>& InstructorPage::validateNow()
{
    m_validateTimer->stop();
    m_problems.clear();
    if (!m_hasModule)
        return m_problems;
    QTemporaryDir dir;
    const fs::path folder = fs::path(dir.path().toStdString()) /
                            (m_module.folder.empty() ? fs::path("module") : m_module.folder.filename());
    if (engine::Status written = course::writeModule(m_module, folder); !written) {
        m_problems.append({-2, QString(), qs(written.error().message), QString(), true});
    } else {
        course::ModuleLoadResult loaded = course::loadModule(folder);
        const std::vector<course::ModuleFile> files = course::moduleFiles(m_module);
        for (const course::Diagnostic& d : loaded.diagnostics) {
            FieldProblem p;
            p.message = qs(d.message);
            p.location = qs(d.file.lexically_relative(folder).generic_string());
            if (d.line > 0)
                p.location += QStringLiteral(":%1").arg(d.line) +
                              (d.column > 0 ? QStringLiteral(":%1").arg(d.column) : QString());
            p.error = d.severity == course::Severity::Error;
            p.activity = -2;
            const fs::path rel = d.file.lexically_relative(folder);
            for (const course::ModuleFile& f : files) {
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
                    const auto& a = m_module.activities[i];
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
                course::Activity& a = m_module.activities[i];
                const course::Lesson* parsed = loaded.module->activities[i].as<course::Lesson>();
                if (auto* lesson = std::get_if<course::Lesson>(&a.payload); lesson && parsed) {
                    lesson->callouts = parsed->callouts;
                    lesson->bodyFirstLine = parsed->bodyFirstLine;
                }
                if (a.kind == course::ActivityKind::Exercise && loaded.module->activities[i].kind == a.kind) {
                    a.title = loaded.module->activities[i].title;
                    a.payload = loaded.module->activities[i].payload;
                    if (auto* e =
                            std::get_if<course::Exercise>(&a.payload)) // the copy in the temporary folder goes away
                        e->folder = a.source;
                }
            }
            rebuildPreview(*loaded.module);
        }
    }
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
    m_preview = createActivityView(m_previewModule->activities[m_current], context, m_previewHost);
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
