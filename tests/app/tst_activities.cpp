// Every activity kind by mouse and keyboard: quiz right and wrong, spot-the-bug buggy and correct lines,
// drag-match by drop and by keys, step-through of every diagram kind (tile-grid: 90 vs 54 tile loads),
// walkthrough notes, lesson rendering.
#include "apptest.h"

#include "app/activities/choiceorder.h"
#include "app/activities/diagrams/diagrams.h"
#include "app/activities/dragmatchview.h"
#include "app/activities/lessonview.h"
#include "app/activities/markdownview.h"
#include "app/activities/quizview.h"
#include "app/activities/spotthebugview.h"
#include "app/activities/stepthroughview.h"
#include "app/activities/walkthroughview.h"
#include "app/course/coursenavigator.h"
#include "app/editor/codeview.h"
#include "app/progress/sqlitestatestore.h"
#include "app/shell/mainwindow.h"

#include <QComboBox>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTextFrame>
#include <QtTest>

#include "modules/course/model.h"
#include "modules/progress/store.h"

using namespace tkm;
using app::ActivityState;
using app::MainWindow;

namespace {

/// Opens the first activity of `kind` (optionally with a given diagram) in `window`; returns its view or nullptr.
template <class View>
View *openFirst(MainWindow &window, course::ActivityKind kind, std::optional<course::Diagram> diagram = {})
{
  const course::Course *c = window.course();
  for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
    for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
      const course::Activity &act = c->modules[m].activities[a];
      if (act.kind != kind)
        continue;
      if (diagram && act.as<course::StepThrough>()->diagram != *diagram)
        continue;
      window.openActivity(m, a);
      return qobject_cast<View *>(window.currentView());
    }
  return nullptr;
}

/// The right choices of a question [content indices].
QList<int> rightChoices(const course::Question &q)
{
  QList<int> right;
  for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
    if (q.choices[i].correct)
      right << i;
  return right;
}

} // namespace

class TestActivities : public QObject {
  Q_OBJECT
private:
  std::unique_ptr<MainWindow> m_window;

private slots:
  void initTestCase() { tkm::apptest::initTestEnvironment(); }

  void init()
  {
    const QString root = tkm::apptest::fixtureContentDir();
    if (root.isEmpty())
      QSKIP("tests/data/content-good is missing");
    tkm::apptest::initTestEnvironment(); // each test starts as a new learner: views restore what earlier tests left
    m_window = std::make_unique<MainWindow>(QStringLiteral("/nonexistent/tkm-run"));
    m_window->setConfirmHandler([](const QString &) { return true; });
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
    QVERIFY(m_window->loadCourse(root));
  }

  void cleanup() { m_window.reset(); }

  void lessonRendersCalloutsAndCode()
  {
    auto *view = openFirst<app::LessonView>(*m_window, course::ActivityKind::Lesson);
    QVERIFY(view);
    const QString text = view->page()->document()->toPlainText();
    QVERIFY(!text.trimmed().isEmpty());
    // Callouts and fenced code become frames inside the root frame.
    const QString md = view->page()->markdownText();
    const int frames = static_cast<int>(view->page()->document()->rootFrame()->childFrames().size());
    const int fences = static_cast<int>(md.count(QStringLiteral("```")) / 2);
    // A "> [!KIND]" line inside a fence is code, not a callout: the loader's callout list says which are real.
    const int callouts = static_cast<int>(view->activity().as<course::Lesson>()->callouts.size());
    QVERIFY2(frames >= fences + callouts,
             qPrintable(QStringLiteral("%1 frames for %2 fences and %3 callouts").arg(frames).arg(fences).arg(callouts)));
    QVERIFY(!text.contains(QStringLiteral("[!PROBE]")));
    if (md.contains(QStringLiteral("[!BOGUS]")))
      QVERIFY(text.contains(QStringLiteral("[!BOGUS]")));
  }

  void quizRightAndWrong()
  {
    auto *quiz = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
    QVERIFY(quiz);
    const auto &q = quiz->activity().as<course::Quiz>()->questions.front();
    QList<int> right, wrong;
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
      (q.choices[i].correct ? right : wrong) << i;
    QVERIFY(!wrong.isEmpty());
    auto explanation = [&](int choice) { return QString::fromStdString(q.choices[choice].explanation).left(20); };
    // A first miss says it is wrong and why that pick is wrong: nothing about the right choice.
    quiz->select(0, {wrong.first()});
    QVERIFY(!quiz->check(0));
    QString feedback = quiz->feedbackText(0);
    QVERIFY2(feedback.contains(QStringLiteral("✗ Not right")), qPrintable(feedback));
    QVERIFY(feedback.contains(explanation(wrong.first())));
    for (int r : right)
      QVERIFY2(!feedback.contains(explanation(r)), qPrintable(feedback));
    QVERIFY(!feedback.contains(QStringLiteral("✓")));
    QVERIFY(!quiz->answerShown(0));
    QVERIFY(!quiz->followupVisible(0));
    // Checked choices stay readable (enabled, not greyed) and ignore clicks.
    for (QAbstractButton *b : quiz->choiceButtons(0))
      QVERIFY(b->isEnabled());
    QAbstractButton *other = quiz->choiceButtons(0)[right.first()];
    QTest::mouseClick(other, Qt::LeftButton);
    QTest::keyClick(other, Qt::Key_Space);
    QVERIFY(!other->isChecked());
    QVERIFY(quiz->choiceButtons(0)[wrong.first()]->isChecked());
    QVERIFY(quiz->scoreText().contains(QStringLiteral("right on the first try: 0")));
    QVERIFY(quiz->summaryText().isEmpty());
    // Try again, miss again: the second miss shows the answer, symbols and colours agreeing.
    quiz->retry(0);
    QVERIFY(quiz->feedbackText(0).isEmpty());
    quiz->select(0, {wrong.last()});
    QVERIFY(!quiz->check(0));
    QVERIFY(quiz->answerShown(0));
    feedback = quiz->feedbackText(0);
    for (int r : right)
      QVERIFY(feedback.contains(explanation(r)));
    QVERIFY(feedback.contains(QStringLiteral("✓ The right answer")) || q.multiple);
    QVERIFY(!feedback.contains(QStringLiteral("✓ Wrong")) && !feedback.contains(QStringLiteral("✗ Right")));
    // Right on the third try.
    quiz->retry(0);
    quiz->select(0, right);
    QVERIFY(quiz->check(0));
    QVERIFY(quiz->feedbackText(0).contains(QStringLiteral("Right")));
    QVERIFY(quiz->isRight(0));
    if (!q.followup.empty())
      QVERIFY(quiz->followupVisible(0));
    QVERIFY(quiz->scoreText().contains(QStringLiteral("Answered right: 1")));
    // Every question right → done, and a summary that names the question to review.
    const auto &questions = quiz->activity().as<course::Quiz>()->questions;
    for (int qi = 1; qi < static_cast<int>(questions.size()); ++qi) {
      const QList<int> ok = rightChoices(questions[qi]);
      quiz->select(qi, ok);
      QVERIFY(quiz->check(qi));
    }
    QCOMPARE(m_window->states()->state(quiz->moduleId(), quiz->activityId()), ActivityState::Done);
    const QString summary = quiz->summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Right on the first try: %1 of %2")
                                  .arg(questions.size() - 1)
                                  .arg(questions.size())),
             qPrintable(summary));
    QVERIFY(summary.contains(QStringLiteral("Question 1")));
    QVERIFY(!summary.contains(QStringLiteral("Question 2")));
  }

  void quizScreenshotsBeforeAndAfterAWrongPick()
  {
    // The built-in course's first quiz at 1024 × 700: fresh, after a first wrong pick, after the second miss.
    MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
    window.resize(1024, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.loadCourse(tkm::apptest::realContentDir()));
    auto *quiz = openFirst<app::QuizView>(window, course::ActivityKind::Quiz);
    QVERIFY(quiz);
    const auto &q = quiz->activity().as<course::Quiz>()->questions.front();
    QList<int> wrong;
    for (int i = 0; i < static_cast<int>(q.choices.size()); ++i)
      if (!q.choices[i].correct)
        wrong << i;
    const QString dir = tkm::apptest::screenshotDir();
    QTest::qWait(50);
    QVERIFY(window.grab().save(dir + QStringLiteral("/quiz-fresh.png")));
    quiz->select(0, {wrong.first()});
    QVERIFY(!quiz->check(0));
    QTest::qWait(50);
    QVERIFY(window.grab().save(dir + QStringLiteral("/quiz-first-miss.png")));
    quiz->retry(0);
    quiz->select(0, {wrong.last()});
    QVERIFY(!quiz->check(0));
    QTest::qWait(50);
    QVERIFY(window.grab().save(dir + QStringLiteral("/quiz-second-miss.png")));
    // Every question right (the first after a retry): the summary names question 1 for review.
    const auto &questions = quiz->activity().as<course::Quiz>()->questions;
    quiz->retry(0);
    for (int qi = 0; qi < static_cast<int>(questions.size()); ++qi) {
      const QList<int> ok = rightChoices(questions[qi]);
      quiz->select(qi, ok);
      QVERIFY(quiz->check(qi));
    }
    QVERIFY(quiz->summaryText().contains(QStringLiteral("Worth a second look")));
    auto *summary = quiz->findChild<QLabel *>(QStringLiteral("quizSummary"));
    QVERIFY(summary && summary->isVisible());
    QTest::qWait(50);
    quiz->findChild<QScrollArea *>()->ensureWidgetVisible(summary);
    QTest::qWait(50);
    QVERIFY(window.grab().save(dir + QStringLiteral("/quiz-summary.png")));
    // Its link takes the learner back to the question.
    QScrollBar *bar = quiz->findChild<QScrollArea *>()->verticalScrollBar();
    const int atSummary = bar->value();
    emit summary->linkActivated(QStringLiteral("#") + QString::fromStdString(questions.front().id));
    QVERIFY2(bar->value() < atSummary / 4, qPrintable(QStringLiteral("%1 → %2").arg(atSummary).arg(bar->value())));
  }

  void quizShowTheAnswerOnRequest()
  {
    auto *quiz = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
    QVERIFY(quiz);
    const auto &q = quiz->activity().as<course::Quiz>()->questions.front();
    int wrong = 0;
    while (q.choices[wrong].correct)
      ++wrong;
    QVERIFY(!quiz->revealAnswer(0)); // nothing checked yet
    quiz->select(0, {wrong});
    QVERIFY(!quiz->check(0));
    QPushButton *show = nullptr;
    for (QPushButton *b : quiz->findChildren<QPushButton *>())
      if (b->text() == QStringLiteral("Show the &answer") && !b->isHidden() && !show)
        show = b;
    QVERIFY(show);
    QTest::mouseClick(show, Qt::LeftButton);
    QVERIFY(quiz->answerShown(0));
    QVERIFY(!quiz->isRight(0));
  }

  void quizChoicesShuffledPerAttemptAndRecorded()
  {
    auto *first = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
    QVERIFY(first);
    const QString module = first->moduleId(), activity = first->activityId();
    const auto &questions = first->activity().as<course::Quiz>()->questions;
    const int qn = static_cast<int>(questions.size());
    auto identity = [](const QList<int> &order) {
      for (int i = 0; i < order.size(); ++i)
        if (order[i] != i)
          return false;
      return true;
    };
    QSet<QString> orders;
    QSet<int> rightPositions; // where the first question's right choice is shown
    for (int seed = 1; seed <= 8; ++seed) {
      m_window->states()->resetActivity(module, activity);
      m_window->states()->setValue(module, activity, QStringLiteral("seed"), QString::number(seed * 7919));
      auto *quiz = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
      QVERIFY(quiz);
      QCoreApplication::processEvents(); // lays the cards out
      bool shuffled = false;
      QString all;
      for (int qi = 0; qi < qn; ++qi) {
        const QList<int> order = quiz->displayOrder(qi);
        QCOMPARE(order.size(), static_cast<int>(questions[qi].choices.size()));
        shuffled = shuffled || !identity(order);
        all += app::orderToText(order) + QLatin1Char('/');
        // The buttons are laid out top to bottom in that order.
        const QList<QAbstractButton *> buttons = quiz->choiceButtons(qi);
        for (int i = 1; i < order.size(); ++i)
          QVERIFY(buttons[order[i - 1]]->mapTo(quiz, QPoint()).y() < buttons[order[i]]->mapTo(quiz, QPoint()).y());
        QCOMPARE(m_window->states()->value(module, activity, QStringLiteral("q/%1/order")
                                                                 .arg(QString::fromStdString(questions[qi].id)))
                     .toString(),
                 app::orderToText(order));
      }
      orders.insert(all);
      for (int i = 0; i < quiz->displayOrder(0).size(); ++i)
        if (questions[0].choices[quiz->displayOrder(0)[i]].correct)
          rightPositions.insert(i);
      QVERIFY2(shuffled, qPrintable(QStringLiteral("seed %1 left every question in file order").arg(seed)));
    }
    QVERIFY(orders.size() >= 4);
    QVERIFY(rightPositions.size() >= 2);
    // A revisit shows the recorded order; Reset starts a new attempt with a new one (eventually different).
    auto *quiz = qobject_cast<app::QuizView *>(m_window->currentView());
    const QList<int> seen = quiz->displayOrder(0);
    QVERIFY(openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch));
    quiz = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
    QCOMPARE(quiz->displayOrder(0), seen);
    bool changed = false;
    for (int i = 0; i < 12 && !changed; ++i) {
      quiz->reset();
      changed = quiz->displayOrder(0) != seen;
    }
    QVERIFY(changed);
    // The shuffle itself: the same seed and salt give the same order; orders are permutations.
    QCOMPARE(app::shuffledOrder(5, 42, QStringLiteral("q")), app::shuffledOrder(5, 42, QStringLiteral("q")));
    QVERIFY(app::orderFromText(QStringLiteral("1,1,0"), 3).isEmpty());
    QVERIFY(app::orderFromText(QStringLiteral("2,0"), 3).isEmpty());
    QCOMPARE(app::orderFromText(QStringLiteral("2,0,1"), 3), (QList<int>{2, 0, 1}));
  }

  void dragMatchPoolShuffledAndRestored()
  {
    auto *view = openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch);
    QVERIFY(view);
    const auto *match = view->activity().as<course::DragMatch>();
    const QString module = view->moduleId(), activity = view->activityId();
    QSet<QString> orders;
    for (int seed = 1; seed <= 8; ++seed) {
      m_window->states()->resetActivity(module, activity);
      m_window->states()->setValue(module, activity, QStringLiteral("seed"), QString::number(seed * 104729));
      view = openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch);
      QCOMPARE(view->itemOrder().size(), static_cast<int>(match->items.size()));
      orders.insert(app::orderToText(view->itemOrder()));
      // The pool lists the items in that order.
      for (int r = 0; r < view->pool()->count(); ++r)
        QCOMPARE(view->pool()->item(r)->text(),
                 QString::fromStdString(match->items[view->itemOrder()[r]].text).remove(QLatin1Char('`')));
    }
    QVERIFY2(orders.size() >= 3, qPrintable(QStringList(orders.values()).join(QLatin1Char(' '))));
    // A placement and a check survive a revisit.
    const course::DragItem &item = match->items.front();
    QVERIFY(view->place(QString::fromStdString(item.id), QString::fromStdString(item.target)));
    view->check();
    const QList<int> order = view->itemOrder();
    QVERIFY(openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz));
    view = openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch);
    QCOMPARE(view->itemOrder(), order);
    QCOMPARE(view->placement().value(QString::fromStdString(item.id)), QString::fromStdString(item.target));
    QVERIFY(view->feedbackText().contains(QStringLiteral("✓")));
  }

  void clickRightOfShortLinePicksIt()
  {
    auto *view = openFirst<app::SpotTheBugView>(*m_window, course::ActivityKind::SpotTheBug);
    QVERIFY(view);
    const auto *item = view->activity().as<course::SpotTheBug>();
    app::ListingView *listing = view->listing();
    QCoreApplication::processEvents(); // lays the listing out at its real width
    // Far right of the bug line's text (where QsciScintilla::lineAt gives -1), on the highlighted row.
    const int bug = item->bugLines.front();
    const int x = listing->viewport()->width() - 12;
    const int textEnd = static_cast<int>(listing->SendScintilla(
        QsciScintilla::SCI_POINTXFROMPOSITION, 0UL, listing->SendScintilla(QsciScintilla::SCI_GETLINEENDPOSITION, bug - 1)));
    QVERIFY2(x > textEnd + 8, qPrintable(QStringLiteral("text ends at x %1, viewport %2").arg(textEnd).arg(x)));
    QTest::mouseClick(listing->viewport(), Qt::LeftButton, {}, QPoint(x, listing->pointOfLine(bug).y()));
    QVERIFY2(listing->markersAtLine(bug - 1) & (1 << app::kMarkerRight), qPrintable(view->feedbackText()));
    QCOMPARE(listing->rowAt(QPoint(x, listing->pointOfLine(bug).y())), bug - 1);
    // Below the last row nothing is picked.
    const QPoint last = listing->pointOfLine(listing->lineCount());
    if (last.y() + 3 * listing->textHeight(0) < listing->viewport()->height())
      QCOMPARE(listing->rowAt(QPoint(x, last.y() + 2 * listing->textHeight(0))), -1);

    // The same for a walkthrough note.
    auto *walk = openFirst<app::WalkthroughView>(*m_window, course::ActivityKind::Walkthrough);
    QVERIFY(walk);
    const auto &[line, note] = *walk->activity().as<course::Walkthrough>()->panes.front().notes.rbegin();
    app::ListingView *code = walk->listing(0);
    QCoreApplication::processEvents();
    code->setCurrentLineNumber(1);
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    QTest::mouseClick(code->viewport(), Qt::LeftButton, {},
                      QPoint(code->viewport()->width() - 12, code->pointOfLine(line).y()));
    QCOMPARE(walk->noteText(), QString::fromStdString(note));
  }

  void answersRestoredAfterRestart()
  {
    // The views on a progress database, closed and opened again as a restart of the app would.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string db = QString(dir.path() + QStringLiteral("/progress.sqlite")).toStdString();
    const course::Course *c = m_window->course();
    auto findKind = [&](course::ActivityKind kind) -> std::pair<const course::Module *, const course::Activity *> {
      for (const course::Module &m : c->modules)
        for (const course::Activity &a : m.activities)
          if (a.kind == kind)
            return {&m, &a};
      return {nullptr, nullptr};
    };
    const auto [quizModule, quizActivity] = findKind(course::ActivityKind::Quiz);
    const auto [bugModule, bugActivity] = findKind(course::ActivityKind::SpotTheBug);
    const auto [dragModule, dragActivity] = findKind(course::ActivityKind::DragMatch);
    QVERIFY(quizActivity && bugActivity && dragActivity);
    const auto &questions = quizActivity->as<course::Quiz>()->questions;
    QVERIFY(questions.size() >= 2);
    auto choicesOf = [&](int qi, bool right) {
      QList<int> out;
      for (int i = 0; i < static_cast<int>(questions[qi].choices.size()); ++i)
        if (questions[qi].choices[i].correct == right)
          out << i;
      return right ? out : QList<int>{out.first()};
    };
    const auto *spot = bugActivity->as<course::SpotTheBug>();
    const int bugLine = spot->bugLines.front();
    const int wrongLine = bugLine == 1 ? 2 : 1;
    const course::DragItem &dragItem = dragActivity->as<course::DragMatch>()->items.front();
    QList<QList<int>> orders;
    QList<int> poolOrder;
    {
      auto store = progress::Store::open(db);
      QVERIFY(static_cast<bool>(store));
      app::SqliteStateStore states(std::make_shared<progress::Store>(std::move(*store)));
      app::ActivityContext quizContext{nullptr, &states, quizModule, {}};
      app::QuizView quiz(*quizActivity, quizContext);
      quiz.select(0, choicesOf(0, true));
      QVERIFY(quiz.check(0));
      quiz.select(1, choicesOf(1, false));
      QVERIFY(!quiz.check(1)); // a first miss: the answer stays hidden
      for (int qi = 0; qi < quiz.questionCount(); ++qi)
        orders << quiz.displayOrder(qi);
      app::SpotTheBugView bug(*bugActivity, app::ActivityContext{nullptr, &states, bugModule, {}});
      QVERIFY(!bug.pick(wrongLine));
      QVERIFY(bug.pick(bugLine));
      app::DragMatchView drag(*dragActivity, app::ActivityContext{nullptr, &states, dragModule, {}});
      QVERIFY(drag.place(QString::fromStdString(dragItem.id), QString::fromStdString(dragItem.target)));
      poolOrder = drag.itemOrder();
    }
    auto store = progress::Store::open(db);
    QVERIFY(static_cast<bool>(store));
    app::SqliteStateStore states(std::make_shared<progress::Store>(std::move(*store)));
    const size_t answers = states.store().quizAnswers()->size();
    const size_t picks = states.store().spotPicks()->size();
    app::QuizView quiz(*quizActivity, app::ActivityContext{nullptr, &states, quizModule, {}});
    for (int qi = 0; qi < quiz.questionCount(); ++qi)
      QCOMPARE(quiz.displayOrder(qi), orders[qi]);
    QVERIFY(quiz.isRight(0) && quiz.answerShown(0));
    QVERIFY(quiz.feedbackText(0).contains(QStringLiteral("Right")));
    for (int i : choicesOf(0, true))
      QVERIFY(quiz.choiceButtons(0)[i]->isChecked());
    QVERIFY(!quiz.isRight(1) && !quiz.answerShown(1));
    QVERIFY(quiz.feedbackText(1).contains(QStringLiteral("Not right")));
    QVERIFY(quiz.choiceButtons(1)[choicesOf(1, false).first()]->isChecked());
    app::SpotTheBugView bug(*bugActivity, app::ActivityContext{nullptr, &states, bugModule, {}});
    QCOMPARE(bug.wrongPicks(), 1);
    QVERIFY(bug.listing()->markersAtLine(bugLine - 1) & (1 << app::kMarkerRight));
    QVERIFY(bug.feedbackText().contains(QString::fromStdString(spot->why).left(20)));
    app::DragMatchView drag(*dragActivity, app::ActivityContext{nullptr, &states, dragModule, {}});
    QCOMPARE(drag.itemOrder(), poolOrder);
    QCOMPARE(drag.placement().value(QString::fromStdString(dragItem.id)), QString::fromStdString(dragItem.target));
    // Restoring records nothing new.
    QCOMPARE(states.store().quizAnswers()->size(), answers);
    QCOMPARE(states.store().spotPicks()->size(), picks);
  }

  void quizByMouseAndKeyboard()
  {
    auto *quiz = openFirst<app::QuizView>(*m_window, course::ActivityKind::Quiz);
    QVERIFY(quiz);
    const auto &q = quiz->activity().as<course::Quiz>()->questions.front();
    int correct = 0;
    while (!q.choices[correct].correct)
      ++correct;
    QAbstractButton *choice = quiz->choiceButtons(0).value(correct);
    QPushButton *check = nullptr;
    for (QAbstractButton *b : quiz->findChildren<QAbstractButton *>())
      if (!check && b->text() == QStringLiteral("&Check answer"))
        check = qobject_cast<QPushButton *>(b);
    QVERIFY(choice && check);
    QString plain = QString::fromStdString(q.choices[correct].text);
    plain.remove(QLatin1Char('`'));
    QCOMPARE(choice->accessibleName(), plain.replace(QStringLiteral("**"), QString()));
    // A click on the choice's text (a wrapped label beside the indicator) picks it.
    QLabel *label = nullptr;
    for (QLabel *l : choice->parentWidget()->findChildren<QLabel *>(Qt::FindDirectChildrenOnly))
      if (!label)
        label = l;
    QVERIFY(label);
    QTest::mouseClick(label, Qt::LeftButton);
    QVERIFY(choice->isChecked());
    check->setFocus();
    QTest::keyClick(check, Qt::Key_Space);
    QVERIFY(quiz->isRight(0) || q.multiple);
  }

  void spotTheBugBuggyAndCorrectLines()
  {
    auto *view = openFirst<app::SpotTheBugView>(*m_window, course::ActivityKind::SpotTheBug);
    QVERIFY(view);
    const auto *item = view->activity().as<course::SpotTheBug>();
    const int bug = item->bugLines.front();
    const int fine = bug == 1 ? 2 : 1;
    app::ListingView *listing = view->listing();
    // Mouse: click a correct line, then the buggy one.
    QTest::mouseClick(listing->viewport(), Qt::LeftButton, {}, listing->pointOfLine(fine));
    QCOMPARE(view->wrongPicks(), 1);
    QVERIFY(view->feedbackText().contains(QStringLiteral("Not")));
    QVERIFY(listing->markersAtLine(fine - 1) & (1 << app::kMarkerWrong));
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    QTest::mouseClick(listing->viewport(), Qt::LeftButton, {}, listing->pointOfLine(bug));
    QVERIFY2(view->wrongPicks() == 1, qPrintable(view->feedbackText()));
    QVERIFY(view->feedbackText().contains(QString::fromStdString(item->why).left(20)));
    QVERIFY(view->feedbackText().contains(QString::fromStdString(item->fix).left(20)));
    QVERIFY(listing->markersAtLine(bug - 1) & (1 << app::kMarkerRight));
    QCOMPARE(m_window->states()->state(view->moduleId(), view->activityId()), ActivityState::Done);
    // Keyboard: arrows to the line, Enter picks it.
    view->reset();
    listing->setFocus();
    listing->setCurrentLineNumber(1);
    for (int i = 1; i < bug; ++i)
      QTest::keyClick(listing, Qt::Key_Down);
    QCOMPARE(listing->currentLineNumber(), bug);
    QTest::keyClick(listing, Qt::Key_Return);
    QVERIFY(listing->markersAtLine(bug - 1) & (1 << app::kMarkerRight));
    // Without a worker, "Run it on my GPU" reports that the engine could not start, in the view.
    if (view->hasRunnableKernel()) {
      QVERIFY(view->runKernel() > 0);
      QTRY_VERIFY(view->runDiagnosis().contains(QStringLiteral("Could not run")));
    }
  }

  void dragMatchWithTheMouse()
  {
    auto *view = openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch);
    QVERIFY(view);
    const auto *match = view->activity().as<course::DragMatch>();
    // Each item is dropped on its target's list (the drop half of a mouse drag: enter, move, drop).
    for (const course::DragItem &item : match->items) {
      app::DropList *target = view->targetList(QString::fromStdString(item.target));
      QVERIFY(target);
      std::unique_ptr<QMimeData> mime(app::DropList::mimeFor(QString::fromStdString(item.id)));
      const QPoint pos = target->viewport()->rect().center();
      QDragEnterEvent enter(pos, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(target->viewport(), &enter);
      QVERIFY(enter.isAccepted());
      QDragMoveEvent move(pos, Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(target->viewport(), &move);
      QDropEvent drop(QPointF(pos), Qt::MoveAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(target->viewport(), &drop);
    }
    QCOMPARE(view->pool()->count(), 0);
    QVERIFY(view->check());
    QVERIFY(view->feedbackText().contains(QString::fromStdString(match->items.front().explanation).left(20)));
    QCOMPARE(m_window->states()->state(view->moduleId(), view->activityId()), ActivityState::Done);
  }

  void dragMatchWithTheKeyboard()
  {
    auto *view = openFirst<app::DragMatchView>(*m_window, course::ActivityKind::DragMatch);
    QVERIFY(view);
    const auto *match = view->activity().as<course::DragMatch>();
    auto targetNumber = [&](const std::string &id) {
      for (int t = 0; t < static_cast<int>(match->targets.size()); ++t)
        if (match->targets[t].id == id)
          return t + 1;
      return 0;
    };
    // A wrong placement first, to see the ✗ (row 0 holds the first item of the shuffled order).
    const course::DragItem &first = match->items[view->itemOrder().front()];
    if (match->targets.size() > 1) {
      view->pool()->setFocus();
      view->pool()->setCurrentRow(0);
      const int wrong = targetNumber(first.target) == 1 ? 2 : 1;
      QTest::keyClick(view->pool(), static_cast<Qt::Key>(Qt::Key_0 + wrong));
      QVERIFY(!view->check());
      QVERIFY(view->feedbackText().contains(QStringLiteral("✗")));
      view->reset();
    }
    // Number keys on the selected item of the pool.
    while (view->pool()->count() > 1) {
      view->pool()->setFocus();
      view->pool()->setCurrentRow(0);
      const QString id = view->pool()->item(0)->text();
      int number = 0;
      for (const course::DragItem &i : match->items)
        if (QString::fromStdString(i.text).remove(QLatin1Char('`')) == id)
          number = targetNumber(i.target);
      QVERIFY(number > 0 && number <= 9);
      QTest::keyClick(view->pool(), static_cast<Qt::Key>(Qt::Key_0 + number));
    }
    // The last one through the "Move to" combo and Place.
    view->pool()->setFocus();
    view->pool()->setCurrentRow(0);
    const QString last = view->pool()->item(0)->text();
    for (const course::DragItem &i : match->items)
      if (QString::fromStdString(i.text).remove(QLatin1Char('`')) == last)
        view->moveToCombo()->setCurrentIndex(targetNumber(i.target));
    QPushButton *place = nullptr;
    for (QPushButton *b : view->findChildren<QPushButton *>())
      if (b->text() == QStringLiteral("&Place"))
        place = b;
    QVERIFY(place);
    QTest::mouseClick(place, Qt::LeftButton);
    QCOMPARE(view->pool()->count(), 0);
    QTest::keyClick(m_window.get(), Qt::Key_Return, Qt::ControlModifier); // Run = Check
    QVERIFY(view->feedbackText().contains(QStringLiteral("All")));
  }

  void stepThroughEveryDiagram_data()
  {
    QTest::addColumn<int>("diagram");
    QTest::newRow("traffic") << static_cast<int>(course::Diagram::Traffic);
    QTest::newRow("online-softmax") << static_cast<int>(course::Diagram::OnlineSoftmax);
    QTest::newRow("tile-grid") << static_cast<int>(course::Diagram::TileGrid);
    QTest::newRow("pipeline") << static_cast<int>(course::Diagram::Pipeline);
    QTest::newRow("table") << static_cast<int>(course::Diagram::Table);
  }

  void stepThroughEveryDiagram()
  {
    QFETCH(int, diagram);
    auto *view = openFirst<app::StepThroughView>(*m_window, course::ActivityKind::StepThrough,
                                                 static_cast<course::Diagram>(diagram));
    QVERIFY2(view, "the fixture course has no step-through of this diagram");
    QCOMPARE(view->currentStep(), 0);
    QStringList seen{view->diagram()->describe()};
    // Next by the button and by the Right arrow on the diagram; Back by Left.
    view->diagram()->setFocus();
    for (int i = 1; i < view->stepCount(); ++i) {
      if (i % 2)
        QTest::keyClick(view->diagram(), Qt::Key_Right);
      else
        QVERIFY(view->next());
      QCOMPARE(view->currentStep(), i);
      view->finishAnimation();
      seen << view->diagram()->describe();
    }
    QVERIFY(!view->next());
    QCOMPARE(m_window->states()->state(view->moduleId(), view->activityId()), ActivityState::Done);
    for (const QString &s : seen)
      QVERIFY(!s.isEmpty());
    if (view->stepCount() > 1) {
      QTest::keyClick(view->diagram(), Qt::Key_Left);
      QCOMPARE(view->currentStep(), view->stepCount() - 2);
    }
    // Play runs to the end by itself.
    view->reset();
    view->setPlaying(true);
    QTRY_VERIFY_WITH_TIMEOUT(!view->isPlaying(), 2400 * view->stepCount() + 2000);
    QCOMPARE(view->currentStep(), view->stepCount() - 1);

    if (diagram == static_cast<int>(course::Diagram::OnlineSoftmax))
      QVERIFY(view->diagram()->describe().contains(QStringLiteral("m = ")));
  }

  void tileGridGroupSizeRecomputes()
  {
    // The figures of Triton's matmul tutorial: 9 programs on a 9×9 grid with 9 tiles along K.
    const auto rowMajor = app::groupedLoads(9, 9, 9, 1, 9);
    const auto grouped = app::groupedLoads(9, 9, 9, 3, 9);
    QCOMPARE(rowMajor.first + rowMajor.second, 90);
    QCOMPARE(grouped.first + grouped.second, 54);
    QCOMPARE(app::groupedTile(3, 9, 9, 3), QPoint(1, 0)); // pid 3 → row 0, column 1
    QCOMPARE(app::groupedTile(1, 9, 9, 3), QPoint(0, 1)); // pid 1 → row 1, column 0

    auto *view = openFirst<app::StepThroughView>(*m_window, course::ActivityKind::StepThrough, course::Diagram::TileGrid);
    QVERIFY(view);
    QVERIFY(view->groupSizeControl());
    auto *grid = static_cast<app::TileGridDiagram *>(view->diagram());
    // Find a step with 9 computed tiles (or use the last) and flip GROUP_SIZE_M between 1 and 3.
    int step = view->stepCount() - 1;
    for (int i = 0; i < view->stepCount(); ++i) {
      view->goTo(i);
      if (grid->computedTiles().size() == 9)
        step = i;
    }
    view->goTo(step);
    const int n = static_cast<int>(grid->computedTiles().size());
    view->groupSizeControl()->setValue(1);
    const auto one = grid->loads();
    view->groupSizeControl()->setValue(3);
    const auto three = grid->loads();
    const auto [gm, gn] = grid->gridSize();
    QCOMPARE(one.first + one.second, app::groupedLoads(n, gm, gn, 1, grid->kTiles()).first +
                                         app::groupedLoads(n, gm, gn, 1, grid->kTiles()).second);
    QCOMPARE(three.first + three.second, app::groupedLoads(n, gm, gn, 3, grid->kTiles()).first +
                                             app::groupedLoads(n, gm, gn, 3, grid->kTiles()).second);
    if (n == 9 && gm == 9 && gn == 9 && grid->kTiles() == 9) {
      QCOMPARE(one.first + one.second, 90);
      QCOMPARE(three.first + three.second, 54);
    }
    QVERIFY(grid->describe().contains(QStringLiteral("GROUP_SIZE_M = 3")));
  }

  void walkthroughNotes()
  {
    auto *view = openFirst<app::WalkthroughView>(*m_window, course::ActivityKind::Walkthrough);
    QVERIFY(view);
    const auto *w = view->activity().as<course::Walkthrough>();
    const auto &[line, note] = *w->panes.front().notes.begin();
    // Clicking the line shows its note.
    app::ListingView *listing = view->listing(0);
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    QTest::mouseClick(listing->viewport(), Qt::LeftButton, {}, listing->pointOfLine(line));
    QCOMPARE(view->noteText(), QString::fromStdString(note));
    // Ctrl+Return walks every note → done.
    int guard = 0;
    while (view->notesSeen() < [&] {
      int total = 0;
      for (const auto &p : w->panes)
        total += static_cast<int>(p.notes.size());
      return total;
    }() && guard++ < 100)
      QTest::keyClick(m_window.get(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(m_window->states()->state(view->moduleId(), view->activityId()), ActivityState::Done);
  }

  void realContentStepThroughs()
  {
    // Every step-through of the built-in course steps to its end without error (when the content loads).
    MainWindow window(QStringLiteral("/nonexistent/tkm-run"));
    window.show();
    if (!window.loadCourse(tkm::apptest::realContentDir()))
      QSKIP("the built-in content does not load yet");
    int count = 0;
    const course::Course *c = window.course();
    for (int m = 0; m < static_cast<int>(c->modules.size()); ++m)
      for (int a = 0; a < static_cast<int>(c->modules[m].activities.size()); ++a) {
        if (c->modules[m].activities[a].kind != course::ActivityKind::StepThrough)
          continue;
        window.openActivity(m, a);
        auto *view = qobject_cast<app::StepThroughView *>(window.currentView());
        QVERIFY(view);
        bool matched = false;
        do {
          QVERIFY(!view->diagram()->describe().isEmpty());
          if (auto *softmax = qobject_cast<app::OnlineSoftmaxDiagram *>(view->diagram()))
            matched = matched || softmax->matchesFull();
        } while (view->next());
        // The flash-attention rescaling ends equal to the full softmax.
        if (view->activity().as<course::StepThrough>()->diagram == course::Diagram::OnlineSoftmax)
          QVERIFY2(matched, view->activity().source.string().c_str());
        ++count;
      }
    qInfo() << "stepped through" << count << "built-in step-throughs";
  }
};

QTEST_MAIN(TestActivities)
#include "tst_activities.moc"
