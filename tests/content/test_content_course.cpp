// The built-in course (content/) loads and validates with zero diagnostics, and meets the course's own bar:
// eight modules, ≥ 6 quiz questions each, answers and explanations everywhere, an exercise per module.
#include "modules/course/loader.h"
#include "tests/content/content_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace {

namespace fs = std::filesystem;
using namespace tkm::course;

class BuiltInCourse : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_root = tkm::test::contentRoot();
        s_result = new CourseLoadResult(loadCourse(s_root));
    }
    static void TearDownTestSuite() { delete s_result; }
    static std::string allDiagnostics()
    {
        std::string out;
        for (const Diagnostic& d : s_result->diagnostics) {
            out += "  " + d.format(s_root) + "\n";
        }
        return out;
    }
    static inline fs::path s_root;
    static inline CourseLoadResult* s_result = nullptr;
};

TEST_F(BuiltInCourse, LoadsWithZeroDiagnostics)
{
    EXPECT_TRUE(s_result->diagnostics.empty())
        << s_result->diagnostics.size() << " diagnostic(s) in " << s_root.string() << ":\n"
        << allDiagnostics();
    ASSERT_TRUE(s_result->course.has_value()) << "the course did not load";
}

TEST_F(BuiltInCourse, EightModulesInOrderWithTheirPrerequisites)
{
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    const Course& course = *s_result->course;
    EXPECT_FALSE(course.title.empty());
    EXPECT_FALSE(course.throughLine.empty());
    EXPECT_FALSE(course.summary.empty());
    ASSERT_EQ(course.modules.size(), 8u);
    for (std::size_t i = 0; i < course.modules.size(); ++i) {
        EXPECT_EQ(course.modules[i].order, static_cast<int>(i) + 1) << course.modules[i].id;
    }
}

TEST_F(BuiltInCourse, EveryModuleHasSixQuizQuestionsWithAnswersAndExplanations)
{
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    for (const Module& module : s_result->course->modules) {
        EXPECT_GE(quizQuestionCount(module), 6) << module.id << " has too few quiz questions";
        for (const Activity& activity : module.activities) {
            const Quiz* quiz = activity.as<Quiz>();
            if (!quiz) {
                continue;
            }
            for (const Question& q : quiz->questions) {
                const std::string where = module.id + "/" + activity.id + "/" + q.id;
                int correct = 0;
                for (const Choice& c : q.choices) {
                    correct += c.correct ? 1 : 0;
                    EXPECT_FALSE(c.explanation.empty()) << where << ": a choice without explanation";
                }
                EXPECT_GE(correct, 1) << where;
                if (!q.multiple) {
                    EXPECT_EQ(correct, 1) << where;
                }
                EXPECT_EQ(q.followup.empty(), q.followupAnswer.empty()) << where;
            }
        }
    }
}

TEST_F(BuiltInCourse, EveryModuleHasAnExerciseLessonsAndSelfChecks)
{
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    for (const Module& module : s_result->course->modules) {
        std::set<ActivityKind> kinds;
        for (const Activity& a : module.activities) {
            kinds.insert(a.kind);
        }
        EXPECT_TRUE(kinds.count(ActivityKind::Exercise)) << module.id << " has no coding exercise";
        EXPECT_TRUE(kinds.count(ActivityKind::Lesson)) << module.id << " has no lesson page";
        EXPECT_TRUE(kinds.count(ActivityKind::Quiz)) << module.id << " has no quiz";
    }
}

TEST_F(BuiltInCourse, SpotTheBugLinesLieInTheirListings)
{
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    for (const Module& module : s_result->course->modules) {
        for (const Activity& activity : module.activities) {
            if (const SpotTheBug* bug = activity.as<SpotTheBug>()) {
                const int lines = static_cast<int>(std::count(bug->code.begin(), bug->code.end(), '\n')) +
                                  (bug->code.empty() || bug->code.back() == '\n' ? 0 : 1);
                ASSERT_FALSE(bug->bugLines.empty()) << module.id << "/" << activity.id;
                for (const int line : bug->bugLines) {
                    EXPECT_TRUE(line >= 1 && line <= lines) << module.id << "/" << activity.id << ": line " << line;
                }
            }
        }
    }
}

TEST_F(BuiltInCourse, EveryExerciseFolderIsAnActivity)
{
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    std::set<std::string> used;
    for (const Module& module : s_result->course->modules) {
        for (const Activity& a : module.activities) {
            if (const Exercise* ex = a.as<Exercise>()) {
                used.insert(fs::weakly_canonical(ex->folder).string());
            }
        }
    }
    for (const fs::path& folder : tkm::test::exerciseFolders(s_root)) {
        EXPECT_TRUE(used.count(fs::weakly_canonical(folder).string()))
            << tkm::test::shortName(folder, s_root) << " is not listed as an exercise activity in its module.json";
    }
}

TEST_F(BuiltInCourse, EveryTritonTrackLoadsItsOwnPromptAndHints)
{
    // What the exercise view shows in the Triton track (test_content_triton_text checks the words themselves).
    ASSERT_TRUE(s_result->course.has_value()) << allDiagnostics();
    int tracks = 0;
    for (const Module& module : s_result->course->modules) {
        for (const Activity& activity : module.activities) {
            const Exercise* ex = activity.as<Exercise>();
            if (!ex || !ex->spec->triton) {
                continue;
            }
            ++tracks;
            EXPECT_FALSE(ex->tritonPrompt.empty()) << module.id << "/" << activity.id << ": no Triton prompt";
            EXPECT_GE(ex->tritonHints.size(), 2U) << module.id << "/" << activity.id;
            EXPECT_NE(ex->tritonPrompt, ex->prompt) << module.id << "/" << activity.id;
        }
    }
    EXPECT_EQ(tracks, 16);
}

} // namespace
