#include "app/course/moduleoverview.h"

#include "app/activities/markdownview.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/activitystate.h"
#include "app/course/coursenavigator.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

#include "modules/course/model.h"

#include <algorithm>

namespace tkm::app {

namespace {

QString hoursAndMinutes(int minutes)
{
    if (minutes < 60)
        return CoursePage::tr("about %1 min").arg(minutes);
    const int h = minutes / 60, m = minutes % 60;
    return m == 0 ? (h == 1 ? CoursePage::tr("about an hour") : CoursePage::tr("about %1 hours").arg(h))
                  : CoursePage::tr("about %1 h %2 min").arg(h).arg(m, 2, 10, QLatin1Char('0'));
}

ActivityState stateOf(const ActivityStateStore* states, const course::Module& m, const course::Activity& a)
{
    return states ? states->state(qs(m.id), qs(a.id)) : ActivityState::New;
}

// The first activity not done, or the first one when all are.
int firstNotDone(const course::Module& m, const ActivityStateStore* states)
{
    for (int a = 0; a < static_cast<int>(m.activities.size()); ++a)
        if (stateOf(states, m, m.activities[a]) != ActivityState::Done)
            return a;
    return 0;
}

QString quoted(const std::string& text)
{
    QString out;
    for (const QString& line : qs(text).split(QLatin1Char('\n')))
        out += QStringLiteral("> ") + line + QLatin1Char('\n');
    return out;
}

} // namespace

QString moduleOverviewMarkdown(const course::Course& course, int module, const ActivityStateStore* states)
{
    const course::Module& m = course.modules[module];
    int done = 0;
    for (const course::Activity& a : m.activities)
        done += stateOf(states, m, a) == ActivityState::Done;
    QString md = QStringLiteral("# %1. %2\n\n").arg(m.order).arg(qs(m.title));
    md += qs(m.summary) + QStringLiteral("\n\n");
    md += QStringLiteral("*") +
          CoursePage::tr("%1 of %2 activities done · %3 of study")
              .arg(done)
              .arg(m.activities.size())
              .arg(hoursAndMinutes(m.estimatedMinutes)) +
          QStringLiteral("*\n\n");
    md += QStringLiteral("## ") + CoursePage::tr("Activities") + QStringLiteral("\n\n");
    for (int a = 0; a < static_cast<int>(m.activities.size()); ++a) {
        const course::Activity& act = m.activities[a];
        const ActivityState state = stateOf(states, m, act);
        const QString mark = state == ActivityState::Done         ? QStringLiteral("✓")
                             : state == ActivityState::InProgress ? QStringLiteral("◐")
                                                                  : QStringLiteral("○");
        md += QStringLiteral("%1. %2 [%3](activity:%4) — %5, %6\n")
                  .arg(a + 1)
                  .arg(mark, qs(act.title))
                  .arg(a)
                  .arg(activityKindLabel(qs(course::activityKindName(act.kind))).toLower(),
                       ActivityStateStore::stateName(state));
    }
    QString probes;
    for (const course::Activity& act : m.activities)
        if (const auto* lesson = act.as<course::Lesson>())
            for (const course::Callout& c : lesson->callouts)
                if (c.kind == course::CalloutKind::Probe)
                    probes += QStringLiteral("> [!PROBE] ") + qs(c.title) + QLatin1Char('\n') + quoted(c.body) +
                              QStringLiteral("\n*") + CoursePage::tr("From “%1”").arg(qs(act.title)) +
                              QStringLiteral("*\n\n");
    if (!probes.isEmpty())
        md += QStringLiteral("\n## ") + CoursePage::tr("What the interviewer will probe") + QStringLiteral("\n\n") +
              probes;
    return md;
}

QString welcomeMarkdown(const course::Course& course)
{
    int minutes = 0, activities = 0;
    for (const course::Module& m : course.modules) {
        minutes += m.estimatedMinutes;
        activities += static_cast<int>(m.activities.size());
    }
    QString md = QStringLiteral("# ") + CoursePage::tr("Welcome to %1").arg(qs(course.title)) + QStringLiteral("\n\n");
    if (!course.throughLine.empty())
        md += qs(course.throughLine) + QStringLiteral("\n\n");
    md += CoursePage::tr("The course prepares you for GPU-kernel interviews in %1 modules and %2 activities: lessons, "
                         "quizzes, spot-the-bug listings, drag-and-match, step-through animations and coding "
                         "exercises. Plan on %3 in all; a module takes one sitting.")
              .arg(course.modules.size())
              .arg(activities)
              .arg(hoursAndMinutes(minutes)) +
          QStringLiteral("\n\n");
    md += QStringLiteral("## ") + CoursePage::tr("Modules") + QStringLiteral("\n\n");
    for (const course::Module& m : course.modules)
        md += QStringLiteral("%1. **%2** — %3\n").arg(m.order).arg(qs(m.title), hoursAndMinutes(m.estimatedMinutes));
    md += QStringLiteral("\n## ") + CoursePage::tr("Without an NVIDIA GPU") + QStringLiteral("\n\n");
    md += CoursePage::tr(
              "Everything but timing works. Lessons, quizzes and the interactive activities need no GPU. Triton "
              "exercises run on the built-in CPU interpreter, so their correctness cases are checked here too. CUDA "
              "exercises compile and show their diagnostics; their cases, the timing and the DRAM traffic need an "
              "NVIDIA GPU and its driver.") +
          QStringLiteral("\n\n");
    md += QStringLiteral("## ") + CoursePage::tr("Where to start") + QStringLiteral("\n\n");
    md += CoursePage::tr("Start with the first lesson and press **Next →** at the end of each activity. The course "
                         "list on the left shows what is done (Ctrl+1); the progress dashboard (F9) keeps your place "
                         "and what to review.") +
          QStringLiteral("\n");
    return md;
}

CoursePage::CoursePage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("coursePage"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 8);
    m_page = new MarkdownView(this);
    m_page->setOpenLinks(false);
    m_page->setOpenExternalLinks(false);
    layout->addWidget(m_page, 1);
    m_start = makePrimaryButton(QStringLiteral("startButton"), this);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(m_start);
    row->addSpacing(16);
    layout->addLayout(row);
    connect(m_start, &QPushButton::clicked, this,
            [this] { emit activityRequested(std::max(m_module, 0), m_startActivity); });
    connect(m_page, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("activity"))
            emit activityRequested(std::max(m_module, 0), url.path().toInt());
    });
}

void CoursePage::showModule(const course::Course& course, int module, const ActivityStateStore* states)
{
    m_module = module;
    const course::Module& m = course.modules[module];
    m_startActivity = firstNotDone(m, states);
    m_page->setMarkdownText(moduleOverviewMarkdown(course, module, states));
    m_start->setEnabled(!m.activities.empty());
    if (!m.activities.empty())
        m_start->setText(tr("Start: %1 →").arg(qs(m.activities[m_startActivity].title)));
}

void CoursePage::showWelcome(const course::Course& course)
{
    m_module = -1;
    m_startActivity = 0;
    m_page->setMarkdownText(welcomeMarkdown(course));
    const bool any = !course.modules.empty() && !course.modules.front().activities.empty();
    m_start->setEnabled(any);
    m_start->setText(any ? tr("Start with “%1” →").arg(qs(course.modules.front().activities.front().title))
                         : tr("The course is empty"));
}

} // namespace tkm::app
