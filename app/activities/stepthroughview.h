#pragma once
// Step-through: an animated diagram with Back / Next / Play; each step's title and text below it. The tile-grid
// diagram adds a GROUP_SIZE_M control that recomputes the picture and the counts.

#include "app/activities/activityview.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QTimer;
class QVariantAnimation;

namespace tkm::app {

class DiagramWidget;
class MarkdownView;

/// Step-through view.
class StepThroughView : public ActivityView {
  Q_OBJECT
public:
  StepThroughView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  /// Number of steps.
  int stepCount() const;
  /// Current step [0-based].
  int currentStep() const { return m_step; }
  /// Shows step `index` (animated); false when out of range.
  bool goTo(int index);
  /// Next step; false at the end.
  bool next();
  /// Previous step; false at the start.
  bool back();
  /// Starts or stops playing (one step every ~2 s until the end).
  void setPlaying(bool playing);
  /// Whether it is playing.
  bool isPlaying() const;
  /// The diagram.
  DiagramWidget *diagram() const { return m_diagram; }
  /// The GROUP_SIZE_M control (tile-grid only; nullptr otherwise).
  QSpinBox *groupSizeControl() const { return m_groupSize; }
  /// Finishes the running animation at once (tests, screenshots).
  void finishAnimation();

  bool canRun() const override { return true; }
  /// Run = play / pause.
  void run() override { setPlaying(!isPlaying()); }
  void reset() override;

protected:
  void keyPressEvent(QKeyEvent *event) override;

private:
  void updateControls();

  DiagramWidget *m_diagram = nullptr;
  QLabel *m_stepTitle = nullptr;
  MarkdownView *m_text = nullptr;
  QPushButton *m_back = nullptr;
  QPushButton *m_next = nullptr;
  QPushButton *m_play = nullptr;
  QLabel *m_dots = nullptr;
  QSpinBox *m_groupSize = nullptr;
  QVariantAnimation *m_animation = nullptr;
  QTimer *m_player = nullptr;
  int m_step = 0;
};

} // namespace tkm::app
