#pragma once
// Base of the centre views, one per activity kind, and the factory that picks the view for an activity.

#include "app/course/activitystate.h"

#include <QJsonObject>
#include <QString>
#include <QWidget>

#include <functional>

class QPushButton;

namespace tkm::course {
struct Activity;
struct Module;
} // namespace tkm::course

namespace tkm::app {

class EngineClient;

/// What an activity view may use; owned by the main window, outlives every view.
struct ActivityContext {
  EngineClient *engine = nullptr;        ///< runs kernels (exercise, spot-the-bug "Run it on my GPU")
  ActivityStateStore *states = nullptr;  ///< where progress goes
  const course::Module *module = nullptr; ///< the activity's module
  /// Asks the learner to confirm (question → yes?); the main window shows a message box, tests answer directly.
  std::function<bool(const QString &question)> confirm;
};

/// A centre view of one activity.
class ActivityView : public QWidget {
  Q_OBJECT
public:
  /// `activity` belongs to `context.module`; both outlive the view.
  ActivityView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// The activity shown.
  const course::Activity &activity() const { return m_activity; }
  /// Module id and activity id as QStrings.
  QString moduleId() const;
  /// See moduleId().
  QString activityId() const;

  /// Whether Run (Ctrl+Return) applies.
  virtual bool canRun() const { return false; }
  /// Runs (the exercise's kernel, a spot-the-bug kernel, the step-through animation, checks a quiz).
  virtual void run() {}
  /// Starts the activity over (asks first where work would be lost).
  virtual void reset() {}
  /// Whether Find applies.
  virtual bool canFind() const { return false; }
  /// Opens find (and replace where the view is editable).
  virtual void find() {}
  /// Writes unsaved work now (called before the view is replaced or the window closes).
  virtual void saveWork() {}
  /// The learner pressed Next → on this activity (a lesson then counts as read; other kinds keep their rule).
  virtual void finishOnNext() {}

signals:
  /// A short line for the status bar.
  void statusMessage(const QString &text);
  /// A report to draw beside the learner's in the results charts (e.g. the solution's run).
  void comparisonReport(const QString &name, const tkm::report::RunReport &report);

protected:
  /// The learner started working on the activity.
  void markInProgress();
  /// The learner completed the activity.
  void markDone();
  /// Asks `question`; true when confirmed (or when no confirm function is set).
  bool confirm(const QString &question) const;
  /// A value stored for this activity (see ActivityStateStore::value).
  QVariant storedValue(const QString &key, const QVariant &fallback = {}) const;
  /// Stores a value for this activity.
  void storeValue(const QString &key, const QVariant &value);
  /// The context given at construction.
  const ActivityContext &context() const { return m_context; }
  /// A bold title label for the top of a view.
  QWidget *makeHeader(const QString &kindLabel);

private:
  const course::Activity &m_activity;
  ActivityContext m_context;
};

/// The bar at the end of every activity: "← Previous" and "Next: <title> →" (the window fills and connects it).
class ActivityFooter : public QWidget {
  Q_OBJECT
public:
  explicit ActivityFooter(QWidget *parent = nullptr);
  /// Titles of the neighbouring activities; an empty title disables that button ("End of the course").
  void setNeighbours(const QString &previousTitle, const QString &nextTitle);
  /// The Next → button (for tests).
  QPushButton *nextButton() const { return m_next; }
  /// The ← Previous button (for tests).
  QPushButton *previousButton() const { return m_previous; }

signals:
  /// Next → was pressed.
  void nextClicked();
  /// ← Previous was pressed.
  void previousClicked();

private:
  QPushButton *m_previous = nullptr;
  QPushButton *m_next = nullptr;
};

/// Creates the view for `activity` (any of the seven kinds).
ActivityView *createActivityView(const course::Activity &activity, const ActivityContext &context,
                                 QWidget *parent = nullptr);

} // namespace tkm::app
