// Instructor editor of a step-through: diagram, parameters and the steps' states (JSON).
#include "app/instructor/stepthrougheditor.h"

#include "app/common/qtconvert.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStyle>
#include <QVBoxLayout>

namespace tkm::app {

course::Activity StepThroughEditor::newActivity(const std::string& id)
{
    course::StepThrough s;
    s.diagram = course::Diagram::Table;
    s.params = nlohmann::json::object();
    s.steps.push_back({"First step", "What happens.", nlohmann::json{{"values", {{"x", 1}}}}});
    return makeActivity(course::ActivityKind::StepThrough, id, "New step-through", std::move(s));
}

namespace {

// The state fields each diagram needs (docs/content-format.md, step-through table).
QString diagramFields(course::Diagram diagram)
{
    switch (diagram) {
    case course::Diagram::Traffic:
        return QStringLiteral("transfers [{from, to, label, bytes}], read_bytes, written_bytes, lane (fused/unfused)");
    case course::Diagram::OnlineSoftmax:
        return QStringLiteral("tile, scores [..], m, l, acc [..], full (optional)");
    case course::Diagram::TileGrid:
        return QStringLiteral("grid_m, grid_n, group_size_m, computed [[row, col]..], a_loads, b_loads");
    case course::Diagram::Pipeline:
        return QStringLiteral("stages [names], active (index), artifact (text)");
    case course::Diagram::Table:
        return QStringLiteral("values {name: number or text}");
    }
    return {};
}

} // namespace

StepThroughEditor::StepThroughEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QFormLayout;
    m_diagram = new QComboBox(this);
    for (course::Diagram d : {course::Diagram::Traffic, course::Diagram::OnlineSoftmax, course::Diagram::TileGrid,
                              course::Diagram::Pipeline, course::Diagram::Table})
        m_diagram->addItem(qs(course::diagramName(d)), static_cast<int>(d));
    top->addRow(tr("Diagram"), m_diagram);
    m_params = makeTextEdit(this, 2, true);
    m_params->setPlaceholderText(QStringLiteral("{\"M\": 4096}"));
    top->addRow(tr("Parameters (JSON)"), m_params);
    m_fieldsHint = new QLabel(this);
    m_fieldsHint->setWordWrap(true);
    m_fieldsHint->setForegroundRole(QPalette::PlaceholderText);
    top->addRow(QString(), m_fieldsHint);
    layout->addLayout(top);

    auto* row = new QVBoxLayout;
    m_list = new ItemListPanel(tr("step"), this);
    m_list->list()->setMaximumHeight(96);
    row->addWidget(m_list);
    m_form = new QWidget(this);
    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    m_title = new QLineEdit(m_form);
    form->addRow(tr("Title"), m_title);
    m_text = makeTextEdit(m_form, 4, false);
    form->addRow(tr("Text"), m_text);
    m_state = makeTextEdit(m_form, 10, true);
    form->addRow(tr("State (JSON)"), m_state);
    row->addWidget(m_form, 1);
    layout->addLayout(row, 1);

    connect(m_diagram, &QComboBox::currentIndexChanged, this, [this] {
        m_steps.diagram = static_cast<course::Diagram>(m_diagram->currentData().toInt());
        m_fieldsHint->setText(tr("Each step's state holds exactly: %1").arg(diagramFields(m_steps.diagram)));
        notify(QStringLiteral("diagram"), tr("Change the diagram"));
    });
    connect(m_params, &QPlainTextEdit::textChanged, this, [this] {
        if (!loading() && parseJsonInto(m_params, m_steps.params))
            notify(QStringLiteral("params"), tr("Edit the parameters"));
    });
    connect(m_list, &ItemListPanel::currentChanged, this, [this](int r) { showStep(r); });
    connect(m_list, &ItemListPanel::addRequested, this, [this] {
        course::Step step;
        step.title = tr("Step %1").arg(m_steps.steps.size() + 1).toStdString();
        // A new step starts from the state of the one shown: the usual next step changes a few fields.
        step.state = m_current >= 0 ? m_steps.steps[m_current].state : nlohmann::json::object();
        m_steps.steps.insert(m_steps.steps.begin() + (m_current + 1), std::move(step));
        showStep(m_current + 1);
        notify(QString(), tr("Add a step"));
    });
    connect(m_list, &ItemListPanel::removeRequested, this, [this](int r) {
        m_steps.steps.erase(m_steps.steps.begin() + r);
        showStep(std::min(r, static_cast<int>(m_steps.steps.size()) - 1));
        notify(QString(), tr("Remove a step"));
    });
    connect(m_list, &ItemListPanel::moveRequested, this, [this](int r, int delta) {
        std::swap(m_steps.steps[r], m_steps.steps[r + delta]);
        showStep(r + delta);
        notify(QString(), tr("Move a step"));
    });
    auto edited = [this](const QString& what, const QString& description) {
        return [=, this] {
            if (loading() || m_current < 0)
                return;
            readForm();
            notify(QStringLiteral("s%1/%2").arg(m_current).arg(what), description);
        };
    };
    connect(m_title, &QLineEdit::textChanged, this, edited(QStringLiteral("title"), tr("Edit a step title")));
    connect(m_text, &QPlainTextEdit::textChanged, this, edited(QStringLiteral("text"), tr("Edit a step text")));
    connect(m_state, &QPlainTextEdit::textChanged, this, [this] {
        if (loading() || m_current < 0 || !parseJsonInto(m_state, m_steps.steps[m_current].state))
            return;
        notify(QStringLiteral("s%1/state").arg(m_current), tr("Edit a step state"));
    });
}

bool StepThroughEditor::parseJsonInto(QPlainTextEdit* edit, nlohmann::json& out)
{
    const std::string text = edit->toPlainText().trimmed().toStdString();
    try {
        out = text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text);
        edit->setProperty("tkmError", false);
        edit->setToolTip(QString());
    } catch (const nlohmann::json::parse_error& e) {
        // The model keeps the last valid value: the loader could not say more than "not JSON" anyway.
        edit->setProperty("tkmError", true);
        edit->setToolTip(tr("Not valid JSON yet (%1); the last valid value is kept.").arg(QString::fromUtf8(e.what())));
        edit->style()->unpolish(edit);
        edit->style()->polish(edit);
        return false;
    }
    edit->style()->unpolish(edit);
    edit->style()->polish(edit);
    return true;
}

void StepThroughEditor::doLoad(const course::Activity& activity)
{
    m_steps = activity.as<course::StepThrough>() ? *activity.as<course::StepThrough>() : course::StepThrough{};
    m_diagram->setCurrentIndex(m_diagram->findData(static_cast<int>(m_steps.diagram)));
    m_fieldsHint->setText(tr("Each step's state holds exactly: %1").arg(diagramFields(m_steps.diagram)));
    m_params->setPlainText(m_steps.params.empty() ? QString() : qs(m_steps.params.dump(2)));
    showStep(std::max(0, std::min(m_current, static_cast<int>(m_steps.steps.size()) - 1)));
}

void StepThroughEditor::showStep(int index)
{
    const bool wasLoading = loading();
    QStringList labels;
    for (const auto& s : m_steps.steps)
        labels << qs(s.title);
    m_current = m_steps.steps.empty() ? -1 : index;
    m_list->setItems(labels, m_current);
    m_form->setEnabled(m_current >= 0);
    const QSignalBlocker b1(m_title), b2(m_text), b3(m_state);
    const course::Step step = m_current >= 0 ? m_steps.steps[m_current] : course::Step{};
    m_title->setText(qs(step.title));
    m_text->setPlainText(qs(step.text));
    m_state->setPlainText(step.state.is_null() ? QString() : qs(step.state.dump(2)));
    if (!wasLoading)
        emit itemShown();
}

void StepThroughEditor::readForm()
{
    course::Step& step = m_steps.steps[m_current];
    step.title = m_title->text().toStdString();
    step.text = m_text->toPlainText().toStdString();
    m_list->setLabel(m_current, m_title->text());
}

void StepThroughEditor::store(course::Activity& activity) const
{
    activity.payload = m_steps;
}

QWidget* StepThroughEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    if (t.value(0) == QLatin1String("diagram"))
        return m_diagram;
    if (t.value(0) == QLatin1String("params"))
        return m_params;
    if (t.value(0) != QLatin1String("steps"))
        return nullptr;
    if (!m_list->holds(t, reveal))
        return m_list->list();
    if (t.value(2) == QLatin1String("title"))
        return m_title;
    if (t.value(2) == QLatin1String("text"))
        return m_text;
    return m_state;
}

} // namespace tkm::app
