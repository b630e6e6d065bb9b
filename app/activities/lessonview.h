#pragma once
// A lesson page: rendered Markdown with callouts and highlighted code; reading it to the end marks it done.

#include "app/activities/activityview.h"

namespace tkm::app {

class MarkdownView;

/// Lesson page view.
class LessonView : public ActivityView {
  Q_OBJECT
public:
  LessonView(const course::Activity &activity, const ActivityContext &context, QWidget *parent = nullptr);

  bool canFind() const override { return true; }
  void find() override;
  /// The page (for tests).
  MarkdownView *page() const { return m_page; }

private:
  void checkScrolledToEnd();
  MarkdownView *m_page = nullptr;
};

} // namespace tkm::app
