#pragma once
// Quiz: one card per question with radio buttons (one answer) or check boxes (several); Check shows right/wrong and
// the explanation of every choice, reveals the follow-up question; Retry clears the answer. The score counts
// questions answered right on the first try and is kept across sessions.

#include "app/activities/activityview.h"

#include <QList>

class QAbstractButton;
class QLabel;
class QPushButton;
class QWidget;

namespace tkm::app {

/// Quiz view.
class QuizView : public ActivityView {
  Q_OBJECT
public:
  QuizView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// Number of questions.
  int questionCount() const { return static_cast<int>(m_cards.size()); }
  /// Ticks exactly the choices `choices` [0-based] of question `question` (as the learner's clicks would).
  void select(int question, const QList<int> &choices);
  /// Checks a question's answer; returns whether it was right.
  bool check(int question);
  /// Clears a question for another try.
  void retry(int question);
  /// Whether the question was answered right (on any try).
  bool isRight(int question) const;
  /// The feedback text shown under a question (plain text).
  QString feedbackText(int question) const;
  /// Whether the follow-up of a question is visible.
  bool followupVisible(int question) const;
  /// Questions answered right on the first try.
  int firstTryScore() const;
  /// The score line shown at the top.
  QString scoreText() const;
  /// Scrolls to the question with this id and focuses its first choice (the review list links here); false when
  /// the quiz has no such question.
  bool showQuestion(const QString &questionId);

  bool canRun() const override { return true; }
  /// Run = check the question that has the focus (or the first unchecked one).
  void run() override;
  void reset() override;

private:
  struct Card {
    QWidget *box = nullptr;
    QList<QAbstractButton *> choices;
    QList<QWidget *> explanations; ///< per choice: mark + explanation, shown after Check
    QList<QLabel *> marks;         ///< per choice: "✓ Right choice." / "✗ Not right."
    QLabel *verdict = nullptr;
    QPushButton *check = nullptr;
    QPushButton *retry = nullptr;
    QWidget *followup = nullptr;
    bool answered = false;
    bool right = false;
  };
  void updateScore();

  QList<Card> m_cards;
  QLabel *m_score = nullptr;
};

} // namespace tkm::app
