// Instructor editor of a quiz: questions and their choices.
#include "app/instructor/quizeditor.h"

#include "app/common/qtconvert.h"

#include <QCheckBox>
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

course::Activity QuizEditor::newActivity(const std::string& id)
{
    course::Question q;
    q.id = "q1";
    q.prompt = "The question.";
    q.choices = {{"The right answer.", true, "Why it is right."}, {"A wrong answer.", false, "Why it is wrong."}};
    return makeActivity(course::ActivityKind::Quiz, id, "New quiz", course::Quiz{{q}});
}

QuizEditor::QuizEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_list = new ItemListPanel(tr("question"), this);
    m_list->list()->setMaximumHeight(96);
    layout->addWidget(m_list);

    m_form = new QWidget(this);
    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_id = new QLineEdit(m_form);
    m_id->setPlaceholderText(tr("unique in the quiz, [a-z0-9-]"));
    form->addRow(tr("Id"), m_id);
    m_prompt = makeTextEdit(m_form, 3, false);
    m_prompt->setPlaceholderText(tr("The question (Markdown)"));
    form->addRow(tr("Question"), m_prompt);
    m_multiple = new QCheckBox(tr("Several choices are right (check boxes)"), m_form);
    form->addRow(QString(), m_multiple);
    m_choices = makeTable(m_form, {tr("Right"), tr("Choice (Markdown)"), tr("Explanation")});
    m_choices->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_choices->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_choices->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
    m_choices->setMinimumHeight(150);
    QPushButton *add = nullptr, *remove = nullptr, *up = nullptr, *down = nullptr;
    auto* choicesBox = new QVBoxLayout;
    choicesBox->addWidget(m_choices);
    choicesBox->addLayout(tableButtons(m_form, tr("choice"), &add, &remove, &up, &down));
    form->addRow(tr("Choices"), choicesBox);
    m_code = makeTextEdit(m_form, 3, true);
    m_code->setPlaceholderText(tr("Optional listing shown above the choices"));
    m_language = makeLanguageCombo(m_form);
    auto* codeBox = new QVBoxLayout;
    codeBox->addWidget(m_code);
    codeBox->addWidget(m_language, 0, Qt::AlignLeft);
    form->addRow(tr("Code"), codeBox);
    m_followup = makeTextEdit(m_form, 2, false);
    m_followup->setPlaceholderText(tr("Optional: a senior interviewer's next question"));
    form->addRow(tr("Follow-up"), m_followup);
    m_followupAnswer = makeTextEdit(m_form, 2, false);
    m_followupAnswer->setPlaceholderText(tr("Its answer (needed when there is a follow-up)"));
    form->addRow(tr("Follow-up answer"), m_followupAnswer);
    layout->addWidget(m_form, 1);

    connect(m_list, &ItemListPanel::currentChanged, this, [this](int row) { showQuestion(row); });
    connect(m_list, &ItemListPanel::addRequested, this, [this] { addQuestion(); });
    connect(m_list, &ItemListPanel::removeRequested, this, [this](int row) {
        m_quiz.questions.erase(m_quiz.questions.begin() + row);
        showQuestion(std::min(row, static_cast<int>(m_quiz.questions.size()) - 1));
        notify(QString(), tr("Remove a question"));
    });
    connect(m_list, &ItemListPanel::moveRequested, this, [this](int row, int delta) {
        std::swap(m_quiz.questions[row], m_quiz.questions[row + delta]);
        showQuestion(row + delta);
        notify(QString(), tr("Move a question"));
    });
    auto edited = [this](const QString& what, const QString& description) {
        return [=, this] {
            if (loading() || m_current < 0)
                return;
            readForm();
            notify(QStringLiteral("q%1/%2").arg(m_current).arg(what), description);
        };
    };
    connect(m_id, &QLineEdit::textChanged, this, edited(QStringLiteral("id"), tr("Edit a question id")));
    connect(m_prompt, &QPlainTextEdit::textChanged, this, edited(QStringLiteral("prompt"), tr("Edit a question")));
    connect(m_multiple, &QCheckBox::toggled, this, edited(QStringLiteral("multiple"), tr("Switch single/multiple")));
    connect(m_code, &QPlainTextEdit::textChanged, this, edited(QStringLiteral("code"), tr("Edit a question's code")));
    connect(m_language, &QComboBox::currentIndexChanged, this,
            edited(QStringLiteral("language"), tr("Change a language")));
    connect(m_followup, &QPlainTextEdit::textChanged, this, edited(QStringLiteral("followup"), tr("Edit a follow-up")));
    connect(m_followupAnswer, &QPlainTextEdit::textChanged, this,
            edited(QStringLiteral("followup_answer"), tr("Edit a follow-up answer")));
    connect(m_choices, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (loading() || m_current < 0)
            return;
        if (item->column() == 0 && item->checkState() == Qt::Checked && !m_multiple->isChecked()) {
            // One right answer: ticking a choice moves the tick (radio-button behaviour).
            const QSignalBlocker block(m_choices);
            for (int row = 0; row < m_choices->rowCount(); ++row)
                if (row != item->row() && m_choices->item(row, 0))
                    m_choices->item(row, 0)->setCheckState(Qt::Unchecked);
        }
        readChoices();
        notify(QStringLiteral("q%1/c%2/%3").arg(m_current).arg(item->row()).arg(item->column()),
               item->column() == 0 ? tr("Change the right answer") : tr("Edit a choice"));
    });
    connect(add, &QPushButton::clicked, this, [this] { addChoice(); });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_choices->currentRow();
        if (m_current < 0 || row < 0)
            return;
        auto& choices = m_quiz.questions[m_current].choices;
        choices.erase(choices.begin() + row);
        refreshChoices();
        notify(QString(), tr("Remove a choice"));
    });
    auto move = [this](int delta) {
        const int row = m_choices->currentRow();
        if (m_current < 0 || row < 0)
            return;
        auto& choices = m_quiz.questions[m_current].choices;
        if (row + delta < 0 || row + delta >= static_cast<int>(choices.size()))
            return;
        std::swap(choices[row], choices[row + delta]);
        refreshChoices();
        m_choices->selectRow(row + delta);
        notify(QString(), tr("Move a choice"));
    };
    connect(up, &QPushButton::clicked, this, [=] { move(-1); });
    connect(down, &QPushButton::clicked, this, [=] { move(+1); });
}

void QuizEditor::doLoad(const course::Activity& activity)
{
    m_quiz = activity.as<course::Quiz>() ? *activity.as<course::Quiz>() : course::Quiz{};
    showQuestion(std::max(0, std::min(m_current, static_cast<int>(m_quiz.questions.size()) - 1)));
}

void QuizEditor::addQuestion()
{
    course::Question q;
    q.id = "q" + std::to_string(m_quiz.questions.size() + 1);
    q.choices = {{"", true, ""}, {"", false, ""}};
    m_quiz.questions.push_back(std::move(q));
    showQuestion(static_cast<int>(m_quiz.questions.size()) - 1);
    notify(QString(), tr("Add a question"));
    m_prompt->setFocus();
}

void QuizEditor::addChoice()
{
    if (m_current < 0)
        return;
    m_quiz.questions[m_current].choices.push_back({});
    refreshChoices();
    m_choices->setCurrentCell(m_choices->rowCount() - 1, 1);
    notify(QString(), tr("Add a choice"));
}

void QuizEditor::showQuestion(int index)
{
    const bool wasLoading = loading();
    QStringList labels;
    for (const auto& q : m_quiz.questions)
        labels << qs(q.id);
    m_current = m_quiz.questions.empty() ? -1 : index;
    m_list->setItems(labels, m_current);
    m_form->setEnabled(m_current >= 0);
    {
        const QSignalBlocker b1(m_id), b2(m_prompt), b3(m_multiple), b4(m_code), b5(m_language), b6(m_followup),
            b7(m_followupAnswer);
        const course::Question q = m_current >= 0 ? m_quiz.questions[m_current] : course::Question{};
        m_id->setText(qs(q.id));
        m_prompt->setPlainText(qs(q.prompt));
        m_multiple->setChecked(q.multiple);
        m_code->setPlainText(qs(q.code));
        m_language->setCurrentText(q.language.empty() ? QStringLiteral("python") : qs(q.language));
        m_followup->setPlainText(qs(q.followup));
        m_followupAnswer->setPlainText(qs(q.followupAnswer));
    }
    refreshChoices();
    if (!wasLoading)
        emit itemShown();
}

void QuizEditor::refreshChoices()
{
    const QSignalBlocker block(m_choices);
    m_choices->setRowCount(0);
    if (m_current < 0)
        return;
    for (const course::Choice& c : m_quiz.questions[m_current].choices) {
        const int row = m_choices->rowCount();
        m_choices->insertRow(row);
        auto* right = new QTableWidgetItem;
        right->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        right->setCheckState(c.correct ? Qt::Checked : Qt::Unchecked);
        right->setToolTip(tr("Tick every right choice"));
        m_choices->setItem(row, 0, right);
        m_choices->setItem(row, 1, new QTableWidgetItem(qs(c.text)));
        m_choices->setItem(row, 2, new QTableWidgetItem(qs(c.explanation)));
        m_choices->item(row, 1)->setToolTip(qs(c.text));
        m_choices->item(row, 2)->setToolTip(tr("Shown after answering: %1").arg(qs(c.explanation)));
    }
}

void QuizEditor::readForm()
{
    course::Question& q = m_quiz.questions[m_current];
    q.id = m_id->text().trimmed().toStdString();
    q.prompt = m_prompt->toPlainText().toStdString();
    q.multiple = m_multiple->isChecked();
    q.code = m_code->toPlainText().toStdString();
    q.language = q.code.empty() ? std::string() : m_language->currentText().toStdString();
    q.followup = m_followup->toPlainText().toStdString();
    q.followupAnswer = m_followupAnswer->toPlainText().toStdString();
    m_list->setLabel(m_current, m_id->text());
}

void QuizEditor::readChoices()
{
    auto& choices = m_quiz.questions[m_current].choices;
    choices.resize(m_choices->rowCount());
    for (int row = 0; row < m_choices->rowCount(); ++row) {
        choices[row].correct = m_choices->item(row, 0) && m_choices->item(row, 0)->checkState() == Qt::Checked;
        choices[row].text = cellText(m_choices, row, 1).toStdString();
        choices[row].explanation = cellText(m_choices, row, 2).toStdString();
    }
}

void QuizEditor::store(course::Activity& activity) const
{
    activity.payload = m_quiz;
}

QWidget* QuizEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    if (t.value(0) != QLatin1String("questions"))
        return nullptr;
    if (!m_list->holds(t, reveal))
        return m_list->list();
    const QString field = t.value(2);
    if (field == QLatin1String("choices")) {
        if (t.size() >= 4 && reveal) {
            const int column = t.value(4) == QLatin1String("explanation") ? 2
                               : t.value(4) == QLatin1String("correct")   ? 0
                                                                          : 1;
            m_choices->setCurrentCell(t[3].toInt(), column);
        }
        return m_choices;
    }
    if (field == QLatin1String("id"))
        return m_id;
    if (field == QLatin1String("prompt"))
        return m_prompt;
    if (field == QLatin1String("multiple"))
        return m_multiple;
    if (field == QLatin1String("code") || field == QLatin1String("code_file") || field == QLatin1String("language"))
        return m_code;
    if (field == QLatin1String("followup"))
        return m_followup;
    if (field == QLatin1String("followup_answer"))
        return m_followupAnswer;
    return m_form;
}

} // namespace tkm::app
