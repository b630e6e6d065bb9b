// Instructor editors: shared pieces, the factory, and the lesson, walkthrough, step-through and exercise editors.
// Quiz and drag-match: choiceeditors.cpp; spot the bug: spotthebugeditor.cpp.
#include "app/instructor/activityeditors.h"

#include "app/common/qtconvert.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

namespace tkm::app {

ItemListPanel::ItemListPanel(const QString& noun, QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new QListWidget(this);
    layout->addWidget(m_list, 1);
    auto* buttons = new QHBoxLayout;
    auto button = [&](const QString& text, const QString& tip) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAutoRaise(true);
        buttons->addWidget(b);
        return b;
    };
    QToolButton* add = button(tr("+ Add"), tr("Add a %1").arg(noun));
    m_remove = button(tr("− Remove"), tr("Remove the selected %1").arg(noun));
    m_up = button(tr("↑"), tr("Move the selected %1 up").arg(noun));
    m_down = button(tr("↓"), tr("Move the selected %1 down").arg(noun));
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(add, &QToolButton::clicked, this, &ItemListPanel::addRequested);
    connect(m_remove, &QToolButton::clicked, this, [this] {
        if (currentRow() >= 0)
            emit removeRequested(currentRow());
    });
    connect(m_up, &QToolButton::clicked, this, [this] {
        if (currentRow() > 0)
            emit moveRequested(currentRow(), -1);
    });
    connect(m_down, &QToolButton::clicked, this, [this] {
        if (currentRow() >= 0 && currentRow() + 1 < m_list->count())
            emit moveRequested(currentRow(), +1);
    });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        updateButtons();
        emit currentChanged(row);
    });
    updateButtons();
}

void ItemListPanel::setItems(const QStringList& labels, int current)
{
    const QSignalBlocker block(m_list);
    m_list->clear();
    m_list->addItems(labels);
    m_list->setCurrentRow(labels.isEmpty() ? -1 : std::clamp(current, 0, static_cast<int>(labels.size()) - 1));
    updateButtons();
}

void ItemListPanel::setLabel(int row, const QString& label)
{
    if (QListWidgetItem* item = m_list->item(row))
        item->setText(label);
}

int ItemListPanel::currentRow() const
{
    return m_list->currentRow();
}
void ItemListPanel::setCurrentRow(int row)
{
    m_list->setCurrentRow(row);
}

bool ItemListPanel::holds(const QStringList& tokens, bool reveal)
{
    if (tokens.size() < 2)
        return false;
    const int row = tokens[1].toInt();
    if (reveal && row != currentRow())
        setCurrentRow(row);
    return row == currentRow();
}

void ItemListPanel::updateButtons()
{
    const int row = m_list->currentRow();
    m_remove->setEnabled(row >= 0);
    m_up->setEnabled(row > 0);
    m_down->setEnabled(row >= 0 && row + 1 < m_list->count());
}

ActivityEditor::ActivityEditor(QWidget* parent) : QWidget(parent) {}

void ActivityEditor::load(const course::Activity& activity)
{
    m_loading = true;
    doLoad(activity);
    m_loading = false;
}

void ActivityEditor::notify(const QString& field, const QString& description)
{
    if (!m_loading)
        emit edited(field, description);
}

void ActivityEditor::watch(QLineEdit* edit, const QString& field, const QString& description)
{
    connect(edit, &QLineEdit::textChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QPlainTextEdit* edit, const QString& field, const QString& description)
{
    connect(edit, &QPlainTextEdit::textChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QSpinBox* spin, const QString& field, const QString& description)
{
    connect(spin, &QSpinBox::valueChanged, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QCheckBox* check, const QString& field, const QString& description)
{
    connect(check, &QCheckBox::toggled, this, [=, this] { notify(field, description); });
}

void ActivityEditor::watch(QComboBox* combo, const QString& field, const QString& description)
{
    connect(combo, &QComboBox::currentIndexChanged, this, [=, this] { notify(field, description); });
}

QPlainTextEdit* makeTextEdit(QWidget* parent, int lines, bool monospace)
{
    auto* edit = new QPlainTextEdit(parent);
    if (monospace)
        edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTabStopDistance(QFontMetricsF(edit->font()).horizontalAdvance(QLatin1Char(' ')) * 4);
    edit->setMinimumHeight(QFontMetrics(edit->font()).lineSpacing() * lines + 12);
    edit->setLineWrapMode(monospace ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    return edit;
}

QComboBox* makeLanguageCombo(QWidget* parent)
{
    auto* combo = new QComboBox(parent);
    for (const char* language : {"python", "cuda", "cpp", "text", "shell"})
        combo->addItem(QString::fromLatin1(language));
    return combo;
}

QStringList pointerTokens(const QString& pointer)
{
    QStringList tokens = pointer.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    for (QString& t : tokens)
        t.replace(QStringLiteral("~1"), QStringLiteral("/")).replace(QStringLiteral("~0"), QStringLiteral("~"));
    return tokens;
}

ActivityEditor* createActivityEditor(course::ActivityKind kind, QWidget* parent)
{
    switch (kind) {
    case course::ActivityKind::Lesson:
        return new LessonEditor(parent);
    case course::ActivityKind::Walkthrough:
        return new WalkthroughEditor(parent);
    case course::ActivityKind::Quiz:
        return new QuizEditor(parent);
    case course::ActivityKind::SpotTheBug:
        return new SpotTheBugEditor(parent);
    case course::ActivityKind::DragMatch:
        return new DragMatchEditor(parent);
    case course::ActivityKind::StepThrough:
        return new StepThroughEditor(parent);
    case course::ActivityKind::Exercise:
        return new ExerciseActivityEditor(parent);
    }
    return nullptr;
}

// ---- lesson

LessonEditor::LessonEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Reading time:"), this));
    m_minutes = new QSpinBox(this);
    m_minutes->setRange(0, 600);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setSpecialValueText(tr("not given"));
    m_minutes->setObjectName(QStringLiteral("minutes"));
    row->addWidget(m_minutes);
    row->addStretch(1);
    auto* callout = new QToolButton(this);
    callout->setText(tr("Insert callout"));
    callout->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(callout);
    const QList<QPair<QString, QString>> kinds = {{QStringLiteral("PROBE"), tr("What interviewers probe")},
                                                  {QStringLiteral("GOTCHA"), tr("A trap")},
                                                  {QStringLiteral("RULE"), tr("A rule to remember")},
                                                  {QStringLiteral("VERSION"), tr("A version note")},
                                                  {QStringLiteral("NOTE"), tr("A note")}};
    for (const auto& [kind, label] : kinds)
        menu->addAction(QStringLiteral("%1 — %2").arg(kind, label), this, [this, kind] { insertCallout(kind); });
    callout->setMenu(menu);
    row->addWidget(callout);
    layout->addLayout(row);
    m_markdown = makeTextEdit(this, 20, true);
    m_markdown->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_markdown->setObjectName(QStringLiteral("markdown"));
    m_markdown->setPlaceholderText(tr("# Heading\n\nMarkdown text. Callouts: > [!PROBE] title"));
    layout->addWidget(m_markdown, 1);
    watch(m_minutes, QStringLiteral("minutes"), tr("Change the reading time"));
    watch(m_markdown, QStringLiteral("markdown"), tr("Edit the lesson text"));
}

void LessonEditor::doLoad(const course::Activity& activity)
{
    const course::Lesson* lesson = activity.as<course::Lesson>();
    m_minutes->setValue(lesson && lesson->minutes ? *lesson->minutes : 0);
    m_markdown->setPlainText(lesson ? qs(lesson->markdown) : QString());
}

void LessonEditor::store(course::Activity& activity) const
{
    course::Lesson lesson = activity.as<course::Lesson>() ? *activity.as<course::Lesson>() : course::Lesson{};
    lesson.title = activity.title;
    lesson.minutes = m_minutes->value() > 0 ? std::optional<int>(m_minutes->value()) : std::nullopt;
    lesson.markdown = m_markdown->toPlainText().toStdString();
    activity.payload = std::move(lesson);
}

QWidget* LessonEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    if (t.value(0) == QLatin1String("minutes"))
        return m_minutes;
    if (t.value(0) == QLatin1String("markdown")) {
        if (reveal && t.size() > 1) {
            QTextCursor cursor(m_markdown->document()->findBlockByLineNumber(t[1].toInt() - 1));
            m_markdown->setTextCursor(cursor);
            m_markdown->centerCursor();
        }
        return m_markdown;
    }
    return nullptr;
}

void LessonEditor::insertCallout(const QString& kind)
{
    QTextCursor cursor = m_markdown->textCursor();
    if (cursor.positionInBlock() > 0)
        cursor.insertText(QStringLiteral("\n"));
    cursor.insertText(QStringLiteral("\n> [!%1] %2\n> %3\n").arg(kind, tr("Title"), tr("Text of the box.")));
    m_markdown->setTextCursor(cursor);
}

// ---- walkthrough

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

// ---- exercise

ExerciseActivityEditor::ExerciseActivityEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_edit = new QPushButton(tr("Edit exercise…"), this);
    m_edit->setToolTip(tr("Opens the exercise's spec (parameters, cases, tolerances) and its sources in the exercise "
                          "editor, where Validate checks them on the GPU."));
    layout->addWidget(m_edit, 0, Qt::AlignLeft);
    layout->addStretch(1);
    connect(m_edit, &QPushButton::clicked, this, [this] { emit editExerciseRequested(m_folder); });
}

void ExerciseActivityEditor::doLoad(const course::Activity& activity)
{
    const course::Exercise* exercise = activity.as<course::Exercise>();
    m_folder = qs(exercise && !exercise->folder.empty() ? exercise->folder : activity.source);
    QString text = tr("<p>A coding exercise: the learner writes <code>%1</code>.</p>"
                      "<p><b>Spec id:</b> %2<br><b>Folder:</b> %3</p>"
                      "<p>The activity's title is the spec's <code>title</code>. The spec, the starter, solution, "
                      "reference and bug variants are edited in the exercise editor.</p>")
                       .arg(exercise ? qs(exercise->kernel).toHtmlEscaped() : QString(),
                            exercise ? qs(exercise->specId).toHtmlEscaped() : QString(), m_folder.toHtmlEscaped());
    m_summary->setText(text);
    m_edit->setEnabled(!m_folder.isEmpty());
}

void ExerciseActivityEditor::store(course::Activity&) const {}

QWidget* ExerciseActivityEditor::fieldWidget(const QString&, bool)
{
    return m_edit;
}

} // namespace tkm::app
