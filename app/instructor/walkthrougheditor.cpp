// Instructor editor of a code walkthrough.
#include "app/instructor/walkthrougheditor.h"

#include "app/common/qtconvert.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tkm::app {

course::Activity WalkthroughEditor::newActivity(const std::string& id)
{
    course::WalkthroughPane pane{"Triton", "python", "import triton\nimport triton.language as tl\n", {}};
    pane.notes[1] = "What this line does.";
    return makeActivity(course::ActivityKind::Walkthrough, id, "New walkthrough", course::Walkthrough{{pane}});
}

WalkthroughEditor::WalkthroughEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new ItemListPanel(tr("pane"), this);
    m_list->list()->setMaximumHeight(72);
    layout->addWidget(m_list);
    m_form = new QWidget(this);
    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    m_label = new QLineEdit(m_form);
    m_label->setPlaceholderText(tr("Tab label, e.g. Triton"));
    form->addRow(tr("Label"), m_label);
    m_language = makeLanguageCombo(m_form);
    form->addRow(tr("Language"), m_language);
    m_code = makeTextEdit(m_form, 12, true);
    form->addRow(tr("Code"), m_code);
    m_notes = new QTableWidget(0, 2, m_form);
    m_notes->setHorizontalHeaderLabels({tr("Line"), tr("Note (Markdown)")});
    m_notes->horizontalHeader()->setStretchLastSection(true);
    m_notes->verticalHeader()->hide();
    m_notes->setMinimumHeight(140);
    auto* noteButtons = new QHBoxLayout;
    auto* addNote = new QPushButton(tr("Add note"), m_form);
    auto* removeNote = new QPushButton(tr("Remove note"), m_form);
    noteButtons->addWidget(addNote);
    noteButtons->addWidget(removeNote);
    noteButtons->addStretch(1);
    auto* notesBox = new QVBoxLayout;
    notesBox->addWidget(m_notes);
    notesBox->addLayout(noteButtons);
    form->addRow(tr("Notes"), notesBox);
    layout->addWidget(m_form, 1);

    connect(m_list, &ItemListPanel::currentChanged, this, [this](int row) { showPane(row); });
    connect(m_list, &ItemListPanel::addRequested, this, [this] {
        m_walkthrough.panes.push_back(
            {tr("Pane %1").arg(m_walkthrough.panes.size() + 1).toStdString(), "python", "", {}});
        showPane(static_cast<int>(m_walkthrough.panes.size()) - 1);
        notify(QString(), tr("Add a pane"));
    });
    connect(m_list, &ItemListPanel::removeRequested, this, [this](int row) {
        m_walkthrough.panes.erase(m_walkthrough.panes.begin() + row);
        showPane(std::min(row, static_cast<int>(m_walkthrough.panes.size()) - 1));
        notify(QString(), tr("Remove a pane"));
    });
    connect(m_list, &ItemListPanel::moveRequested, this, [this](int row, int delta) {
        std::swap(m_walkthrough.panes[row], m_walkthrough.panes[row + delta]);
        showPane(row + delta);
        notify(QString(), tr("Move a pane"));
    });
    auto edited = [this](const QString& what, const QString& description) {
        return [=, this] {
            if (loading())
                return;
            readForm();
            notify(QStringLiteral("pane%1/%2").arg(m_current).arg(what), description);
        };
    };
    connect(m_label, &QLineEdit::textChanged, this, edited(QStringLiteral("label"), tr("Edit a pane label")));
    connect(m_language, &QComboBox::currentIndexChanged, this,
            edited(QStringLiteral("language"), tr("Change a language")));
    connect(m_code, &QPlainTextEdit::textChanged, this,
            edited(QStringLiteral("code"), tr("Edit the walkthrough code")));
    connect(m_notes, &QTableWidget::itemChanged, this, edited(QStringLiteral("notes"), tr("Edit a note")));
    connect(addNote, &QPushButton::clicked, this, [this] {
        const int line = m_code->textCursor().blockNumber() + 1;
        const QSignalBlocker block(m_notes);
        const int row = m_notes->rowCount();
        m_notes->insertRow(row);
        m_notes->setItem(row, 0, new QTableWidgetItem(QString::number(line)));
        m_notes->setItem(row, 1, new QTableWidgetItem());
        m_notes->setCurrentCell(row, 1);
        readForm();
        notify(QString(), tr("Add a note"));
    });
    connect(removeNote, &QPushButton::clicked, this, [this] {
        if (m_notes->currentRow() < 0)
            return;
        m_notes->removeRow(m_notes->currentRow());
        readForm();
        notify(QString(), tr("Remove a note"));
    });
}

void WalkthroughEditor::doLoad(const course::Activity& activity)
{
    m_walkthrough = activity.as<course::Walkthrough>() ? *activity.as<course::Walkthrough>() : course::Walkthrough{};
    showPane(std::max(0, std::min(m_current, static_cast<int>(m_walkthrough.panes.size()) - 1)));
}

void WalkthroughEditor::showPane(int index)
{
    const bool wasLoading = loading();
    QStringList labels;
    for (const auto& p : m_walkthrough.panes)
        labels << qs(p.label);
    m_current = m_walkthrough.panes.empty() ? -1 : index;
    m_list->setItems(labels, m_current);
    m_form->setEnabled(m_current >= 0);
    const QSignalBlocker b1(m_label), b2(m_language), b3(m_code), b4(m_notes);
    const course::WalkthroughPane pane = m_current >= 0 ? m_walkthrough.panes[m_current] : course::WalkthroughPane{};
    m_label->setText(qs(pane.label));
    m_language->setCurrentText(qs(pane.language));
    m_code->setPlainText(qs(pane.code));
    m_notes->setRowCount(0);
    for (const auto& [line, note] : pane.notes) {
        const int row = m_notes->rowCount();
        m_notes->insertRow(row);
        m_notes->setItem(row, 0, new QTableWidgetItem(QString::number(line)));
        m_notes->setItem(row, 1, new QTableWidgetItem(qs(note)));
    }
    if (!wasLoading)
        emit itemShown();
}

void WalkthroughEditor::readForm()
{
    if (m_current < 0)
        return;
    course::WalkthroughPane& pane = m_walkthrough.panes[m_current];
    pane.label = m_label->text().toStdString();
    pane.language = m_language->currentText().toStdString();
    pane.code = m_code->toPlainText().toStdString();
    pane.notes.clear();
    for (int row = 0; row < m_notes->rowCount(); ++row) {
        const QTableWidgetItem* line = m_notes->item(row, 0);
        const QTableWidgetItem* note = m_notes->item(row, 1);
        bool ok = false;
        const int n = line ? line->text().trimmed().toInt(&ok) : 0;
        // A line that is not a number becomes 0: the loader then names it ("line 0 is outside the listing").
        pane.notes[ok ? n : 0] = note ? note->text().toStdString() : std::string();
    }
    m_list->setLabel(m_current, m_label->text());
}

void WalkthroughEditor::store(course::Activity& activity) const
{
    activity.payload = m_walkthrough;
}

QWidget* WalkthroughEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    if (t.value(0) != QLatin1String("panes"))
        return nullptr;
    if (!m_list->holds(t, reveal))
        return m_list->list();
    const QString field = t.value(2);
    if (field == QLatin1String("label"))
        return m_label;
    if (field == QLatin1String("language"))
        return m_language;
    if (field == QLatin1String("code") || field == QLatin1String("code_file"))
        return m_code;
    if (field == QLatin1String("notes"))
        return m_notes;
    return m_form;
}

} // namespace tkm::app
