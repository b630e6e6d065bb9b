#pragma once
// Pages of the course that are not activities: the module overview (shown when a module row of the navigator is
// chosen: summary, time, progress, its activities with their states, the interviewer's probes of its lessons) and
// the welcome page of a first start (what the course is, how long, what works without a GPU, where to start).

#include <QWidget>

class QLabel;
class QPushButton;

namespace tkm::course {
struct Course;
} // namespace tkm::course

namespace tkm::app {

class ActivityStateStore;
class MarkdownView;

/// The Markdown of a module's overview: summary, time, "3 of 9 activities done", its activities as links
/// (`activity:<index>`) with kind and state, and every `[!PROBE]` callout of its lessons.
QString moduleOverviewMarkdown(const course::Course& course, int module, const ActivityStateStore* states);
/// The Markdown of the welcome page: the course, its modules and hours, what runs without a GPU, where to start.
QString welcomeMarkdown(const course::Course& course);

/// A page of Markdown with one button under it; links `activity:<index>` ask for an activity of `module()`.
class CoursePage : public QWidget
{
    Q_OBJECT
public:
    explicit CoursePage(QWidget* parent = nullptr);

    /// Shows the overview of `module` [0-based]; the button starts its first activity not done.
    void showModule(const course::Course& course, int module, const ActivityStateStore* states);
    /// Shows the welcome page; the button opens the first activity.
    void showWelcome(const course::Course& course);
    /// The module shown [0-based], or -1 for the welcome page.
    int module() const { return m_module; }
    /// The button under the page (for tests).
    QPushButton* startButton() const { return m_start; }
    /// The page (for tests).
    MarkdownView* page() const { return m_page; }

signals:
    /// The learner asked for an activity [0-based indices].
    void activityRequested(int module, int activity);

private:
    MarkdownView* m_page = nullptr;
    QPushButton* m_start = nullptr;
    int m_module = -1;
    int m_startActivity = 0;
};

} // namespace tkm::app
