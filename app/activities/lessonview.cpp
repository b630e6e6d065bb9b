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
    markInProgress();
    // Done once the learner has seen the end of the page (or at once when it fits on the screen).
    connect(m_page->verticalScrollBar(), &QScrollBar::valueChanged, this, &LessonView::checkScrolledToEnd);
    connect(m_page->verticalScrollBar(), &QScrollBar::rangeChanged, this, &LessonView::checkScrolledToEnd);
}

void LessonView::checkScrolledToEnd()
{
    const QScrollBar* bar = m_page->verticalScrollBar();
    if (isVisible() && bar->value() >= bar->maximum() - 4)
        markDone();
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
