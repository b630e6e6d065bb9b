// Completion rules, module scores and the review list (weak topics), from records and a course outline.
#include "modules/progress/completion.h"
#include "modules/progress/course_outline.h"
#include "modules/progress/store.h"
#include "tests/progress/test_util.h"

#include <gtest/gtest.h>

namespace tkm::progress {
namespace {

using course::ActivityKind;
using test::TempDir;

const std::string kM = "02-vector-add";

ModuleOutline vectorAddModule()
{
    return ModuleOutline{kM,
                         "Vector add",
                         {{"lesson", ActivityKind::Lesson, "Programs and tiles", {}},
                          {"quiz", ActivityKind::Quiz, "Masks", {"q1", "q2", "q3"}},
                          {"bug", ActivityKind::SpotTheBug, "Missing mask", {}},
                          {"drag", ActivityKind::DragMatch, "Terms", {}},
                          {"steps", ActivityKind::StepThrough, "Traffic", {}},
                          {"vector-add", ActivityKind::Exercise, "Masked vector add", {}}}};
}

ModuleOutline softmaxModule()
{
    return ModuleOutline{"03-softmax", "Softmax", {{"quiz", ActivityKind::Quiz, "Online softmax", {"a", "b"}}}};
}

class CompletionTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto opened = Store::open(m_dir / "progress.db");
        ASSERT_TRUE(opened) << opened.error().message;
        m_store.emplace(std::move(*opened));
    }
    Store& store() { return *m_store; }
    ModuleProgress progressOf(const ModuleOutline& m)
    {
        auto p = moduleProgress(store(), m);
        EXPECT_TRUE(p) << p.error().message;
        return p ? *p : ModuleProgress{};
    }
    const ActivityProgress& activity(const ModuleProgress& m, const std::string& id)
    {
        for (const auto& a : m.activities) {
            if (a.activityId == id) {
                return a;
            }
        }
        throw std::runtime_error("no activity " + id);
    }
    void run(const std::string& verdict, double ms, int64_t at)
    {
        KernelRun r = kernelRunFromReport({kM, "vector-add"}, "src " + std::to_string(at),
                                          test::sampleReport(verdict, ms, 3000.0));
        r.atMs = at;
        ASSERT_TRUE(store().recordKernelRun(r));
    }
    /// Everything done right once.
    void completeVectorAdd()
    {
        ASSERT_TRUE(store().addTimeSpent({kM, "lesson"}, 120.0, 1000));
        ASSERT_TRUE(store().setActivityValue({kM, "lesson"}, kStateKey, 2)); // the lesson view: read
        for (const char* q : {"q1", "q2", "q3"}) {
            ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, q, {0}, true, 2000}));
        }
        ASSERT_TRUE(store().recordSpotPick({0, {kM, "bug"}, {4}, true, 3000}));
        ASSERT_TRUE(store().recordDragAttempt({0, {kM, "drag"}, nlohmann::json::object(), 5, 5, 4000}));
        ASSERT_TRUE(store().recordStepCompletion({0, {kM, "steps"}, 6, 5000}));
        run("pass", 0.3, 6000);
    }

    TempDir m_dir;
    std::optional<Store> m_store;
};

TEST_F(CompletionTest, NothingDoneAtFirst)
{
    const ModuleProgress m = progressOf(vectorAddModule());
    EXPECT_EQ(m.itemsTotal, 6); // one per activity: lesson, quiz, bug, drag, steps, exercise
    EXPECT_EQ(m.itemsDone, 0);
    EXPECT_FALSE(m.complete);
    EXPECT_DOUBLE_EQ(m.fraction(), 0.0);
    EXPECT_FALSE(m.quizAccuracy().has_value());
    for (const auto& a : m.activities) {
        EXPECT_FALSE(a.started) << a.activityId;
    }
}

TEST_F(CompletionTest, EveryRuleSatisfiedCompletesTheModule)
{
    completeVectorAdd();
    const ModuleProgress m = progressOf(vectorAddModule());
    EXPECT_EQ(m.itemsDone, 6);
    EXPECT_TRUE(m.complete);
    EXPECT_DOUBLE_EQ(m.fraction(), 1.0);
    EXPECT_EQ(m.exercisesPassed, 1);
    EXPECT_EQ(m.exercisesTotal, 1);
    EXPECT_EQ(m.bugsFound, 1);
    EXPECT_EQ(m.questionsRight, 3);
    EXPECT_DOUBLE_EQ(*m.quizAccuracy(), 1.0);
    EXPECT_DOUBLE_EQ(m.secondsSpent, 120.0);
    // Other modules are untouched.
    EXPECT_EQ(progressOf(softmaxModule()).itemsDone, 0);
}

TEST_F(CompletionTest, QuizNeedsEveryQuestionRightOnce)
{
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {1}, false, 1}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {0}, true, 2}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {1}, false, 3})); // right once is enough
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q2", {2}, false, 4}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "gone", {0}, true, 5})); // removed from the content
    const ModuleProgress m = progressOf(vectorAddModule());
    const ActivityProgress& quiz = activity(m, "quiz");
    EXPECT_EQ(quiz.itemsDone, 0); // one question of three right: not done
    EXPECT_EQ(quiz.itemsTotal, 1);
    EXPECT_EQ(m.questionsRight, 1);
    EXPECT_EQ(m.questionsTotal, 3);
    EXPECT_FALSE(quiz.complete);
    EXPECT_TRUE(quiz.started);
    EXPECT_EQ(quiz.attempts, 4);
    EXPECT_EQ(m.quizAnswers, 4);
    EXPECT_EQ(m.quizCorrectAnswers, 1);
    EXPECT_DOUBLE_EQ(*m.quizAccuracy(), 0.25);
}

TEST_F(CompletionTest, PartialAttemptsDoNotComplete)
{
    ASSERT_TRUE(store().recordSpotPick({0, {kM, "bug"}, {2}, false, 1}));
    ASSERT_TRUE(store().recordDragAttempt({0, {kM, "drag"}, nlohmann::json::object(), 4, 5, 2}));
    run("fail", 0.2, 3);
    run("fault", 0.0, 4);
    const ModuleProgress m = progressOf(vectorAddModule());
    EXPECT_FALSE(activity(m, "bug").complete);
    EXPECT_FALSE(activity(m, "drag").complete);
    EXPECT_FALSE(activity(m, "vector-add").complete);
    EXPECT_FALSE(activity(m, "vector-add").bestRun.has_value());
    EXPECT_EQ(activity(m, "vector-add").attempts, 2);
    EXPECT_EQ(m.itemsDone, 0);
}

TEST_F(CompletionTest, ALessonCountsWhenReadNotWhenOpened)
{
    ASSERT_TRUE(store().addTimeSpent({kM, "lesson"}, 30.0, 1));
    EXPECT_FALSE(activity(progressOf(vectorAddModule()), "lesson").complete);
    EXPECT_TRUE(activity(progressOf(vectorAddModule()), "lesson").started);
    ASSERT_TRUE(store().setActivityValue({kM, "lesson"}, kStateKey, 1)); // in progress
    EXPECT_FALSE(activity(progressOf(vectorAddModule()), "lesson").complete);
    ASSERT_TRUE(store().setActivityValue({kM, "lesson"}, kStateKey, 2)); // read
    EXPECT_TRUE(activity(progressOf(vectorAddModule()), "lesson").complete);
}

TEST_F(CompletionTest, ACompileOnlyRunWithoutAGpuIsNotAMiss)
{
    run("compiled", 0.0, 1);
    run("compiled", 0.0, 2);
    auto review = reviewList(store(), {vectorAddModule()});
    ASSERT_TRUE(review);
    EXPECT_TRUE(review->empty());
    EXPECT_FALSE(activity(progressOf(vectorAddModule()), "vector-add").complete);
    run("fail", 0.1, 3);
    run("compiled", 0.0, 4);
    review = reviewList(store(), {vectorAddModule()});
    ASSERT_EQ(review->size(), 1u);
    EXPECT_EQ((*review)[0].items[0].misses, 1);
    EXPECT_EQ((*review)[0].items[0].lastVerdict, report::Verdict::Fail);
    EXPECT_TRUE(isGradedVerdict(report::Verdict::CompileError));
    EXPECT_FALSE(isGradedVerdict(report::Verdict::Compiled));
    EXPECT_FALSE(isGradedVerdict(report::Verdict::Error));
}

TEST_F(CompletionTest, BestRunIsTheFastestPass)
{
    run("pass", 0.40, 1);
    run("fail", 0.10, 2); // faster but wrong: never "best"
    run("pass", 0.25, 3);
    run("pass", 0.31, 4);
    const ModuleProgress m = progressOf(vectorAddModule());
    const ActivityProgress& ex = activity(m, "vector-add");
    ASSERT_TRUE(ex.bestRun.has_value());
    EXPECT_DOUBLE_EQ(*ex.bestRun->medianMs, 0.25);
    EXPECT_EQ(ex.bestRun->atMs, 3);
    EXPECT_EQ(ex.bestRun->id, (*store().bestRun({kM, "vector-add"}))->id);
}

TEST_F(CompletionTest, ResetActivityUndoesItsCompletion)
{
    completeVectorAdd();
    ASSERT_TRUE(store().resetActivity({kM, "vector-add"}));
    const ModuleProgress m = progressOf(vectorAddModule());
    EXPECT_EQ(m.itemsDone, 5);
    EXPECT_FALSE(m.complete);
    EXPECT_EQ(m.exercisesPassed, 0);
}

TEST_F(CompletionTest, ReviewListsMissedQuestionsUnspottedBugsAndFailedExercises)
{
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {1}, false, 10}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {2}, false, 11}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q2", {1}, false, 12}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q2", {0}, true, 13})); // fixed: not weak
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q3", {0}, true, 14}));
    ASSERT_TRUE(store().recordSpotPick({0, {kM, "bug"}, {2}, false, 20}));
    ASSERT_TRUE(store().recordDragAttempt({0, {kM, "drag"}, nlohmann::json::object(), 3, 5, 30}));
    run("fail", 0.2, 40);
    run("timeout", 0.0, 41);
    ASSERT_TRUE(store().recordQuizAnswer({0, {"03-softmax", "quiz"}, "b", {3}, false, 50}));

    auto review = reviewList(store(), {vectorAddModule(), softmaxModule()});
    ASSERT_TRUE(review) << review.error().message;
    ASSERT_EQ(review->size(), 2u);
    const ModuleReview& va = (*review)[0];
    EXPECT_EQ(va.moduleId, kM);
    EXPECT_EQ(va.title, "Vector add");
    ASSERT_EQ(va.items.size(), 4u);
    EXPECT_EQ(va.items[0].reason, ReviewReason::QuestionMissed);
    EXPECT_EQ(va.items[0].activityId, "quiz");
    EXPECT_EQ(va.items[0].questionId, "q1");
    EXPECT_EQ(va.items[0].misses, 2);
    EXPECT_EQ(va.items[0].lastAtMs, 11);
    EXPECT_EQ(va.items[1].reason, ReviewReason::BugNotSpotted);
    EXPECT_EQ(va.items[1].activityTitle, "Missing mask");
    EXPECT_EQ(va.items[2].reason, ReviewReason::DragMatchNotRight);
    EXPECT_EQ(va.items[3].reason, ReviewReason::ExerciseNotPassed);
    EXPECT_EQ(va.items[3].misses, 2);
    EXPECT_EQ(va.items[3].lastVerdict, report::Verdict::Timeout);
    EXPECT_EQ((*review)[1].moduleId, "03-softmax");
    ASSERT_EQ((*review)[1].items.size(), 1u);
    EXPECT_EQ((*review)[1].items[0].questionId, "b");
    EXPECT_EQ(reviewReasonLabel(ReviewReason::BugNotSpotted), "bug not spotted");
}

TEST_F(CompletionTest, ALaterWrongAnswerPutsAQuestionBackOnTheReviewList)
{
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {0}, true, 1}));
    ASSERT_TRUE(store().recordQuizAnswer({0, {kM, "quiz"}, "q1", {1}, false, 2}));
    auto review = *reviewList(store(), {vectorAddModule()});
    ASSERT_EQ(review.size(), 1u);
    EXPECT_EQ(review[0].items[0].questionId, "q1");
    // Completion keeps it: it was right once.
    EXPECT_EQ(progressOf(vectorAddModule()).questionsRight, 1);
}

TEST_F(CompletionTest, FixedEverythingLeavesAnEmptyReviewList)
{
    ASSERT_TRUE(store().recordSpotPick({0, {kM, "bug"}, {2}, false, 1}));
    run("fail", 0.2, 2);
    completeVectorAdd();
    auto review = reviewList(store(), {vectorAddModule(), softmaxModule()});
    ASSERT_TRUE(review);
    EXPECT_TRUE(review->empty());
}

TEST(CourseOutline, TakesIdsKindsTitlesAndQuestionsFromTheCourseModel)
{
    course::Module module;
    module.id = "02-vector-add";
    module.title = "Vector add";
    course::Quiz quiz;
    quiz.questions.resize(2);
    quiz.questions[0].id = "q-mask";
    quiz.questions[1].id = "q-other";
    module.activities.push_back({"intro", ActivityKind::Lesson, "Intro", {}, course::Lesson{}});
    module.activities.push_back({"quiz", ActivityKind::Quiz, "Masks quiz", {}, quiz});
    module.activities.push_back({"ex", ActivityKind::Exercise, "Vector add", {}, course::Exercise{}});

    const ModuleOutline outline = outlineOf(module);
    EXPECT_EQ(outline.id, "02-vector-add");
    EXPECT_EQ(outline.title, "Vector add");
    ASSERT_EQ(outline.activities.size(), 3u);
    EXPECT_EQ(outline.activities[1].kind, ActivityKind::Quiz);
    EXPECT_EQ(outline.activities[1].title, "Masks quiz");
    EXPECT_EQ(outline.activities[1].questionIds, (std::vector<std::string>{"q-mask", "q-other"}));
    EXPECT_TRUE(outline.activities[2].questionIds.empty());
    EXPECT_EQ(outline.activities[2].kind, ActivityKind::Exercise);
}

} // namespace
} // namespace tkm::progress
