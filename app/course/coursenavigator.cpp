#include "app/course/coursenavigator.h"

#include "app/common/qtconvert.h"

#include <QHeaderView>
#include <QKeyEvent>

#include "modules/course/model.h"

namespace tkm::app {

namespace {
constexpr int kModuleRole = Qt::UserRole + 1;
constexpr int kActivityRole = Qt::UserRole + 2;
} // namespace

QIcon activityKindIcon(const QString& kind)
{
    return QIcon(QStringLiteral(":/icons/kind-%1.svg").arg(kind));
}

QIcon activityStateIcon(ActivityState state)
{
    switch (state) {
    case ActivityState::Done:
        return QIcon(QStringLiteral(":/icons/state-done.svg"));
    case ActivityState::InProgress:
        return QIcon(QStringLiteral(":/icons/state-progress.svg"));
    case ActivityState::New:
        break;
    }
    return QIcon(QStringLiteral(":/icons/state-new.svg"));
}

QString activityKindLabel(const QString& kind)
{
    if (kind == QLatin1String("lesson"))
        return CourseNavigator::tr("Lesson");
    if (kind == QLatin1String("walkthrough"))
        return CourseNavigator::tr("Code walkthrough");
    if (kind == QLatin1String("quiz"))
        return CourseNavigator::tr("Quiz");
    if (kind == QLatin1String("spot-the-bug"))
        return CourseNavigator::tr("Spot the bug");
    if (kind == QLatin1String("drag-match"))
        return CourseNavigator::tr("Drag and match");
    if (kind == QLatin1String("step-through"))
        return CourseNavigator::tr("Step-through");
    if (kind == QLatin1String("exercise"))
        return CourseNavigator::tr("Coding exercise");
    return kind;
}

CourseNavigator::CourseNavigator(QWidget* parent) : QTreeWidget(parent)
{
    // Column 0: the kind's icon and the title; column 1: the state's icon (new, in progress, done).
    setColumnCount(2);
    setHeaderHidden(true);
    header()->setStretchLastSection(false);
    header()->setSectionResizeMode(0, QHeaderView::Stretch);
    header()->setSectionResizeMode(1, QHeaderView::Fixed);
    header()->resizeSection(1, 24);
    setTextElideMode(Qt::ElideRight);
    setRootIsDecorated(true);
    setUniformRowHeights(true);
    setIconSize(QSize(16, 16));
    setAccessibleName(tr("Course"));
    const auto choose = [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        if (item->data(0, kActivityRole).isValid())
            emit activityChosen(item->data(0, kModuleRole).toInt(), item->data(0, kActivityRole).toInt());
        else
            emit moduleChosen(item->data(0, kModuleRole).toInt());
    };
    connect(this, &QTreeWidget::itemActivated, this, choose);
    // A single click (or the arrow keys) on a row opens it too: the tree is the table of contents.
    connect(this, &QTreeWidget::currentItemChanged, this, [this, choose](QTreeWidgetItem* item) {
        if (!m_selecting)
            choose(item);
    });
}

void CourseNavigator::setCourse(const course::Course* course, ActivityStateStore* states)
{
    if (m_states)
        m_states->disconnect(this);
    m_course = course;
    m_states = states;
    clear();
    if (!m_course)
        return;
    if (m_states)
        connect(m_states, &ActivityStateStore::stateChanged, this, &CourseNavigator::onStateChanged);
    for (int m = 0; m < static_cast<int>(m_course->modules.size()); ++m) {
        const course::Module& module = m_course->modules[m];
        auto* moduleItem = new QTreeWidgetItem(this);
        moduleItem->setData(0, kModuleRole, m);
        QFont bold = moduleItem->font(0);
        bold.setBold(true);
        moduleItem->setFont(0, bold);
        moduleItem->setToolTip(0, tr("%1. %2\n%3").arg(module.order).arg(qs(module.title), qs(module.summary)));
        for (int a = 0; a < static_cast<int>(module.activities.size()); ++a) {
            auto* item = new QTreeWidgetItem(moduleItem);
            item->setData(0, kModuleRole, m);
            item->setData(0, kActivityRole, a);
            updateItem(item, m, a);
        }
        updateModule(m);
    }
}

void CourseNavigator::updateItem(QTreeWidgetItem* item, int module, int activity)
{
    const course::Activity& a = m_course->modules[module].activities[activity];
    const QString kind = qs(course::activityKindName(a.kind));
    const ActivityState state =
        m_states ? m_states->state(qs(m_course->modules[module].id), qs(a.id)) : ActivityState::New;
    item->setText(0, qs(a.title));
    item->setIcon(0, activityKindIcon(kind));
    item->setIcon(1, activityStateIcon(state));
    // The full title: the dock is narrow and long titles are elided.
    const QString tip = tr("%1\n%2 · %3").arg(qs(a.title), activityKindLabel(kind), ActivityStateStore::stateName(state));
    item->setToolTip(0, tip);
    item->setToolTip(1, tip);
    item->setData(0, Qt::AccessibleDescriptionRole, tr("%1 · %2").arg(activityKindLabel(kind),
                                                                     ActivityStateStore::stateName(state)));
}

void CourseNavigator::updateModule(int module)
{
    QTreeWidgetItem* moduleItem = topLevelItem(module);
    if (!moduleItem)
        return;
    const course::Module& m = m_course->modules[module];
    const auto [done, total] = moduleCounts(module);
    moduleItem->setText(0, tr("%1. %2  (%3/%4)").arg(m.order).arg(qs(m.title)).arg(done).arg(total));
    moduleItem->setIcon(1, activityStateIcon(done == total && total > 0 ? ActivityState::Done
                                             : done > 0                 ? ActivityState::InProgress
                                                                        : ActivityState::New));
}

QPair<int, int> CourseNavigator::moduleCounts(int module) const
{
    if (!m_course || module < 0 || module >= static_cast<int>(m_course->modules.size()))
        return {0, 0};
    const course::Module& m = m_course->modules[module];
    int done = 0;
    for (const course::Activity& a : m.activities)
        done += m_states && m_states->state(qs(m.id), qs(a.id)) == ActivityState::Done;
    return {done, static_cast<int>(m.activities.size())};
}

bool CourseNavigator::selectModule(int module)
{
    QTreeWidgetItem* item = topLevelItem(module);
    if (!item)
        return false;
    m_selecting = true;
    setCurrentItem(item);
    m_selecting = false;
    return true;
}

void CourseNavigator::onStateChanged(const QString& moduleId, const QString& activityId, ActivityState)
{
    if (!m_course)
        return;
    for (int m = 0; m < static_cast<int>(m_course->modules.size()); ++m) {
        if (qs(m_course->modules[m].id) != moduleId)
            continue;
        const auto& activities = m_course->modules[m].activities;
        for (int a = 0; a < static_cast<int>(activities.size()); ++a)
            if (qs(activities[a].id) == activityId)
                updateItem(activityItem(m, a), m, a);
        updateModule(m);
    }
}

void CourseNavigator::refreshStates()
{
    if (!m_course)
        return;
    for (int m = 0; m < topLevelItemCount(); ++m) {
        for (int a = 0; a < topLevelItem(m)->childCount(); ++a)
            updateItem(topLevelItem(m)->child(a), m, a);
        updateModule(m);
    }
}

QTreeWidgetItem* CourseNavigator::activityItem(int module, int activity) const
{
    QTreeWidgetItem* moduleItem = topLevelItem(module);
    if (!moduleItem || activity < 0 || activity >= moduleItem->childCount())
        return nullptr;
    return moduleItem->child(activity);
}

bool CourseNavigator::selectActivity(int module, int activity)
{
    QTreeWidgetItem* item = activityItem(module, activity);
    if (!item)
        return false;
    m_selecting = true;
    item->parent()->setExpanded(true);
    setCurrentItem(item);
    scrollToItem(item);
    m_selecting = false;
    return true;
}

QPair<int, int> CourseNavigator::currentActivity() const
{
    QTreeWidgetItem* item = currentItem();
    if (!item || !item->data(0, kActivityRole).isValid())
        return {-1, -1};
    return {item->data(0, kModuleRole).toInt(), item->data(0, kActivityRole).toInt()};
}

QPair<int, int> CourseNavigator::nextActivity() const
{
    auto [m, a] = currentActivity();
    if (m < 0) {
        QTreeWidgetItem* item = currentItem();
        if (item) // a module row is selected: its first activity
            return activityItem(item->data(0, kModuleRole).toInt(), 0)
                       ? QPair<int, int>{item->data(0, kModuleRole).toInt(), 0}
                       : QPair<int, int>{-1, -1};
        return activityItem(0, 0) ? QPair<int, int>{0, 0} : QPair<int, int>{-1, -1};
    }
    if (activityItem(m, a + 1))
        return {m, a + 1};
    for (int next = m + 1; next < topLevelItemCount(); ++next)
        if (activityItem(next, 0))
            return {next, 0};
    return {-1, -1};
}

QPair<int, int> CourseNavigator::previousActivity() const
{
    auto [m, a] = currentActivity();
    if (m < 0)
        return {-1, -1};
    if (a > 0)
        return {m, a - 1};
    for (int prev = m - 1; prev >= 0; --prev)
        if (topLevelItem(prev)->childCount() > 0)
            return {prev, topLevelItem(prev)->childCount() - 1};
    return {-1, -1};
}

} // namespace tkm::app
