#pragma once
// Module completion, scores and the review list, computed from the store's records and the course's outline.
// One definition of done per activity kind, shared by the navigator, the dashboard and the exported report (each
// counts activities, so "3/11" means the same everywhere; docs/progress.md, "Completion rules"):
//   lesson               done once read: its view stores the activity value "state" = 2 when the learner scrolled
//                        to within half a screen of the page's end (a page that fits counts at once) or pressed Next
//   walkthrough          done once every note was read (the view stores "state" = 2)
//   quiz                 done once every question was answered right at least once
//   spot-the-bug         done once a pick was right (the bug was found; a revealed answer does not count)
//   drag-match           done once an attempt placed every item right
//   step-through         done once watched to its last step
//   exercise             done once a kernel run passed (run report verdict "pass"); a compile-only run without a GPU
//                        (verdict "compiled") is neither a pass nor a miss
// A module is complete when every activity is done. Review list ("weak topics"): a question whose latest answer is
// wrong, a spot-the-bug whose latest pick is wrong, a drag-match whose latest attempt was not fully right, an
// exercise with graded runs (fail, fault, timeout, compile error) none of which passed.

#include "modules/course/model.h"
#include "modules/progress/records.h"
#include "modules/progress/result.h"

#include <optional>
#include <string>
#include <vector>

namespace tkm::progress {

class Store;

/// What the completion rules need to know of one activity.
struct ActivityOutline
{
    std::string id;                                           ///< activity id
    course::ActivityKind kind = course::ActivityKind::Lesson; ///< its kind
    std::string title;                                        ///< shown in the review list
    std::vector<std::string> questionIds;                     ///< quiz only: its question ids, in order
};

/// What the completion rules need to know of one module (build it with outlineOf() in course_outline.h).
struct ModuleOutline
{
    std::string id;                          ///< module id
    std::string title;                       ///< module title
    std::vector<ActivityOutline> activities; ///< in course order
};

/// Progress in one activity.
struct ActivityProgress
{
    std::string activityId;                                   ///< activity id
    course::ActivityKind kind = course::ActivityKind::Lesson; ///< its kind
    std::string title;                                        ///< its title
    int itemsDone = 0;                ///< 1 when done by the rule of its kind, else 0
    int itemsTotal = 0;               ///< 1 (an activity is one item everywhere progress is counted)
    bool started = false;             ///< any record exists for it
    bool complete = false;            ///< itemsDone == itemsTotal
    int attempts = 0;                 ///< answers, picks, attempts, completions or runs recorded
    std::optional<KernelRun> bestRun; ///< exercise only: the fastest passing run (no source/report)
    double secondsSpent = 0.0;        ///< [s] time recorded in it
};

/// Progress and scores in one module, for the dashboard and the report.
struct ModuleProgress
{
    std::string moduleId;                     ///< module id
    std::string title;                        ///< module title
    std::vector<ActivityProgress> activities; ///< in course order
    int itemsDone = 0;                        ///< activities done
    int itemsTotal = 0;                       ///< activities
    bool complete = false;                    ///< every activity done (a module without activities is complete)
    int quizAnswers = 0;                      ///< answers given to its quiz questions (every attempt)
    int quizCorrectAnswers = 0;               ///< of those, right ones
    int questionsTotal = 0;                   ///< quiz questions in the module
    int questionsRight = 0;                   ///< questions answered right at least once
    int exercisesTotal = 0;                   ///< exercise activities
    int exercisesPassed = 0;                  ///< exercises with a passing run
    int bugsTotal = 0;                        ///< spot-the-bug activities
    int bugsFound = 0;                        ///< of those, found
    double secondsSpent = 0.0;                ///< [s] time recorded in the module's activities

    /// itemsDone / itemsTotal [fraction]; 1 for a module without items.
    double fraction() const;
    /// quizCorrectAnswers / quizAnswers [fraction]; nullopt before the first answer.
    std::optional<double> quizAccuracy() const;
};

/// Why an activity is on the review list.
enum class ReviewReason {
    QuestionMissed,    ///< a quiz question whose latest answer is wrong
    BugNotSpotted,     ///< a spot-the-bug whose latest pick is wrong
    DragMatchNotRight, ///< a drag-match whose latest attempt had misplaced items
    ExerciseNotPassed  ///< an exercise with runs, none of which passed
};

/// One entry of the review list; the app opens activityId (and scrolls to questionId for a quiz).
struct ReviewItem
{
    ReviewReason reason = ReviewReason::QuestionMissed; ///< why it is listed
    std::string activityId;                             ///< activity to open
    std::string activityTitle;                          ///< its title
    std::string questionId;                             ///< QuestionMissed only: the question
    int questionNumber = 0;                             ///< QuestionMissed only: [1-based] its place in the quiz
    int misses = 0;                                     ///< wrong answers, picks, attempts or failed runs so far
    std::optional<report::Verdict> lastVerdict;         ///< ExerciseNotPassed only: verdict of the latest run
    int64_t lastAtMs = 0;                               ///< [ms since epoch, UTC] of the latest attempt
};

/// The review items of one module.
struct ModuleReview
{
    std::string moduleId;          ///< module id
    std::string title;             ///< module title
    std::vector<ReviewItem> items; ///< in course order of the activities (quiz questions in quiz order)
};

/// Key of the activity value where the app keeps an activity's state (0 new, 1 in progress, 2 done).
inline constexpr char kStateKey[] = "state";
/// Whether a run verdict grades the kernel (pass, fail, fault, timeout, compile_error); "compiled" (no GPU to run
/// the cases) and engine errors do not.
bool isGradedVerdict(report::Verdict verdict);

/// Progress of one module by the rules above; records of activities not in the outline are ignored.
Expected<ModuleProgress> moduleProgress(const Store& store, const ModuleOutline& module);
/// Progress of every module, in the order given.
Expected<std::vector<ModuleProgress>> courseProgress(const Store& store, const std::vector<ModuleOutline>& course);
/// The review list ("weak topics"), grouped by module in the order given; modules with nothing to review are left
/// out, so an empty list means nothing to review.
Expected<std::vector<ModuleReview>> reviewList(const Store& store, const std::vector<ModuleOutline>& course);
/// A short English label for a reason, e.g. "question missed".
std::string_view reviewReasonLabel(ReviewReason reason);

} // namespace tkm::progress
