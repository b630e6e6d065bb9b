#pragma once
// Module completion, scores and the review list, computed from the store's records and the course's outline.
// The rules (docs/progress.md, "Completion rules"):
//   lesson, walkthrough  done once opened (the app records a time span when it shows one)
//   quiz                 one item per question; a question is done once answered right at least once
//   spot-the-bug         done once a pick was right (the bug was found)
//   drag-match           done once an attempt placed every item right
//   step-through         done once watched to its last step
//   exercise             done once a kernel run passed (run report verdict "pass")
// A module is complete when every item of every activity is done. Review list ("weak topics"): a question whose
// latest answer is wrong, a spot-the-bug whose latest pick is wrong, a drag-match whose latest attempt was not fully
// right, an exercise with runs none of which passed.

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
    int itemsDone = 0;                ///< items done (quiz: questions right at least once; else 0 or 1)
    int itemsTotal = 0;               ///< items (quiz: questions; else 1)
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
    int itemsDone = 0;                        ///< sum over activities
    int itemsTotal = 0;                       ///< sum over activities
    bool complete = false;                    ///< every item done (a module without activities is complete)
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
    std::string lastVerdict;                            ///< ExerciseNotPassed only: verdict of the latest run
    int64_t lastAtMs = 0;                               ///< [ms since epoch, UTC] of the latest attempt
};

/// The review items of one module.
struct ModuleReview
{
    std::string moduleId;          ///< module id
    std::string title;             ///< module title
    std::vector<ReviewItem> items; ///< in course order of the activities (quiz questions in quiz order)
};

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
