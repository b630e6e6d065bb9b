#include "app/activities/dragmatchview.h"

#include "app/activities/choiceorder.h"
#include "app/activities/markdownview.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"

#include <QComboBox>
#include <QDrag>
#include <QDragEnterEvent>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

#include "modules/course/grading.h"
#include "modules/course/model.h"

namespace tkm::app {

namespace {
constexpr int kItemIdRole = Qt::UserRole + 10;
}

DropList::DropList(const QString& targetId, QWidget* parent) : QListWidget(parent), m_targetId(targetId)
{
    setDragEnabled(true);
    setAcceptDrops(true);
    setDropIndicatorShown(true);
    setDragDropMode(QAbstractItemView::DragDrop);
    setDefaultDropAction(Qt::MoveAction);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setWordWrap(true);
    setSpacing(2);
}

QString DropList::mimeType()
{
    return QStringLiteral("application/x-tkm-drag-item");
}

QMimeData* DropList::mimeFor(const QString& itemId)
{
    auto* mime = new QMimeData;
    mime->setData(mimeType(), itemId.toUtf8());
    return mime;
}

void DropList::startDrag(Qt::DropActions)
{
    QListWidgetItem* item = currentItem();
    if (!item)
        return;
    auto* drag = new QDrag(this);
    drag->setMimeData(mimeFor(item->data(kItemIdRole).toString()));
    const QRect rect = visualItemRect(item);
    QPixmap pixmap(rect.size() * devicePixelRatioF());
    pixmap.setDevicePixelRatio(devicePixelRatioF());
    pixmap.fill(Qt::transparent);
    viewport()->render(&pixmap, {}, QRegion(rect));
    drag->setPixmap(pixmap);
    drag->exec(Qt::MoveAction);
}

void DropList::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasFormat(mimeType()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void DropList::dragMoveEvent(QDragMoveEvent* event)
{
    if (event->mimeData()->hasFormat(mimeType()))
        event->acceptProposedAction();
    else
        event->ignore();
}

void DropList::dropEvent(QDropEvent* event)
{
    if (!event->mimeData()->hasFormat(mimeType())) {
        event->ignore();
        return;
    }
    event->setDropAction(Qt::MoveAction);
    event->accept();
    // The view rebuilds every list from its model: the source list must not remove the item itself.
    emit itemDropped(QString::fromUtf8(event->mimeData()->data(mimeType())), m_targetId);
}

void DropList::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if (key >= Qt::Key_0 && key <= Qt::Key_9 && currentItem() && event->modifiers() == Qt::NoModifier) {
        emit placeByKey(currentItem()->data(kItemIdRole).toString(), key - Qt::Key_0);
        event->accept();
        return;
    }
    QListWidget::keyPressEvent(event);
}

DragMatchView::DragMatchView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    const auto* match = activity.as<course::DragMatch>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("drag-match"))));
    if (match) {
        auto* prompt = new QLabel(this);
        prompt->setTextFormat(Qt::MarkdownText);
        prompt->setText(qs(match->prompt));
        prompt->setWordWrap(true);
        layout->addWidget(prompt);
    }
    auto* keys = new QLabel(tr("Mouse: drag an item onto a box. Keyboard: select an item, then press the box's number "
                               "(0 sends it back), or choose the box in “Move to” and press Place."),
                            this);
    keys->setWordWrap(true);
    keys->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(keys);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* poolBox = new QGroupBox(tr("0 · Items to place"), splitter);
    auto* poolLayout = new QVBoxLayout(poolBox);
    m_pool = new DropList(QString(), poolBox);
    m_pool->setAccessibleName(tr("Items to place"));
    poolLayout->addWidget(m_pool);

    // At most nine targets (the number keys): rows of up to three boxes fit without scrolling.
    auto* targetsWidget = new QWidget(splitter);
    auto* grid = new QGridLayout(targetsWidget);
    grid->setContentsMargins(0, 0, 0, 0);
    if (match) {
        // Up to three boxes side by side in one row; four as 2 × 2; more in rows of three.
        const int count = static_cast<int>(match->targets.size());
        const int columns = count <= 3 ? std::max(count, 1) : (count == 4 ? 2 : 3);
        for (int t = 0; t < static_cast<int>(match->targets.size()); ++t) {
            const course::DragTarget& target = match->targets[t];
            // A framed box with the target's text wrapped above its drop list (titles can be long and hold `code`).
            auto* box = new QFrame(targetsWidget);
            box->setFrameShape(QFrame::StyledPanel);
            auto* boxLayout = new QVBoxLayout(box);
            boxLayout->setContentsMargins(6, 4, 6, 6);
            auto* title = new QLabel(box);
            title->setTextFormat(Qt::MarkdownText);
            title->setWordWrap(true);
            title->setText(QStringLiteral("**%1** · %2").arg(t + 1).arg(qs(target.text)));
            boxLayout->addWidget(title);
            auto* list = new DropList(qs(target.id), box);
            list->setAccessibleName(qs(target.text));
            list->setMinimumHeight(56);
            list->setMinimumWidth(80);
            boxLayout->addWidget(list, 1);
            box->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
            grid->addWidget(box, t / columns, t % columns);
            m_targets.insert(qs(target.id), list);
        }
    }
    splitter->addWidget(poolBox);
    splitter->addWidget(targetsWidget);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    // The boxes' size hints are small on purpose (they wrap); start with the pool at about a quarter of the width.
    splitter->setSizes({300, 900});
    layout->addWidget(splitter, 3);

    auto* controls = new QHBoxLayout;
    auto* moveLabel = new QLabel(tr("&Move to:"), this);
    m_moveTo = new QComboBox(this);
    moveLabel->setBuddy(m_moveTo);
    m_moveTo->addItem(tr("0 · Items to place"), QString());
    if (match)
        for (int t = 0; t < static_cast<int>(match->targets.size()); ++t)
            m_moveTo->addItem(QStringLiteral("%1 · %2").arg(t + 1).arg(qs(match->targets[t].text)),
                              qs(match->targets[t].id));
    m_place = new QPushButton(tr("&Place"), this);
    m_check = new QPushButton(tr("&Check"), this);
    m_check->setDefault(true);
    controls->addWidget(moveLabel);
    controls->addWidget(m_moveTo, 1);
    controls->addWidget(m_place);
    controls->addStretch();
    controls->addWidget(m_check);
    layout->addLayout(controls);
    m_feedback = new MarkdownView(this);
    m_feedback->setFrameShape(QFrame::StyledPanel);
    m_feedback->setMarkdownText(tr("Place every item, then press Check (Ctrl+Return)."));
    layout->addWidget(m_feedback, 2);

    QList<DropList*> lists = m_targets.values();
    lists.prepend(m_pool);
    for (DropList* list : lists) {
        connect(list, &DropList::itemDropped, this,
                [this](const QString& item, const QString& target) { place(item, target); });
        connect(list, &DropList::placeByKey, this, [this, match](const QString& item, int number) {
            if (number == 0)
                place(item, QString());
            else if (match && number <= static_cast<int>(match->targets.size()))
                place(item, qs(match->targets[number - 1].id));
        });
        connect(list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* current) {
            if (current)
                m_lastSelected = current->data(kItemIdRole).toString();
        });
    }
    connect(m_place, &QPushButton::clicked, this, &DragMatchView::placeSelectedFromCombo);
    connect(m_check, &QPushButton::clicked, this, [this] { check(); });
    restoreAttempt();
}

void DragMatchView::drawOrder(bool fresh)
{
    const auto* match = activity().as<course::DragMatch>();
    const int n = match ? static_cast<int>(match->items.size()) : 0;
    m_order = fresh ? QList<int>() : orderFromText(storedValue(QStringLiteral("order")).toString(), n);
    if (m_order.isEmpty()) {
        const quint64 seed = attemptSeed(fresh ? QString() : storedValue(QStringLiteral("seed")).toString());
        storeValue(QStringLiteral("seed"), QString::number(seed));
        m_order = shuffledOrder(n, seed, activityId());
        storeValue(QStringLiteral("order"), orderToText(m_order));
    }
}

void DragMatchView::restoreAttempt()
{
    // The pool order and the placement of an earlier visit (also before a restart) come back as they were.
    drawOrder(false);
    const QJsonObject placed =
        QJsonDocument::fromJson(storedValue(QStringLiteral("placement")).toString().toUtf8()).object();
    for (auto it = placed.begin(); it != placed.end(); ++it)
        if (m_targets.contains(it.value().toString()))
            m_placement.insert(it.key(), it.value().toString());
    if (storedValue(QStringLiteral("checked"), false).toBool() && !m_placement.isEmpty())
        showGrade(false);
    else
        rebuild();
}

void DragMatchView::storePlacement()
{
    QJsonObject placed;
    for (auto it = m_placement.begin(); it != m_placement.end(); ++it)
        placed.insert(it.key(), it.value());
    storeValue(QStringLiteral("placement"), QString::fromUtf8(QJsonDocument(placed).toJson(QJsonDocument::Compact)));
}

QString DragMatchView::selectedItemId() const
{
    return m_lastSelected;
}

void DragMatchView::placeSelectedFromCombo()
{
    const QString item = selectedItemId();
    if (item.isEmpty()) {
        emit statusMessage(tr("Select an item first."));
        return;
    }
    place(item, m_moveTo->currentData().toString());
}

bool DragMatchView::place(const QString& itemId, const QString& targetId)
{
    const auto* match = activity().as<course::DragMatch>();
    if (!match)
        return false;
    bool knownItem = false;
    for (const course::DragItem& i : match->items)
        knownItem = knownItem || qs(i.id) == itemId;
    if (!knownItem || (!targetId.isEmpty() && !m_targets.contains(targetId)))
        return false;
    if (targetId.isEmpty())
        m_placement.remove(itemId);
    else
        m_placement.insert(itemId, targetId);
    m_checked.clear();
    m_lastSelected = itemId;
    storePlacement();
    storeValue(QStringLiteral("checked"), false);
    markInProgress();
    rebuild();
    // Keep the keyboard on the moved item so it can be moved again at once.
    DropList* list = targetId.isEmpty() ? m_pool : m_targets.value(targetId);
    for (int r = 0; r < list->count(); ++r)
        if (list->item(r)->data(kItemIdRole).toString() == itemId)
            list->setCurrentRow(r);
    return true;
}

void DragMatchView::rebuild()
{
    const auto* match = activity().as<course::DragMatch>();
    if (!match)
        return;
    m_pool->clear();
    for (DropList* list : std::as_const(m_targets))
        list->clear();
    const QColor green = toneColor(Tone::Good, palette());
    const QColor red = toneColor(Tone::Wrong, palette());
    for (int index : std::as_const(m_order)) {
        const course::DragItem& i = match->items[index];
        const QString id = qs(i.id);
        const QString target = m_placement.value(id);
        DropList* list = target.isEmpty() ? m_pool : m_targets.value(target, m_pool);
        // Items are plain list entries: Markdown code ticks are dropped (the feedback below renders them).
        const QString text = qs(i.text).remove(QLatin1Char('`'));
        auto* item = new QListWidgetItem(text, list);
        item->setData(kItemIdRole, id);
        item->setToolTip(tr("Drag onto a box, or press its number."));
        if (m_checked.contains(id)) {
            const bool right = m_checked.value(id);
            item->setText((right ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) + text);
            item->setForeground(right ? green : red);
        }
    }
}

bool DragMatchView::check()
{
    return showGrade(true);
}

bool DragMatchView::showGrade(bool record)
{
    const auto* match = activity().as<course::DragMatch>();
    if (!match)
        return false;
    std::map<std::string, std::string> placement;
    for (auto it = m_placement.begin(); it != m_placement.end(); ++it)
        placement[it.key().toStdString()] = it.value().toStdString();
    const course::DragGrade grade = course::gradeDragMatch(*match, placement);
    m_checked.clear();
    QString text;
    if (grade.allCorrect)
        text = QStringLiteral("**") + tr("All %1 items are on their targets.").arg(grade.items.size()) +
               QStringLiteral("**\n\n");
    else
        text = QStringLiteral("**") + tr("%1 of %2 right").arg(grade.correctCount).arg(grade.items.size()) +
               (grade.unplaced > 0 ? tr(", %n not placed yet", nullptr, grade.unplaced) : QString()) +
               QStringLiteral(".** ") + tr("Move the ✗ items and check again.") + QStringLiteral("\n\n");
    for (const course::DragItemGrade& g : grade.items) {
        const QString id = qs(g.itemId);
        QString itemText = id;
        QString targetText = qs(g.correctTarget);
        for (const course::DragItem& i : match->items)
            if (i.id == g.itemId)
                itemText = qs(i.text);
        for (const course::DragTarget& t : match->targets)
            if (t.id == g.correctTarget)
                targetText = qs(t.text);
        if (!g.placedTarget.empty())
            m_checked.insert(id, g.correct);
        const QString mark =
            g.correct ? QStringLiteral("✓") : (g.placedTarget.empty() ? QStringLiteral("·") : QStringLiteral("✗"));
        if (g.correct || grade.allCorrect)
            text += QStringLiteral("- %1 **%2** → %3: %4\n").arg(mark, itemText, targetText, qs(g.explanation));
        else
            text += QStringLiteral("- %1 **%2**%3\n")
                        .arg(mark, itemText, g.placedTarget.empty() ? tr(": not placed yet") : tr(": not there."));
    }
    m_feedback->setMarkdownText(text);
    rebuild();
    if (!record)
        return grade.allCorrect;
    storeValue(QStringLiteral("checked"), true);
    storeValue(QStringLiteral("attempts"), storedValue(QStringLiteral("attempts"), 0).toInt() + 1);
    if (ActivityStateStore* store = context().states) {
        QJsonObject placed;
        for (auto it = m_placement.begin(); it != m_placement.end(); ++it)
            placed.insert(it.key(), it.value());
        store->recordDragAttempt(moduleId(), activityId(), placed, grade.correctCount,
                                 static_cast<int>(grade.items.size()));
    }
    if (grade.allCorrect)
        markDone();
    return grade.allCorrect;
}

QString DragMatchView::feedbackText() const
{
    return m_feedback->markdownText();
}

void DragMatchView::reset()
{
    m_placement.clear();
    m_checked.clear();
    storePlacement();
    storeValue(QStringLiteral("checked"), false);
    drawOrder(true);
    m_feedback->setMarkdownText(tr("Place every item, then press Check (Ctrl+Return)."));
    rebuild();
}

} // namespace tkm::app
