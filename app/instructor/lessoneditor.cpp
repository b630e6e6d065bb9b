// Instructor editor of a lesson page.
#include "app/instructor/lessoneditor.h"

#include "app/common/qtconvert.h"

#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QTextBlock>
#include <QToolButton>
#include <QVBoxLayout>

namespace tkm::app {

course::Activity LessonEditor::newActivity(const std::string& id)
{
    course::Lesson lesson{"New lesson", std::nullopt, "# New lesson\n\nWrite the page here in Markdown.\n", 1, {}};
    return makeActivity(course::ActivityKind::Lesson, id, "New lesson", std::move(lesson));
}

LessonEditor::LessonEditor(QWidget* parent) : ActivityEditor(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Reading time:"), this));
    m_minutes = new QSpinBox(this);
    m_minutes->setRange(0, 600);
    m_minutes->setSuffix(tr(" min"));
    m_minutes->setSpecialValueText(tr("not given"));
    m_minutes->setObjectName(QStringLiteral("minutes"));
    row->addWidget(m_minutes);
    row->addStretch(1);
    auto* callout = new QToolButton(this);
    callout->setText(tr("Insert callout"));
    callout->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(callout);
    const QList<QPair<QString, QString>> kinds = {{QStringLiteral("PROBE"), tr("What interviewers probe")},
                                                  {QStringLiteral("GOTCHA"), tr("A trap")},
                                                  {QStringLiteral("RULE"), tr("A rule to remember")},
                                                  {QStringLiteral("VERSION"), tr("A version note")},
                                                  {QStringLiteral("NOTE"), tr("A note")}};
    for (const auto& [kind, label] : kinds)
        menu->addAction(QStringLiteral("%1 — %2").arg(kind, label), this, [this, kind] { insertCallout(kind); });
    callout->setMenu(menu);
    row->addWidget(callout);
    layout->addLayout(row);
    m_markdown = makeTextEdit(this, 20, true);
    m_markdown->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_markdown->setObjectName(QStringLiteral("markdown"));
    m_markdown->setPlaceholderText(tr("# Heading\n\nMarkdown text. Callouts: > [!PROBE] title"));
    layout->addWidget(m_markdown, 1);
    watch(m_minutes, QStringLiteral("minutes"), tr("Change the reading time"));
    watch(m_markdown, QStringLiteral("markdown"), tr("Edit the lesson text"));
}

void LessonEditor::doLoad(const course::Activity& activity)
{
    const course::Lesson* lesson = activity.as<course::Lesson>();
    m_minutes->setValue(lesson && lesson->minutes ? *lesson->minutes : 0);
    m_markdown->setPlainText(lesson ? qs(lesson->markdown) : QString());
}

void LessonEditor::store(course::Activity& activity) const
{
    course::Lesson lesson = activity.as<course::Lesson>() ? *activity.as<course::Lesson>() : course::Lesson{};
    lesson.title = activity.title;
    lesson.minutes = m_minutes->value() > 0 ? std::optional<int>(m_minutes->value()) : std::nullopt;
    lesson.markdown = m_markdown->toPlainText().toStdString();
    activity.payload = std::move(lesson);
}

QWidget* LessonEditor::fieldWidget(const QString& pointer, bool reveal)
{
    const QStringList t = pointerTokens(pointer);
    if (t.value(0) == QLatin1String("minutes"))
        return m_minutes;
    if (t.value(0) == QLatin1String("markdown")) {
        if (reveal && t.size() > 1) {
            QTextCursor cursor(m_markdown->document()->findBlockByLineNumber(t[1].toInt() - 1));
            m_markdown->setTextCursor(cursor);
            m_markdown->centerCursor();
        }
        return m_markdown;
    }
    return nullptr;
}

void LessonEditor::insertCallout(const QString& kind)
{
    QTextCursor cursor = m_markdown->textCursor();
    if (cursor.positionInBlock() > 0)
        cursor.insertText(QStringLiteral("\n"));
    cursor.insertText(QStringLiteral("\n> [!%1] %2\n> %3\n").arg(kind, tr("Title"), tr("Text of the box.")));
    m_markdown->setTextCursor(cursor);
}

} // namespace tkm::app
