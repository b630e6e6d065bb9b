#include "app/activities/activityview.h"

#include "app/activities/dragmatchview.h"
#include "app/activities/exerciseview.h"
#include "app/activities/lessonview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/activities/walkthroughview.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "modules/course/model.h"

namespace tkm::app {

ActivityView::ActivityView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : QWidget(parent), m_activity(activity), m_context(context)
{
}

QString ActivityView::moduleId() const
{
    return m_context.module ? qs(m_context.module->id) : QString();
}
QString ActivityView::activityId() const
{
    return qs(m_activity.id);
}

void ActivityView::markInProgress()
{
    if (m_context.states)
        m_context.states->advance(moduleId(), activityId(), ActivityState::InProgress);
}

void ActivityView::markDone()
{
    if (m_context.states)
        m_context.states->advance(moduleId(), activityId(), ActivityState::Done);
}

bool ActivityView::confirm(const QString& question) const
{
    return !m_context.confirm || m_context.confirm(question);
}

QVariant ActivityView::storedValue(const QString& key, const QVariant& fallback) const
{
    return m_context.states ? m_context.states->value(moduleId(), activityId(), key, fallback) : fallback;
}

void ActivityView::storeValue(const QString& key, const QVariant& value)
{
    if (m_context.states)
        m_context.states->setValue(moduleId(), activityId(), key, value);
}

QWidget* ActivityView::makeHeader(const QString& kindLabel)
{
    auto* header = new QWidget(this);
    auto* layout = new QHBoxLayout(header);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* kind = new QLabel(kindLabel.toUpper(), header);
    QFont small = kind->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    small.setBold(true);
    small.setLetterSpacing(QFont::PercentageSpacing, 110);
    kind->setFont(small);
    kind->setForegroundRole(QPalette::PlaceholderText);
    auto* title = new QLabel(qs(m_activity.title), header);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.45);
    big.setBold(true);
    title->setFont(big);
    title->setWordWrap(true);
    title->setObjectName(QStringLiteral("activityTitle"));
    auto* column = new QVBoxLayout;
    column->setSpacing(0);
    column->addWidget(kind);
    column->addWidget(title);
    layout->addLayout(column, 1);
    return header;
}

ActivityFooter::ActivityFooter(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("activityFooter"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 6);
    m_previous = new QPushButton(this);
    m_previous->setObjectName(QStringLiteral("previousActivity"));
    m_next = makePrimaryButton(QStringLiteral("nextActivity"), this);
    layout->addWidget(m_previous);
    layout->addStretch(1);
    layout->addWidget(m_next);
    connect(m_previous, &QPushButton::clicked, this, &ActivityFooter::previousClicked);
    connect(m_next, &QPushButton::clicked, this, &ActivityFooter::nextClicked);
    setNeighbours({}, {});
}

void ActivityFooter::setNeighbours(const QString& previousTitle, const QString& nextTitle)
{
    // Long titles are elided so the bar never sets a minimum width; the tooltip has them whole.
    const auto label = [](QPushButton* b, const QString& text) {
        b->setText(QFontMetrics(b->font()).elidedText(text, Qt::ElideMiddle, 220));
    };
    label(m_previous, previousTitle.isEmpty() ? tr("← Previous") : tr("← %1").arg(previousTitle));
    m_previous->setToolTip(previousTitle.isEmpty() ? QString() : tr("Previous: %1 (Alt+Left)").arg(previousTitle));
    m_previous->setEnabled(!previousTitle.isEmpty());
    label(m_next, nextTitle.isEmpty() ? tr("End of the course") : tr("Next: %1 →").arg(nextTitle));
    m_next->setToolTip(nextTitle.isEmpty() ? QString() : tr("Next: %1 (Alt+Right)").arg(nextTitle));
    m_next->setEnabled(!nextTitle.isEmpty());
}

ActivityView* createActivityView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
{
    switch (activity.kind) {
    case course::ActivityKind::Lesson:
        return new LessonView(activity, context, parent);
    case course::ActivityKind::Walkthrough:
        return new WalkthroughView(activity, context, parent);
    case course::ActivityKind::Quiz:
        return new QuizView(activity, context, parent);
    case course::ActivityKind::SpotTheBug:
        return new SpotTheBugView(activity, context, parent);
    case course::ActivityKind::DragMatch:
        return new DragMatchView(activity, context, parent);
    case course::ActivityKind::StepThrough:
        return new StepThroughView(activity, context, parent);
    case course::ActivityKind::Exercise:
        return new ExerciseView(activity, context, parent);
    }
    return nullptr;
}

} // namespace tkm::app
