#include "app/activities/quizview.h"

#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

#include "modules/course/grading.h"
#include "modules/course/model.h"

#include <algorithm>

namespace tkm::app {

namespace {

QLabel* markdownLabel(const QString& markdown, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::MarkdownText);
    label->setText(markdown);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    label->setOpenExternalLinks(true);
    return label;
}

QString questionKey(const course::Question& q, const char* leaf)
{
    return QStringLiteral("q/") + qs(q.id) + QLatin1Char('/') + QLatin1String(leaf);
}

} // namespace

QuizView::QuizView(const course::Activity& activity, const ActivityContext& context, QWidget* parent)
    : ActivityView(activity, context, parent)
{
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* content = new QWidget(scroll);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(16, 12, 16, 16);
    layout->setSpacing(12);
    layout->addWidget(makeHeader(activityKindLabel(QStringLiteral("quiz"))));
    m_score = new QLabel(content);
    layout->addWidget(m_score);

    const auto* quiz = activity.as<course::Quiz>();
    const int count = quiz ? static_cast<int>(quiz->questions.size()) : 0;
    for (int qi = 0; qi < count; ++qi) {
        const course::Question& q = quiz->questions[qi];
        Card card;
        auto* box = new QGroupBox(tr("Question %1 of %2").arg(qi + 1).arg(count), content);
        card.box = box;
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->addWidget(markdownLabel(qs(q.prompt), box));
        if (!q.code.empty()) {
            auto* code = new ListingView(box);
            code->setListing(qs(q.code), qs(q.language));
            const int lineCount = std::min(code->lineCount(), 14);
            code->setFixedHeight(code->textHeight(0) * lineCount + 12);
            boxLayout->addWidget(code);
        }
        if (q.multiple) {
            auto* note = new QLabel(tr("Several answers may be right: tick every one."), box);
            note->setForegroundRole(QPalette::PlaceholderText);
            boxLayout->addWidget(note);
        }
        auto* group = new QButtonGroup(box);
        group->setExclusive(!q.multiple);
        for (int ci = 0; ci < static_cast<int>(q.choices.size()); ++ci) {
            const QString text = qs(q.choices[ci].text);
            QAbstractButton* button = q.multiple ? static_cast<QAbstractButton*>(new QCheckBox(text, box))
                                                 : static_cast<QAbstractButton*>(new QRadioButton(text, box));
            // Choice texts are Markdown; buttons show plain text, so drop the backticks and emphasis marks.
            QString plain = text;
            plain.remove(QLatin1Char('`'));
            plain.replace(QStringLiteral("**"), QString());
            button->setText(plain);
            button->setAccessibleName(plain);
            group->addButton(button, ci);
            boxLayout->addWidget(button);
            card.choices.append(button);
            auto* explanation = new QWidget(box);
            auto* row = new QHBoxLayout(explanation);
            row->setContentsMargins(26, 0, 0, 4);
            auto* mark = new QLabel(explanation);
            mark->setTextFormat(Qt::RichText);
            mark->setAlignment(Qt::AlignLeft | Qt::AlignTop);
            auto* why = markdownLabel(qs(q.choices[ci].explanation), explanation);
            row->addWidget(mark);
            row->addWidget(why, 1);
            explanation->hide();
            boxLayout->addWidget(explanation);
            card.explanations.append(explanation);
            card.marks.append(mark);
        }
        card.verdict = new QLabel(box);
        card.verdict->setWordWrap(true);
        card.verdict->hide();
        boxLayout->addWidget(card.verdict);
        auto* buttons = new QHBoxLayout;
        card.check = new QPushButton(tr("&Check answer"), box);
        card.retry = new QPushButton(tr("&Try again"), box);
        card.retry->hide();
        buttons->addWidget(card.check);
        buttons->addWidget(card.retry);
        buttons->addStretch();
        boxLayout->addLayout(buttons);
        if (!q.followup.empty()) {
            auto* followup = new QFrame(box);
            followup->setFrameShape(QFrame::StyledPanel);
            auto* fl = new QVBoxLayout(followup);
            fl->addWidget(markdownLabel(QStringLiteral("**") + tr("A senior interviewer follows up:") +
                                            QStringLiteral("** ") + qs(q.followup),
                                        followup));
            auto* show = new QToolButton(followup);
            show->setText(tr("Show a good answer"));
            show->setCheckable(true);
            auto* answer = markdownLabel(qs(q.followupAnswer), followup);
            answer->hide();
            connect(show, &QToolButton::toggled, answer, &QWidget::setVisible);
            fl->addWidget(show);
            fl->addWidget(answer);
            followup->hide();
            boxLayout->addWidget(followup);
            card.followup = followup;
        }
        connect(card.check, &QPushButton::clicked, this, [this, qi] { check(qi); });
        connect(card.retry, &QPushButton::clicked, this, [this, qi] { retry(qi); });
        connect(group, &QButtonGroup::idToggled, this, [this, qi](int, bool) {
            m_cards[qi].check->setEnabled(true);
            markInProgress();
        });
        card.check->setEnabled(false);
        m_cards.append(card);
        layout->addWidget(box);
    }
    layout->addStretch();
    scroll->setWidget(content);
    outer->addWidget(scroll);
    // Questions answered right in an earlier session stay counted.
    if (quiz)
        for (int qi = 0; qi < count; ++qi)
            m_cards[qi].right = storedValue(questionKey(quiz->questions[qi], "right"), false).toBool();
    updateScore();
}

void QuizView::select(int question, const QList<int>& choices)
{
    if (question < 0 || question >= m_cards.size())
        return;
    Card& card = m_cards[question];
    QButtonGroup* group = card.choices.isEmpty() ? nullptr : card.choices.first()->group();
    const bool exclusive = group && group->exclusive();
    if (group)
        group->setExclusive(false);
    for (int i = 0; i < card.choices.size(); ++i)
        card.choices[i]->setChecked(choices.contains(i));
    if (group)
        group->setExclusive(exclusive);
}

bool QuizView::check(int question)
{
    const auto* quiz = activity().as<course::Quiz>();
    if (!quiz || question < 0 || question >= m_cards.size())
        return false;
    const course::Question& q = quiz->questions[question];
    Card& card = m_cards[question];
    std::vector<int> selected;
    for (int i = 0; i < card.choices.size(); ++i)
        if (card.choices[i]->isChecked())
            selected.push_back(i);
    const course::QuizGrade grade = course::gradeQuiz(q, selected);
    const QPalette pal = palette();
    const QColor green = verdictColor(QStringLiteral("pass"), pal);
    const QColor red = verdictColor(QStringLiteral("fail"), pal);
    for (int i = 0; i < card.choices.size() && i < static_cast<int>(grade.choices.size()); ++i) {
        const course::ChoiceFeedback& f = grade.choices[i];
        QString mark;
        if (f.correct)
            mark = f.selected ? tr("✓ Right choice.")
                              : (q.multiple ? tr("✓ Also right — you missed this one.") : tr("✓ The right answer."));
        else
            mark = f.selected ? tr("✗ Not right.") : tr("✗ Wrong — rightly left out.");
        const QColor colour = f.decidedRight() ? green : red;
        card.marks[i]->setText(QStringLiteral("<span style=\"color: %1; font-weight: bold;\">%2</span>")
                                   .arg(colour.name(), mark.toHtmlEscaped()));
        card.explanations[i]->show();
        card.choices[i]->setEnabled(false);
    }
    card.verdict->setText(grade.correct
                              ? QStringLiteral("<b style=\"color: %1;\">%2</b>").arg(green.name(), tr("Right!"))
                              : QStringLiteral("<b style=\"color: %1;\">%2</b> %3")
                                    .arg(red.name(), tr("Not quite."), tr("Read the explanations, then try again.")));
    card.verdict->show();
    card.check->hide();
    card.retry->setVisible(!grade.correct);
    if (card.followup)
        card.followup->show();
    if (ActivityStateStore* store = context().states)
        store->recordQuizAnswer(moduleId(), activityId(), qs(q.id), QList<int>(selected.begin(), selected.end()),
                                grade.correct);
    const bool firstTry = !storedValue(questionKey(q, "tried"), false).toBool();
    storeValue(questionKey(q, "tried"), true);
    if (firstTry)
        storeValue(questionKey(q, "first"), grade.correct);
    if (grade.correct) {
        card.right = true;
        storeValue(questionKey(q, "right"), true);
    }
    card.answered = true;
    updateScore();
    if (!grade.correct)
        card.retry->setFocus();
    return grade.correct;
}

void QuizView::retry(int question)
{
    if (question < 0 || question >= m_cards.size())
        return;
    Card& card = m_cards[question];
    select(question, {});
    for (int i = 0; i < card.choices.size(); ++i) {
        card.choices[i]->setEnabled(true);
        card.explanations[i]->hide();
    }
    card.verdict->hide();
    card.retry->hide();
    card.check->show();
    card.check->setEnabled(false);
    card.answered = false;
    if (!card.choices.isEmpty())
        card.choices.first()->setFocus();
}

bool QuizView::isRight(int question) const
{
    return question >= 0 && question < m_cards.size() && m_cards[question].right;
}

QString QuizView::feedbackText(int question) const
{
    if (question < 0 || question >= m_cards.size())
        return {};
    const Card& card = m_cards[question];
    auto plain = [](const QString& html) { return QTextDocumentFragment::fromHtml(html).toPlainText(); };
    QStringList parts;
    if (!card.verdict->isHidden())
        parts << plain(card.verdict->text());
    for (int i = 0; i < card.explanations.size(); ++i)
        if (!card.explanations[i]->isHidden())
            for (QLabel* l : card.explanations[i]->findChildren<QLabel*>())
                parts << (l->textFormat() == Qt::RichText ? plain(l->text()) : l->text());
    return parts.join(QLatin1Char('\n'));
}

bool QuizView::followupVisible(int question) const
{
    return question >= 0 && question < m_cards.size() && m_cards[question].followup &&
           !m_cards[question].followup->isHidden();
}

int QuizView::firstTryScore() const
{
    const auto* quiz = activity().as<course::Quiz>();
    int score = 0;
    if (quiz)
        for (const course::Question& q : quiz->questions)
            score += storedValue(questionKey(q, "first"), false).toBool();
    return score;
}

QString QuizView::scoreText() const
{
    return m_score->text();
}

bool QuizView::showQuestion(const QString& questionId)
{
    const auto* quiz = activity().as<course::Quiz>();
    if (!quiz)
        return false;
    for (int i = 0; i < m_cards.size() && i < static_cast<int>(quiz->questions.size()); ++i) {
        if (qs(quiz->questions[i].id) != questionId)
            continue;
        if (auto* scroll = findChild<QScrollArea*>())
            scroll->ensureWidgetVisible(m_cards[i].box, 0, 24);
        QWidget* target = m_cards[i].retry->isVisible()
                              ? static_cast<QWidget*>(m_cards[i].retry)
                              : (m_cards[i].choices.isEmpty() ? nullptr : m_cards[i].choices.first());
        if (target)
            target->setFocus(Qt::OtherFocusReason);
        return true;
    }
    return false;
}

void QuizView::updateScore()
{
    int right = 0;
    for (const Card& c : std::as_const(m_cards))
        right += c.right;
    m_score->setText(tr("Answered right: %1 of %2 · right on the first try: %3")
                         .arg(right)
                         .arg(m_cards.size())
                         .arg(firstTryScore()));
    if (right == m_cards.size() && !m_cards.isEmpty())
        markDone();
}

void QuizView::run()
{
    for (int i = 0; i < m_cards.size(); ++i) {
        const Card& c = m_cards[i];
        if (c.box->isAncestorOf(focusWidget()) && c.check->isVisible() && c.check->isEnabled()) {
            check(i);
            return;
        }
    }
    for (int i = 0; i < m_cards.size(); ++i)
        if (!m_cards[i].answered && m_cards[i].check->isEnabled()) {
            check(i);
            return;
        }
}

void QuizView::reset()
{
    for (int i = 0; i < m_cards.size(); ++i)
        retry(i);
}

} // namespace tkm::app
