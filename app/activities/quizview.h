#pragma once
// Quiz: one card per question with radio buttons (one answer) or check boxes (several), shown in an order shuffled
// per attempt and recorded (choiceorder.h). A first wrong Check says it is wrong and why the picked choice is wrong,
// nothing more, and offers Try again or Show the answer; the second miss, Show the answer or a right answer explain
// every choice and reveal the follow-up question. Answers, orders and misses are stored with the activity, so a
// revisit (also after a restart) shows the quiz as the learner left it. A summary appears once every question is
// settled. The score counts questions answered right on the first try and is kept across sessions.

#include "app/activities/activityview.h"

#include <QHash>
#include <QList>

class QAbstractButton;
class QLabel;
class QPushButton;
class QVBoxLayout;
class QWidget;

namespace tkm::course {
struct Question;
}

namespace tkm::app {

/// Quiz view.
class QuizView : public ActivityView
{
    Q_OBJECT
public:
    QuizView(const course::Activity& activity, const ActivityContext& context, QWidget* parent = nullptr);

    /// Number of questions.
    int questionCount() const { return static_cast<int>(m_cards.size()); }
    /// Ticks exactly the choices `choices` [0-based indices of the content's choice list, not of the shown order] of
    /// question `question` (as the learner's clicks would).
    void select(int question, const QList<int>& choices);
    /// Checks a question's answer; returns whether it was right.
    bool check(int question);
    /// Clears a question for another try (the shown order stays).
    void retry(int question);
    /// Shows the right answer and every choice's explanation ("Show the answer"); false when nothing was checked.
    bool revealAnswer(int question);
    /// Whether the question was answered right (on any try).
    bool isRight(int question) const;
    /// Whether the right choice(s) of a question are shown (a right answer, a second miss or Show the answer).
    bool answerShown(int question) const;
    /// The choices of a question from top to bottom [content indices]: the attempt's shuffled order.
    QList<int> displayOrder(int question) const;
    /// The choice buttons of a question [by content index].
    QList<QAbstractButton*> choiceButtons(int question) const;
    /// The feedback text shown under a question (plain text).
    QString feedbackText(int question) const;
    /// Whether the follow-up of a question is visible.
    bool followupVisible(int question) const;
    /// Questions answered right on the first try.
    int firstTryScore() const;
    /// The score line shown at the top.
    QString scoreText() const;
    /// The end-of-quiz summary (plain text; empty until every question is answered right or revealed).
    QString summaryText() const;
    /// Scrolls to the question with this id and focuses its first choice (the review list links here); false when
    /// the quiz has no such question.
    bool showQuestion(const QString& questionId);

    bool canRun() const override { return true; }
    /// Run = check the question that has the focus (or the first unchecked one).
    void run() override;
    /// Starts a new attempt: every answer cleared, every order shuffled anew (the score stays).
    void reset() override;

protected:
    /// Keeps the choices of a checked question from changing while they stay readable.
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    /// What a card shows.
    enum class Shown { Open, Missed, Revealed, Right };
    struct Card
    {
        QWidget* box = nullptr;
        QVBoxLayout* choiceLayout = nullptr;
        QList<QAbstractButton*> choices; ///< by content index
        QList<QWidget*> rows;            ///< per choice: button + explanation, laid out in `order`
        QList<QWidget*> explanations;    ///< per choice: mark + explanation
        QList<QLabel*> marks;            ///< per choice: "✓ …" / "✗ …"
        QList<int> order;                ///< content indices from top to bottom
        QLabel* verdict = nullptr;
        QPushButton* check = nullptr;
        QPushButton* retry = nullptr;
        QPushButton* reveal = nullptr;
        QWidget* followup = nullptr;
        Shown shown = Shown::Open;
        int misses = 0;        ///< wrong checks in this attempt
        bool revealed = false; ///< the learner asked for the answer
        bool right = false;
    };
    Card buildCard(int index, const course::Question& q, QWidget* parent);
    void applyOrder(Card& card);
    void drawOrders(bool fresh);
    void render(int question, const QList<int>& selected);
    void lockChoices(Card& card, bool locked);
    QList<int> selection(const Card& card) const;
    void restoreAnswers();
    void updateScore();
    QString key(int question, const char* leaf) const;

    QList<Card> m_cards;
    QHash<QObject*, QAbstractButton*> m_labelButtons; ///< choice label → its radio button or check box
    QLabel* m_score = nullptr;
    QLabel* m_summary = nullptr;
};

} // namespace tkm::app
