#include "app/activities/lessonview.h"

#include "app/activities/markdownview.h"
#include "app/common/qtconvert.h"
#include "app/course/coursenavigator.h"

#include <QInputDialog>
#include <QLabel>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include "modules/course/model.h"

namespace tkm::app {

LessonView::LessonView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_page = new MarkdownView(this);
    m_page->setAccessibleName(tr("Lesson"));
    layout->addWidget(m_page);
    QString markdown;
    if (const auto* lesson = activity.as<course::Lesson>()) {
        markdown = qs(lesson->markdown);
        if (lesson->minutes)
            markdown = QStringLiteral("*") +
                       (*lesson->minutes == 1 ? tr("About a minute of reading.")
                                              : tr("About %1 minutes of reading.").arg(*lesson->minutes)) +
                       QStringLiteral("*\n\n") + markdown;
    }
    m_page->setMarkdownText(markdown);
    m_readLine = new QLabel(this);
    m_readLine->setObjectName(QStringLiteral("lessonReadLine"));
    m_readLine->setWordWrap(true);
    m_readLine->setContentsMargins(16, 4, 16, 4);
    m_readLine->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_readLine);
    markInProgress();
    showReadState();
    connect(m_page->verticalScrollBar(), &QScrollBar::valueChanged, this, &LessonView::checkRead);
    connect(m_page->verticalScrollBar(), &QScrollBar::rangeChanged, this, &LessonView::checkRead);
    if (context.states)
        connect(context.states, &ActivityStateStore::stateChanged, this, [this] { showReadState(); });
}

void LessonView::checkRead()
{
    // At the end, give or take three lines: nobody must hunt for the last pixel, but a lesson whose last
    // paragraphs are below the fold is not read when it opens (half a screen of slack marked a lesson that is
    // 236 px taller than the window read at start-up).
    const QScrollBar* bar = m_page->verticalScrollBar();
    const int slack = 3 * m_page->fontMetrics().lineSpacing();
    if (isVisible() && bar->value() >= bar->maximum() - slack)
        markDone();
}

void LessonView::finishOnNext()
{
    markDone();
}

void LessonView::showReadState()
{
    const bool read =
        context().states && context().states->state(moduleId(), activityId()) == ActivityState::Done;
    m_readLine->setText(read ? tr("✓ Read — this lesson counts as done.")
                             : tr("This lesson counts as read once you reach its end or press Next →."));
}

void LessonView::find()
{
    bool ok = false;
    const QString text =
        QInputDialog::getText(this, tr("Find in lesson"), tr("Find:"), QLineEdit::Normal, QString(), &ok);
    if (ok && !text.isEmpty() && !m_page->find(text)) {
        m_page->moveCursor(QTextCursor::Start);
        if (!m_page->find(text))
            emit statusMessage(tr("\"%1\" is not on this page.").arg(text));
    }
}

} // namespace tkm::app
