#include "app/activities/quizview.h"

#include "app/activities/choiceorder.h"
#include "app/common/qtconvert.h"
#include "app/common/theme.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QEvent>
#include <QFrame>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
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

/// Dynamic property of a choice button whose question is checked: it ignores clicks and keys.
constexpr const char* kLockedProperty = "tkmLocked";

QString coloured(const QColor& colour, const QString& text)
{
    return QStringLiteral("<span style=\"color: %1; font-weight: bold;\">%2</span>")
        .arg(colour.name(), text.toHtmlEscaped());
}

/// Choice texts are Markdown; buttons show plain text, so the backticks and emphasis marks go.
QString plainChoice(const std::string& markdown)
{
    QString plain = qs(markdown);
    plain.remove(QLatin1Char('`'));
    plain.replace(QStringLiteral("**"), QString());
    return plain;
}

QWidget* followupPanel(const course::Question& q, QWidget* parent)
{
    auto* followup = new QFrame(parent);
    followup->setFrameShape(QFrame::StyledPanel);
    auto* fl = new QVBoxLayout(followup);
    fl->addWidget(markdownLabel(QStringLiteral("**") + QuizView::tr("A senior interviewer follows up:") +
                                    QStringLiteral("** ") + qs(q.followup),
                                followup));
    auto* show = new QToolButton(followup);
    show->setText(QuizView::tr("Show a good answer"));
    show->setCheckable(true);
    auto* answer = markdownLabel(qs(q.followupAnswer), followup);
    answer->hide();
    QObject::connect(show, &QToolButton::toggled, answer, &QWidget::setVisible);
    fl->addWidget(show);
    fl->addWidget(answer);
    followup->hide();
    return followup;
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
    // Every text of a card wraps to the width it gets: a horizontal bar would only appear, empty, while the
    // labels' heights for the new width settle.
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
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
        m_cards.append(buildCard(qi, quiz->questions[qi], content));
        layout->addWidget(m_cards.back().box);
    }
    m_summary = new QLabel(content);
    m_summary->setObjectName(QStringLiteral("quizSummary"));
    m_summary->setWordWrap(true);
    m_summary->setFrameShape(QFrame::StyledPanel);
    m_summary->setMargin(10);
    m_summary->setTextFormat(Qt::RichText);
    m_summary->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    m_summary->hide();
    connect(m_summary, &QLabel::linkActivated, this, [this](const QString& link) { showQuestion(link.mid(1)); });
    layout->addWidget(m_summary);
    layout->addStretch();
    scroll->setWidget(content);
    outer->addWidget(scroll);
    drawOrders(false);
    restoreAnswers();
    updateScore();
}

QuizView::Card QuizView::buildCard(int index, const course::Question& q, QWidget* parent)
{
    Card card;
    auto* box = new QGroupBox(
        tr("Question %1 of %2").arg(index + 1).arg(activity().as<course::Quiz>()->questions.size()), parent);
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
    card.choiceLayout = new QVBoxLayout;
    card.choiceLayout->setSpacing(2);
    boxLayout->addLayout(card.choiceLayout);
    auto* group = new QButtonGroup(box);
    group->setExclusive(!q.multiple);
    for (int ci = 0; ci < static_cast<int>(q.choices.size()); ++ci) {
        auto* row = new QWidget(box);
        auto* rowLayout = new QVBoxLayout(row);
        rowLayout->setContentsMargins(0, 0, 0, 0);
        rowLayout->setSpacing(0);
        // The indicator and a word-wrapped label: a button's own text never wraps, and long choices would widen
        // the card past the view. A click on the label picks the choice.
        QAbstractButton* button = q.multiple ? static_cast<QAbstractButton*>(new QCheckBox(row))
                                             : static_cast<QAbstractButton*>(new QRadioButton(row));
        button->setAccessibleName(plainChoice(q.choices[ci].text));
        button->installEventFilter(this);
        group->addButton(button, ci);
        auto* label = markdownLabel(qs(q.choices[ci].text), row);
        label->setTextInteractionFlags(Qt::NoTextInteraction);
        label->setCursor(Qt::PointingHandCursor);
        label->installEventFilter(this);
        m_labelButtons.insert(label, button);
        auto* choiceLine = new QHBoxLayout;
        choiceLine->setSpacing(6);
        choiceLine->addWidget(button, 0, Qt::AlignTop);
        choiceLine->addWidget(label, 1);
        rowLayout->addLayout(choiceLine);
        auto* explanation = new QWidget(row);
        auto* line = new QHBoxLayout(explanation);
        line->setContentsMargins(26, 0, 0, 4);
        auto* mark = new QLabel(explanation);
        mark->setTextFormat(Qt::RichText);
        mark->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        line->addWidget(mark);
        line->addWidget(markdownLabel(qs(q.choices[ci].explanation), explanation), 1);
        explanation->hide();
        rowLayout->addWidget(explanation);
        card.rows.append(row);
        card.choices.append(button);
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
    card.reveal = new QPushButton(tr("Show the &answer"), box);
    card.retry->hide();
    card.reveal->hide();
    buttons->addWidget(card.check);
    buttons->addWidget(card.retry);
    buttons->addWidget(card.reveal);
    buttons->addStretch();
    boxLayout->addLayout(buttons);
    if (!q.followup.empty()) {
        card.followup = followupPanel(q, box);
        boxLayout->addWidget(card.followup);
    }
    connect(card.check, &QPushButton::clicked, this, [this, index] { check(index); });
    connect(card.retry, &QPushButton::clicked, this, [this, index] { retry(index); });
    connect(card.reveal, &QPushButton::clicked, this, [this, index] { revealAnswer(index); });
    connect(group, &QButtonGroup::idToggled, this, [this, index](int, bool) {
        m_cards[index].check->setEnabled(!selection(m_cards[index]).isEmpty());
        markInProgress();
    });
    card.check->setEnabled(false);
    return card;
}

QString QuizView::key(int question, const char* leaf) const
{
    const auto* quiz = activity().as<course::Quiz>();
    return QStringLiteral("q/") + qs(quiz->questions[question].id) + QLatin1Char('/') + QLatin1String(leaf);
}

void QuizView::drawOrders(bool fresh)
{
    // One seed per attempt; each question's order is recorded, so it survives content-independent reseeding.
    const quint64 seed = attemptSeed(fresh ? QString() : storedValue(QStringLiteral("seed")).toString());
    storeValue(QStringLiteral("seed"), QString::number(seed));
    const auto* quiz = activity().as<course::Quiz>();
    for (int qi = 0; qi < m_cards.size(); ++qi) {
        Card& card = m_cards[qi];
        const int n = static_cast<int>(card.choices.size());
        card.order = fresh ? QList<int>() : orderFromText(storedValue(key(qi, "order")).toString(), n);
        if (card.order.isEmpty()) {
            card.order = shuffledOrder(n, seed, qs(quiz->questions[qi].id));
            storeValue(key(qi, "order"), orderToText(card.order));
        }
        applyOrder(card);
    }
}

void QuizView::applyOrder(Card& card)
{
    for (QWidget* row : std::as_const(card.rows))
        card.choiceLayout->removeWidget(row);
    for (int ci : std::as_const(card.order))
        card.choiceLayout->addWidget(card.rows[ci]);
    // Tab follows the shown order, not the content's.
    for (int i = 1; i < card.order.size(); ++i)
        QWidget::setTabOrder(card.choices[card.order[i - 1]], card.choices[card.order[i]]);
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

QList<int> QuizView::selection(const Card& card) const
{
    QList<int> selected;
    for (int i = 0; i < card.choices.size(); ++i)
        if (card.choices[i]->isChecked())
            selected.append(i);
    return selected;
}

void QuizView::lockChoices(Card& card, bool locked)
{
    // Checked choices stay fully readable: they ignore input (eventFilter) instead of being disabled (greyed).
    for (QAbstractButton* b : std::as_const(card.choices)) {
        b->setProperty(kLockedProperty, locked);
        b->setFocusPolicy(locked ? Qt::NoFocus : Qt::StrongFocus);
    }
}

bool QuizView::eventFilter(QObject* watched, QEvent* event)
{
    if (QAbstractButton* button = m_labelButtons.value(watched)) {
        if (event->type() == QEvent::MouseButtonRelease && !button->property(kLockedProperty).toBool() &&
            static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton) {
            button->click();
            button->setFocus(Qt::MouseFocusReason);
            return true;
        }
        return false;
    }
    if (watched->property(kLockedProperty).toBool()) {
        switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::KeyPress:
        case QEvent::KeyRelease:
            return true;
        default:
            break;
        }
    }
    return ActivityView::eventFilter(watched, event);
}

bool QuizView::check(int question)
{
    const auto* quiz = activity().as<course::Quiz>();
    if (!quiz || question < 0 || question >= m_cards.size())
        return false;
    const course::Question& q = quiz->questions[question];
    Card& card = m_cards[question];
    const QList<int> selected = selection(card);
    const course::QuizGrade grade = course::gradeQuiz(q, std::vector<int>(selected.begin(), selected.end()));
    if (ActivityStateStore* store = context().states)
        store->recordQuizAnswer(moduleId(), activityId(), qs(q.id), selected, grade.correct);
    const bool firstTry = !storedValue(key(question, "tried"), false).toBool();
    storeValue(key(question, "tried"), true);
    if (firstTry)
        storeValue(key(question, "first"), grade.correct);
    if (grade.correct) {
        card.right = true;
        storeValue(key(question, "right"), true);
    } else {
        ++card.misses;
        storeValue(key(question, "misses"), card.misses);
    }
    storeValue(key(question, "answer"), orderToText(selected));
    render(question, selected);
    updateScore();
    if (!grade.correct)
        card.retry->setFocus();
    return grade.correct;
}

bool QuizView::revealAnswer(int question)
{
    if (question < 0 || question >= m_cards.size() || m_cards[question].shown == Shown::Open)
        return false;
    Card& card = m_cards[question];
    card.revealed = true;
    storeValue(key(question, "revealed"), true);
    render(question, selection(card));
    updateScore();
    card.retry->setFocus();
    return true;
}

void QuizView::render(int question, const QList<int>& selected)
{
    const course::Question& q = activity().as<course::Quiz>()->questions[question];
    Card& card = m_cards[question];
    const course::QuizGrade grade = course::gradeQuiz(q, std::vector<int>(selected.begin(), selected.end()));
    card.shown = grade.correct ? Shown::Right : (card.revealed || card.misses >= 2 ? Shown::Revealed : Shown::Missed);
    const bool full = card.shown != Shown::Missed;
    const QPalette pal = palette();
    const QColor green = toneColor(Tone::Good, pal);
    const QColor red = toneColor(Tone::Wrong, pal);
    int pickedWrong = 0;
    for (int i = 0; i < card.choices.size() && i < static_cast<int>(grade.choices.size()); ++i) {
        const course::ChoiceFeedback& f = grade.choices[i];
        pickedWrong += f.selected && !f.correct;
        // The symbol and its colour say what the choice is; the words say what the learner did with it.
        QString mark;
        if (f.correct)
            mark = f.selected ? tr("✓ Right — you chose it.")
                              : (q.multiple ? tr("✓ Right — you left it out.") : tr("✓ The right answer."));
        else
            mark = f.selected ? tr("✗ Wrong — you chose it.") : tr("✗ Wrong.");
        card.marks[i]->setText(coloured(f.correct ? green : red, mark));
        // A first miss explains only the wrong choices picked: nothing about the others.
        card.explanations[i]->setVisible(full || (f.selected && !f.correct));
    }
    lockChoices(card, true);
    QString verdict;
    if (card.shown == Shown::Right)
        verdict = coloured(green, card.misses == 0 ? tr("✓ Right!") : tr("✓ Right this time."));
    else if (card.shown == Shown::Missed)
        verdict = coloured(red, tr("✗ Not right.")) + QLatin1Char(' ') +
                  (pickedWrong > 0 ? tr("Read why your pick is wrong, then try again — or show the answer.")
                                   : tr("What you ticked is not the whole answer: try again — or show the answer."))
                      .toHtmlEscaped();
    else
        verdict = coloured(red, tr("✗ Not right.")) + QLatin1Char(' ') +
                  tr("Here is the answer, with every choice explained.").toHtmlEscaped();
    card.verdict->setText(verdict);
    card.verdict->show();
    card.check->hide();
    card.retry->setVisible(card.shown != Shown::Right);
    card.reveal->setVisible(card.shown == Shown::Missed);
    if (card.followup)
        card.followup->setVisible(full);
}

void QuizView::retry(int question)
{
    if (question < 0 || question >= m_cards.size())
        return;
    Card& card = m_cards[question];
    select(question, {});
    lockChoices(card, false);
    for (QWidget* e : std::as_const(card.explanations))
        e->hide();
    card.verdict->hide();
    card.retry->hide();
    card.reveal->hide();
    card.check->show();
    card.check->setEnabled(false);
    card.shown = Shown::Open;
    storeValue(key(question, "answer"), QString());
    if (!card.order.isEmpty())
        card.choices[card.order.first()]->setFocus();
    updateScore();
}

void QuizView::restoreAnswers()
{
    for (int qi = 0; qi < m_cards.size(); ++qi) {
        Card& card = m_cards[qi];
        card.right = storedValue(key(qi, "right"), false).toBool();
        card.misses = storedValue(key(qi, "misses"), 0).toInt();
        card.revealed = storedValue(key(qi, "revealed"), false).toBool();
        const QString answer = storedValue(key(qi, "answer")).toString();
        if (answer.isEmpty())
            continue;
        QList<int> selected;
        for (const QString& part : answer.split(QLatin1Char(',')))
            if (const int i = part.toInt(); i >= 0 && i < card.choices.size())
                selected.append(i);
        if (selected.isEmpty())
            continue;
        select(qi, selected);
        render(qi, selected);
    }
}

bool QuizView::isRight(int question) const
{
    return question >= 0 && question < m_cards.size() && m_cards[question].right;
}

bool QuizView::answerShown(int question) const
{
    if (question < 0 || question >= m_cards.size())
        return false;
    const Shown shown = m_cards[question].shown;
    return shown == Shown::Right || shown == Shown::Revealed;
}

QList<int> QuizView::displayOrder(int question) const
{
    return question >= 0 && question < m_cards.size() ? m_cards[question].order : QList<int>();
}

QList<QAbstractButton*> QuizView::choiceButtons(int question) const
{
    return question >= 0 && question < m_cards.size() ? m_cards[question].choices : QList<QAbstractButton*>();
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
    for (int ci : card.order)
        if (!card.explanations[ci]->isHidden())
            for (QLabel* l : card.explanations[ci]->findChildren<QLabel*>())
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
    int score = 0;
    for (int qi = 0; qi < m_cards.size(); ++qi)
        score += storedValue(key(qi, "first"), false).toBool();
    return score;
}

QString QuizView::scoreText() const
{
    return m_score->text();
}

QString QuizView::summaryText() const
{
    return m_summary->isHidden() ? QString() : QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
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
        const Card& card = m_cards[i];
        QWidget* target = card.retry->isVisible() ? static_cast<QWidget*>(card.retry)
                                                  : (card.order.isEmpty() ? nullptr : card.choices[card.order.first()]);
        if (target)
            target->setFocus(Qt::OtherFocusReason);
        return true;
    }
    return false;
}

void QuizView::updateScore()
{
    int right = 0;
    int settled = 0;
    for (const Card& c : std::as_const(m_cards)) {
        right += c.right;
        settled += c.right || c.shown == Shown::Revealed;
    }
    const int first = firstTryScore();
    m_score->setText(
        tr("Answered right: %1 of %2 · right on the first try: %3").arg(right).arg(m_cards.size()).arg(first));
    if (right == m_cards.size() && !m_cards.isEmpty())
        markDone();
    if (settled < m_cards.size() || m_cards.isEmpty()) {
        m_summary->hide();
        return;
    }
    // Every question is right or revealed: the summary names the ones worth another look.
    const auto* quiz = activity().as<course::Quiz>();
    QString html = QStringLiteral("<p><b>%1</b> %2</p>")
                       .arg(tr("Quiz complete.").toHtmlEscaped(),
                            tr("Right on the first try: %1 of %2.").arg(first).arg(m_cards.size()).toHtmlEscaped());
    QStringList review;
    for (int qi = 0; qi < m_cards.size(); ++qi) {
        if (storedValue(key(qi, "first"), false).toBool())
            continue;
        QString prompt = QTextDocumentFragment::fromMarkdown(qs(quiz->questions[qi].prompt)).toPlainText().simplified();
        if (prompt.size() > 90)
            prompt = prompt.left(88) + QStringLiteral("…");
        review << QStringLiteral("<li><a href=\"#%1\">%2</a> — %3</li>")
                      .arg(qs(quiz->questions[qi].id).toHtmlEscaped(), tr("Question %1").arg(qi + 1).toHtmlEscaped(),
                           prompt.toHtmlEscaped());
    }
    if (review.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(tr("Every question right on the first try.").toHtmlEscaped());
    else
        html += QStringLiteral("<p>%1</p><ul>%2</ul>")
                    .arg(tr("Worth a second look:").toHtmlEscaped(), review.join(QString()));
    m_summary->setText(html);
    m_summary->show();
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
        if (m_cards[i].shown == Shown::Open && m_cards[i].check->isEnabled()) {
            check(i);
            return;
        }
}

void QuizView::reset()
{
    for (int i = 0; i < m_cards.size(); ++i) {
        retry(i);
        m_cards[i].misses = 0;
        m_cards[i].revealed = false;
        storeValue(key(i, "misses"), 0);
        storeValue(key(i, "revealed"), false);
    }
    drawOrders(true);
    updateScore();
}

} // namespace tkm::app
