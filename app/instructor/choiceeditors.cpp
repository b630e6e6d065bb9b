// Instructor editors with answer keys: the quiz (questions and choices) and drag-match (targets and items).
#include "app/instructor/activityeditors.h"

#include "app/common/qtconvert.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tkm::app {

namespace {

QTableWidget* makeTable(QWidget* parent, const QStringList& headers)
{
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->hide();
    table->setWordWrap(false);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 10);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    return table;
}

QHBoxLayout* tableButtons(QWidget* parent, const QString& noun, QPushButton** add, QPushButton** remove,
                          QPushButton** up, QPushButton** down)
{
    auto* row = new QHBoxLayout;
    *add = new QPushButton(QObject::tr("Add %1").arg(noun), parent);
    *remove = new QPushButton(QObject::tr("Remove"), parent);
    *up = new QPushButton(QObject::tr("↑"), parent);
    *down = new QPushButton(QObject::tr("↓"), parent);
    (*up)->setToolTip(QObject::tr("Move the selected %1 up").arg(noun));
    (*down)->setToolTip(QObject::tr("Move the selected %1 down").arg(noun));
    for (QPushButton* b : {*add, *remove, *up, *down})
        row->addWidget(b);
    row->addStretch(1);
    return row;
}

QString cellText(const QTableWidget* table, int row, int column)
{
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

} // namespace

// ---- quiz

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

// ---- drag-match

DragMatchEditor::DragMatchEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_prompt = makeTextEdit(this, 2, false);
    m_prompt->setPlaceholderText(tr("The instruction, e.g. Drag each Triton idea onto its CUDA counterpart."));
    form->addRow(tr("Prompt"), m_prompt);

    m_targets = makeTable(this, {tr("Id"), tr("Target label")});
    m_targets->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_targets->setMinimumHeight(120);
    QPushButton *tAdd = nullptr, *tRemove = nullptr, *tUp = nullptr, *tDown = nullptr;
    auto* targetsBox = new QVBoxLayout;
    targetsBox->addWidget(m_targets);
    targetsBox->addLayout(tableButtons(this, tr("target"), &tAdd, &tRemove, &tUp, &tDown));
    form->addRow(tr("Targets"), targetsBox);

    m_items = makeTable(this, {tr("Id"), tr("Item label"), tr("Belongs on"), tr("Explanation")});
    m_items->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_items->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    m_items->setMinimumHeight(180);
    QPushButton *iAdd = nullptr, *iRemove = nullptr, *iUp = nullptr, *iDown = nullptr;
    auto* itemsBox = new QVBoxLayout;
    itemsBox->addWidget(m_items);
    itemsBox->addLayout(tableButtons(this, tr("item"), &iAdd, &iRemove, &iUp, &iDown));
    form->addRow(tr("Items"), itemsBox);

    watch(m_prompt, QStringLiteral("prompt"), tr("Edit the drag-match prompt"));
    connect(m_prompt, &QPlainTextEdit::textChanged, this,
            [this] { m_match.prompt = m_prompt->toPlainText().toStdString(); });
    connect(m_targets, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (loading())
            return;
        readTables();
        fillItems(); // the "belongs on" choices follow the targets
        notify(QStringLiteral("t%1/%2").arg(item->row()).arg(item->column()), tr("Edit a target"));
    });
    connect(m_items, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (loading())
            return;
        readTables();
        notify(QStringLiteral("i%1/%2").arg(item->row()).arg(item->column()), tr("Edit an item"));
    });
    auto rowOp = [this](QTableWidget* table, bool targets, int op) {
        const int row = table->currentRow();
        auto apply = [&](auto& vec) {
            using Vec = std::decay_t<decltype(vec)>;
            if (op == 0) {
                typename Vec::value_type v{};
                v.id = (targets ? "target-" : "item-") + std::to_string(vec.size() + 1);
                if constexpr (std::is_same_v<typename Vec::value_type, course::DragItem>)
                    v.target = m_match.targets.empty() ? std::string() : m_match.targets.front().id;
                vec.push_back(std::move(v));
                return static_cast<int>(vec.size()) - 1;
            }
            if (row < 0)
                return -1;
            if (op == 1) {
                vec.erase(vec.begin() + row);
                return std::min(row, static_cast<int>(vec.size()) - 1);
            }
            const int to = row + op - 3; // op 2 = up, 4 = down
            if (to < 0 || to >= static_cast<int>(vec.size()))
                return -1;
            std::swap(vec[row], vec[to]);
            return to;
        };
        const int select = targets ? apply(m_match.targets) : apply(m_match.items);
        if (select < 0 && op != 1)
            return;
        course::Activity a;
        a.payload = m_match;
        load(a);
        table->selectRow(select);
        static const char* const verbs[] = {"Add", "Remove", "Move", "", "Move"};
        notify(QString(),
               tr("%1 a drag-match %2").arg(QString::fromLatin1(verbs[op]), targets ? tr("target") : tr("item")));
    };
    connect(tAdd, &QPushButton::clicked, this, [=, this] { rowOp(m_targets, true, 0); });
    connect(tRemove, &QPushButton::clicked, this, [=, this] { rowOp(m_targets, true, 1); });
    connect(tUp, &QPushButton::clicked, this, [=, this] { rowOp(m_targets, true, 2); });
    connect(tDown, &QPushButton::clicked, this, [=, this] { rowOp(m_targets, true, 4); });
    connect(iAdd, &QPushButton::clicked, this, [=, this] { rowOp(m_items, false, 0); });
    connect(iRemove, &QPushButton::clicked, this, [=, this] { rowOp(m_items, false, 1); });
    connect(iUp, &QPushButton::clicked, this, [=, this] { rowOp(m_items, false, 2); });
    connect(iDown, &QPushButton::clicked, this, [=, this] { rowOp(m_items, false, 4); });
}

void DragMatchEditor::doLoad(const course::Activity& activity)
{
    if (const course::DragMatch* match = activity.as<course::DragMatch>())
        m_match = *match;
    const QSignalBlocker b1(m_prompt), b2(m_targets);
    m_prompt->setPlainText(qs(m_match.prompt));
    m_targets->setRowCount(0);
    for (const course::DragTarget& t : m_match.targets) {
        const int row = m_targets->rowCount();
        m_targets->insertRow(row);
        m_targets->setItem(row, 0, new QTableWidgetItem(qs(t.id)));
        m_targets->setItem(row, 1, new QTableWidgetItem(qs(t.text)));
    }
    fillItems();
}

void DragMatchEditor::fillItems()
{
    const QSignalBlocker block(m_items);
    const int current = m_items->currentRow();
    m_items->setRowCount(0);
    for (const course::DragItem& item : m_match.items) {
        const int row = m_items->rowCount();
        m_items->insertRow(row);
        m_items->setItem(row, 0, new QTableWidgetItem(qs(item.id)));
        m_items->setItem(row, 1, new QTableWidgetItem(qs(item.text)));
        auto* target = new QComboBox(m_items);
        for (const course::DragTarget& t : m_match.targets)
            target->addItem(qs(t.text.empty() ? t.id : t.text), qs(t.id));
        const int index = target->findData(qs(item.target));
        if (index < 0 && !item.target.empty())
            target->addItem(tr("%1 (no such target)").arg(qs(item.target)), qs(item.target));
        target->setCurrentIndex(index >= 0 ? index : target->count() - 1);
        connect(target, &QComboBox::currentIndexChanged, this, [this, row, target] {
            if (loading() || row >= static_cast<int>(m_match.items.size()))
                return;
            m_match.items[row].target = target->currentData().toString().toStdString();
            notify(QStringLiteral("i%1/target").arg(row), tr("Pair an item with a target"));
        });
        m_items->setCellWidget(row, 2, target);
        m_items->setItem(row, 3, new QTableWidgetItem(qs(item.explanation)));
    }
    if (current >= 0 && current < m_items->rowCount())
        m_items->selectRow(current);
}

void DragMatchEditor::readTables()
{
    m_match.targets.resize(m_targets->rowCount());
    for (int row = 0; row < m_targets->rowCount(); ++row) {
        m_match.targets[row].id = cellText(m_targets, row, 0).trimmed().toStdString();
        m_match.targets[row].text = cellText(m_targets, row, 1).toStdString();
    }
    m_match.items.resize(m_items->rowCount());
    for (int row = 0; row < m_items->rowCount(); ++row) {
        course::DragItem& item = m_match.items[row];
        item.id = cellText(m_items, row, 0).trimmed().toStdString();
        item.text = cellText(m_items, row, 1).toStdString();
        if (auto* combo = qobject_cast<QComboBox*>(m_items->cellWidget(row, 2)))
            item.target = combo->currentData().toString().toStdString();
        item.explanation = cellText(m_items, row, 3).toStdString();
    }
}

void DragMatchEditor::store(course::Activity& activity) const
{
    activity.payload = m_match;
}

QWidget* DragMatchEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    const QString what = t.value(0);
    if (what == QLatin1String("prompt"))
        return m_prompt;
    QTableWidget* table = what == QLatin1String("targets") ? m_targets
                          : what == QLatin1String("items") ? m_items
                                                           : nullptr;
    if (table && reveal && t.size() >= 2)
        table->selectRow(t[1].toInt());
    if (table && t.value(2) == QLatin1String("target") && t.size() >= 2)
        return m_items->cellWidget(t[1].toInt(), 2) ? m_items->cellWidget(t[1].toInt(), 2) : table;
    return table;
}

} // namespace tkm::app
