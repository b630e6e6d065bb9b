#include "app/activities/stepthroughview.h"

#include "app/activities/diagrams/diagrams.h"
#include "app/activities/markdownview.h"
#include "app/common/qtconvert.h"
#include "app/course/coursenavigator.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>
#include <QVariantAnimation>

#include "modules/course/model.h"

namespace tkm::app {

StepThroughView::StepThroughView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    const auto* st = activity.as<course::StepThrough>();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("step-through"))));

    m_diagram = createDiagram(st ? st->diagram : course::Diagram::Table, this);
    m_diagram->setAccessibleName(tr("Diagram"));
    nlohmann::json states = nlohmann::json::array();
    if (st)
        for (const course::Step& step : st->steps)
            states.push_back(step.state);
    m_diagram->setSteps(st ? st->params : nlohmann::json::object(), states);

    auto* controls = new QHBoxLayout;
    m_back = new QPushButton(tr("◀ &Back"), this);
    m_back->setToolTip(tr("Previous step (Left arrow)"));
    m_play = new QPushButton(tr("▶ &Play"), this);
    m_play->setToolTip(tr("Play the steps one after another (Space, or Ctrl+Return)"));
    m_next = new QPushButton(tr("&Next ▶"), this);
    m_next->setToolTip(tr("Next step (Right arrow)"));
    m_dots = new QLabel(this);
    controls->addWidget(m_back);
    controls->addWidget(m_play);
    controls->addWidget(m_next);
    controls->addSpacing(12);
    controls->addWidget(m_dots);
    controls->addStretch();
    if (st && st->diagram == course::Diagram::TileGrid) {
        auto* label = new QLabel(tr("&GROUP_SIZE_M:"), this);
        m_groupSize = new QSpinBox(this);
        m_groupSize->setRange(1, 64);
        m_groupSize->setToolTip(
            tr("Change the group size: the order of the programs and the tile loads are recomputed."));
        label->setBuddy(m_groupSize);
        controls->addWidget(label);
        controls->addWidget(m_groupSize);
        auto* grid = static_cast<TileGridDiagram*>(m_diagram);
        connect(m_groupSize, &QSpinBox::valueChanged, this, [grid](int v) { grid->setGroupSizeM(v); });
    }

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->addWidget(m_diagram);
    auto* textBox = new QWidget(splitter);
    auto* textLayout = new QVBoxLayout(textBox);
    textLayout->setContentsMargins(0, 4, 0, 0);
    m_stepTitle = new QLabel(textBox);
    QFont f = m_stepTitle->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    m_stepTitle->setFont(f);
    m_stepTitle->setWordWrap(true);
    textLayout->addWidget(m_stepTitle);
    m_text = new MarkdownView(textBox);
    m_text->document()->setDocumentMargin(4);
    textLayout->addWidget(m_text, 1);
    splitter->addWidget(textBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);
    layout->addLayout(controls);

    m_animation = new QVariantAnimation(this);
    m_animation->setStartValue(0.0);
    m_animation->setEndValue(1.0);
    m_animation->setDuration(700);
    connect(m_animation, &QVariantAnimation::valueChanged, this,
            [this](const QVariant& v) { m_diagram->setProgress(v.toDouble()); });
    m_player = new QTimer(this);
    m_player->setInterval(2200);
    connect(m_player, &QTimer::timeout, this, [this] {
        // Stop on reaching the last step, not one tick later: the button then offers Play again at once.
        if (!next() || m_step >= stepCount() - 1)
            setPlaying(false);
    });
    connect(m_back, &QPushButton::clicked, this, [this] { back(); });
    connect(m_next, &QPushButton::clicked, this, [this] { next(); });
    connect(m_play, &QPushButton::clicked, this, [this] { setPlaying(!isPlaying()); });
    goTo(0);
    finishAnimation();
}

int StepThroughView::stepCount() const
{
    const auto* st = activity().as<course::StepThrough>();
    return st ? static_cast<int>(st->steps.size()) : 0;
}

bool StepThroughView::goTo(int index)
{
    const auto* st = activity().as<course::StepThrough>();
    if (!st || index < 0 || index >= stepCount())
        return false;
    m_step = index;
    const course::Step& step = st->steps[index];
    m_diagram->setCurrent(index);
    m_animation->stop();
    m_animation->start();
    m_stepTitle->setText(tr("Step %1 of %2 · %3").arg(index + 1).arg(stepCount()).arg(qs(step.title)));
    m_text->setMarkdownText(qs(step.text));
    if (m_groupSize) {
        // Follow the authored group size at each step; the learner can change it again.
        const QSignalBlocker block(m_groupSize);
        const int g = std::max(1, static_cast<int>(jsonField(step.state, "group_size_m", 1)));
        m_groupSize->setValue(g);
        static_cast<TileGridDiagram*>(m_diagram)->setGroupSizeM(0);
    }
    markInProgress();
    if (index == stepCount() - 1) {
        markDone();
        if (ActivityStateStore* store = context().states)
            store->recordStepCompletion(moduleId(), activityId(), stepCount());
    }
    updateControls();
    return true;
}

void StepThroughView::reset()
{
    setPlaying(false);
    goTo(0);
}

bool StepThroughView::next()
{
    return goTo(m_step + 1);
}
bool StepThroughView::back()
{
    return goTo(m_step - 1);
}

void StepThroughView::setPlaying(bool playing)
{
    if (playing) {
        if (m_step >= stepCount() - 1)
            goTo(0);
        m_player->start();
    } else {
        m_player->stop();
    }
    updateControls();
}

bool StepThroughView::isPlaying() const
{
    return m_player->isActive();
}

void StepThroughView::finishAnimation()
{
    m_animation->stop();
    m_diagram->setProgress(1.0);
}

void StepThroughView::updateControls()
{
    m_back->setEnabled(m_step > 0);
    m_next->setEnabled(m_step < stepCount() - 1);
    const bool atEnd = stepCount() > 1 && m_step >= stepCount() - 1;
    m_play->setText(isPlaying() ? tr("❚❚ &Pause") : (atEnd ? tr("↻ Play &again") : tr("▶ &Play")));
    QString dots;
    for (int i = 0; i < stepCount(); ++i)
        dots += i == m_step ? QStringLiteral("●") : QStringLiteral("○");
    m_dots->setText(dots);
    m_diagram->setAccessibleDescription(m_diagram->describe());
}

void StepThroughView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Right:
        next();
        return;
    case Qt::Key_Left:
        back();
        return;
    case Qt::Key_Space:
        setPlaying(!isPlaying());
        return;
    case Qt::Key_Home:
        goTo(0);
        return;
    case Qt::Key_End:
        goTo(stepCount() - 1);
        return;
    default:
        ActivityView::keyPressEvent(event);
    }
}

} // namespace tkm::app
