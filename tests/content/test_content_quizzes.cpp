// The built-in quizzes do not give their answers away by form: across the single-answer questions the right choice
// is the longest (ties included) in at most 40 % of them, and the shortest in at most 40 % (chance is 25-33 % with
// three or four choices); every choice carries an explanation. Position is no clue either: the app shuffles the
// choices per attempt (app/activities/choiceorder.h).
#include "modules/course/loader.h"
#include "tests/content/content_files.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <string>

namespace {

using namespace tkm::course;

/// Length in code points (UTF-8 continuation bytes do not count), so "≤" weighs as much as "<".
std::size_t codePoints(const std::string& text)
{
    return static_cast<std::size_t>(
        std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

TEST(BuiltInQuizzes, RightChoiceIsNotGivenAwayByLengthAndEveryChoiceIsExplained)
{
    const CourseLoadResult loaded = loadCourse(tkm::test::contentRoot());
    ASSERT_TRUE(loaded.course.has_value()) << "the course did not load";
    int single = 0, longest = 0, shortest = 0;
    std::string longestIds;
    for (const Module& module : loaded.course->modules) {
        for (const Activity& activity : module.activities) {
            const auto* quiz = activity.as<Quiz>();
            if (!quiz)
                continue;
            for (const Question& q : quiz->questions) {
                const std::string where = module.id + "/" + activity.id + "/" + q.id;
                ASSERT_GE(q.choices.size(), 2u) << where;
                for (const Choice& c : q.choices)
                    EXPECT_FALSE(c.explanation.empty()) << where << ": choice \"" << c.text << "\" has no explanation";
                if (q.multiple)
                    continue;
                const auto right =
                    std::find_if(q.choices.begin(), q.choices.end(), [](const Choice& c) { return c.correct; });
                ASSERT_NE(right, q.choices.end()) << where;
                std::size_t maxLen = 0, minLen = SIZE_MAX;
                for (const Choice& c : q.choices) {
                    maxLen = std::max(maxLen, codePoints(c.text));
                    minLen = std::min(minLen, codePoints(c.text));
                }
                ++single;
                if (codePoints(right->text) == maxLen) {
                    ++longest;
                    longestIds += " " + where;
                }
                shortest += codePoints(right->text) == minLen;
            }
        }
    }
    ASSERT_GT(single, 0);
    EXPECT_LE(longest * 10, single * 4) << "the right choice is the longest in " << longest << " of " << single
                                        << " single-answer questions:" << longestIds;
    EXPECT_LE(shortest * 10, single * 4) << "the right choice is the shortest in " << shortest << " of " << single;
    std::cout << "single-answer questions: " << single << ", right choice longest in " << longest << ", shortest in "
              << shortest << "\n";
}

} // namespace
