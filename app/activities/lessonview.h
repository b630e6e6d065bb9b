#pragma once
// A lesson page: rendered Markdown with callouts, typeset formulas and highlighted code. It counts as read (done)
// once the learner scrolled to within half a screen of its end (a page that fits counts at once) or pressed
// Next →; a line at its foot says which.

#include "app/activities/activityview.h"

class QLabel;

namespace tkm::app {

class MarkdownView;

/// Lesson page view.
class LessonView : public ActivityView
{
    Q_OBJECT
public:
    LessonView(const course::Activity& activity, const ActivityContext& context, QWidget* parent = nullptr);

    bool canFind() const override { return true; }
    void find() override;
    /// Next → was pressed: the lesson counts as read.
    void finishOnNext() override;
    /// The page (for tests).
    MarkdownView* page() const { return m_page; }
    /// The line under the page that says whether the lesson counts as read (for tests).
    QLabel* readLine() const { return m_readLine; }

private:
    void checkRead();
    void showReadState();
    MarkdownView* m_page = nullptr;
    QLabel* m_readLine = nullptr;
};

} // namespace tkm::app
