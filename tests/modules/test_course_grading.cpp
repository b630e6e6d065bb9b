// Grading of quiz questions, spot-the-bug clicks and drag-match placements.
#include "modules/course/grading.h"

#include <gtest/gtest.h>

namespace {

using namespace tkm::course;

Question singleAnswer()
{
    Question q;
    q.id = "program";
    q.multiple = false;
    q.choices = {{"a CUDA thread", false, "A program owns a tile."},
                 {"a CUDA thread block", true, "One program per block."},
                 {"a warp", false, "Several warps run one program."}};
    return q;
}

Question severalAnswers()
{
    Question q = singleAnswer();
    q.multiple = true;
    q.choices = {
        {"coalescing", true, "automatic"}, {"shared memory", true, "automatic"}, {"tile shape", false, "yours"}};
    return q;
}

TEST(GradeQuiz, SingleAnswerRightAndWrong)
{
    const Question q = singleAnswer();
    const QuizGrade right = gradeQuiz(q, {1});
    EXPECT_TRUE(right.correct);
    ASSERT_EQ(right.choices.size(), 3u);
    EXPECT_TRUE(right.choices[1].selected);
    EXPECT_EQ(right.choices[0].explanation, "A program owns a tile.");
    EXPECT_TRUE(right.choices[0].decidedRight());

    const QuizGrade wrong = gradeQuiz(q, {0});
    EXPECT_FALSE(wrong.correct);
    EXPECT_EQ(wrong.selectedWrong, 1);
    EXPECT_EQ(wrong.missedCorrect, 1);
    EXPECT_FALSE(wrong.choices[0].decidedRight());
}

TEST(GradeQuiz, SingleAnswerWithTwoTicksIsWrong)
{
    const QuizGrade g = gradeQuiz(singleAnswer(), {1, 2});
    EXPECT_FALSE(g.correct);
}

TEST(GradeQuiz, NothingSelectedIsWrong)
{
    const QuizGrade g = gradeQuiz(singleAnswer(), {});
    EXPECT_FALSE(g.correct);
    EXPECT_EQ(g.missedCorrect, 1);
}

TEST(GradeQuiz, SeveralAnswersNeedAllAndOnlyTheCorrectOnes)
{
    const Question q = severalAnswers();
    EXPECT_TRUE(gradeQuiz(q, {0, 1}).correct);
    EXPECT_TRUE(gradeQuiz(q, {1, 0}).correct);
    const QuizGrade partial = gradeQuiz(q, {0});
    EXPECT_FALSE(partial.correct);
    EXPECT_EQ(partial.missedCorrect, 1);
    const QuizGrade extra = gradeQuiz(q, {0, 1, 2});
    EXPECT_FALSE(extra.correct);
    EXPECT_EQ(extra.selectedWrong, 1);
}

TEST(GradeQuiz, InvalidAndRepeatedIndicesAreIgnoredAndCounted)
{
    const QuizGrade g = gradeQuiz(singleAnswer(), {1, 1, 7, -1});
    EXPECT_TRUE(g.correct);
    EXPECT_EQ(g.ignoredIndices, 3);
}

TEST(GradeSpotTheBug, ClickOnAnyFaultyLine)
{
    SpotTheBug item;
    item.code = "a\nb\nc\nd\n";
    item.bugLines = {2, 4};
    const SpotGrade hit = gradeSpotTheBug(item, 4);
    EXPECT_TRUE(hit.correct);
    EXPECT_TRUE(hit.inListing);
    EXPECT_EQ(hit.bugLines, (std::vector<int>{2, 4}));
    EXPECT_NE(hit.message.find("line 4"), std::string::npos);

    const SpotGrade miss = gradeSpotTheBug(item, 3);
    EXPECT_FALSE(miss.correct);
    EXPECT_TRUE(miss.inListing);
    EXPECT_NE(miss.message.find("Not line 3"), std::string::npos);

    const SpotGrade outside = gradeSpotTheBug(item, 5);
    EXPECT_FALSE(outside.correct);
    EXPECT_FALSE(outside.inListing);
}

TEST(GradeDragMatch, PerItemFeedback)
{
    DragMatch m;
    m.targets = {{"block", "thread block"}, {"if", "an if"}};
    m.items = {{"program", "program", "block", "one per block"},
               {"mask", "mask", "if", "a mask is an if"},
               {"pid", "program_id", "block", "blockIdx.x"}};
    const DragGrade all = gradeDragMatch(m, {{"program", "block"}, {"mask", "if"}, {"pid", "block"}});
    EXPECT_TRUE(all.allCorrect);
    EXPECT_EQ(all.correctCount, 3);

    const DragGrade some = gradeDragMatch(m, {{"program", "if"}, {"mask", "if"}, {"ghost", "block"}});
    EXPECT_FALSE(some.allCorrect);
    EXPECT_EQ(some.correctCount, 1);
    EXPECT_EQ(some.unplaced, 1);
    EXPECT_EQ(some.unknownIds, 1);
    ASSERT_EQ(some.items.size(), 3u);
    EXPECT_FALSE(some.items[0].correct);
    EXPECT_EQ(some.items[0].placedTarget, "if");
    EXPECT_EQ(some.items[0].correctTarget, "block");
    EXPECT_EQ(some.items[0].explanation, "one per block");
    EXPECT_TRUE(some.items[1].correct);
    EXPECT_TRUE(some.items[2].placedTarget.empty());
    EXPECT_FALSE(some.items[2].correct);

    const DragGrade badTarget = gradeDragMatch(m, {{"program", "nowhere"}});
    EXPECT_EQ(badTarget.unknownIds, 1);
    EXPECT_TRUE(badTarget.items[0].placedTarget.empty());
}

} // namespace
