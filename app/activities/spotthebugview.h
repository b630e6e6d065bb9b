#pragma once
// Spot the bug: a read-only listing; the learner clicks the faulty line (or moves there and presses Enter).
// Feedback says why and how to fix it; the fixed listing can be shown; where the item names a runnable kernel,
// "Run it on my GPU" runs it through the engine and shows the real diagnosis.

#include "app/activities/activityview.h"

#include <QJsonObject>

class QLabel;
class QPushButton;

namespace tkm::app {

class ListingView;
class MarkdownView;

/// Spot-the-bug view.
class SpotTheBugView : public ActivityView {
  Q_OBJECT
public:
  SpotTheBugView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// Picks `line` [1-based] as the learner's answer; returns whether it is a faulty line.
  bool pick(int line);
  /// The listing.
  ListingView *listing() const { return m_listing; }
  /// The feedback shown (Markdown).
  QString feedbackText() const;
  /// Whether the item has a kernel to run.
  bool hasRunnableKernel() const;
  /// Runs the faulty kernel through the engine ("Run it on my GPU"); returns the job id (0 when not runnable).
  int runKernel();
  /// The diagnosis line of the last run (empty before).
  QString runDiagnosis() const;
  /// Number of wrong picks so far.
  int wrongPicks() const { return m_wrong; }

  /// Whether the listing is a Triton kernel of an exercise ("Run this bug", runnablebug.h).
  bool canRunThisBug() const;
  /// Runs the listing itself against its exercise (CPU interpreter without a GPU); returns the job id (0: not).
  int runThisBug();
  /// The result of the last "Run this bug" (rich text; empty before).
  QString bugRunResult() const;

  bool canRun() const override { return hasRunnableKernel() || canRunThisBug(); }
  void run() override { canRunThisBug() ? runThisBug() : runKernel(); }
  void reset() override;

private:
  void onRunFinished(int jobId, const report::RunReport &report);
  void restorePicks();
  void onBugRunFinished(int jobId, const report::RunReport &report);

  ListingView *m_listing = nullptr;
  ListingView *m_fixed = nullptr;
  MarkdownView *m_feedback = nullptr;
  QPushButton *m_showFixed = nullptr;
  QPushButton *m_reveal = nullptr;
  QPushButton *m_runButton = nullptr;
  QLabel *m_runResult = nullptr;
  QPushButton *m_runBug = nullptr;   ///< "Run this bug"
  QLabel *m_bugResult = nullptr;
  int m_bugJobId = 0;
  int m_jobId = 0;
  int m_wrong = 0;
  bool m_found = false;
  bool m_revealing = false; ///< inside "Show me": the pick records as not spotted
  bool m_restoring = false; ///< replaying the stored picks of an earlier visit: nothing is recorded again
};

} // namespace tkm::app
