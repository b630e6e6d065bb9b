// Instructor editor of a drag-match: targets and items.
#include "app/instructor/dragmatcheditor.h"

#include "app/common/qtconvert.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tkm::app {

course::Activity DragMatchEditor::newActivity(const std::string& id)
{
    course::DragMatch d;
    d.prompt = "Drag each item onto its target.";
    d.targets = {{"target-1", "A target"}};
    d.items = {{"item-1", "An item", "target-1", "Why it belongs there."}};
    return makeActivity(course::ActivityKind::DragMatch, id, "New drag-match", std::move(d));
}

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
