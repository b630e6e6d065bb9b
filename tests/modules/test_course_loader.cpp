// Every rejection path of the content loader: the promised message, at the right file, line and column.
#include "modules/course/detail/json_file.h"
#include "modules/course/detail/markdown.h"
#include "modules/course/loader.h"
#include "tests/modules/test_data.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using tkm::course::Diagnostic;
using tkm::course::Severity;

struct Expected
{
    std::string file; // relative to the fixture folder
    int line;
    int column;
    std::string text; // part of the message
};

struct Case
{
    std::string folder; // under tests/data/content-bad
    std::vector<Expected> expected;
};

std::string listAll(const std::vector<Diagnostic>& diags, const fs::path& base)
{
    std::string out;
    for (const Diagnostic& d : diags) {
        out += "  " + d.format(base) + "\n";
    }
    return out;
}

void expectDiagnostics(const Case& c)
{
    const fs::path folder = tkm::test::dataDir() / "content-bad" / c.folder;
    const std::vector<Diagnostic> diags = tkm::course::validateTree(folder);
    const auto errors =
        std::count_if(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
    EXPECT_EQ(errors, static_cast<long>(c.expected.size())) << c.folder << " gave:\n" << listAll(diags, folder);
    for (const Expected& e : c.expected) {
        const bool found = std::any_of(diags.begin(), diags.end(), [&](const Diagnostic& d) {
            return d.file.lexically_relative(folder).generic_string() == e.file && d.line == e.line &&
                   d.column == e.column && d.message.find(e.text) != std::string::npos && d.severity == Severity::Error;
        });
        EXPECT_TRUE(found) << c.folder << ": expected " << e.file << ":" << e.line << ":" << e.column << ": …" << e.text
                           << "…\ngot:\n"
                           << listAll(diags, folder);
    }
}

class RejectionTest : public ::testing::TestWithParam<Case>
{
};

TEST_P(RejectionTest, ReportsEveryProblemAtItsPlace)
{
    expectDiagnostics(GetParam());
}

TEST_P(RejectionTest, NothingHalfLoadedReachesTheCaller)
{
    const fs::path folder = tkm::test::dataDir() / "content-bad" / GetParam().folder;
    if (fs::exists(folder / "module.json")) {
        const auto result = tkm::course::loadModule(folder);
        EXPECT_FALSE(result.module.has_value());
        EXPECT_TRUE(tkm::course::hasErrors(result.diagnostics));
    } else {
        const auto result = tkm::course::loadCourse(folder);
        EXPECT_FALSE(result.course.has_value());
        EXPECT_TRUE(tkm::course::hasErrors(result.diagnostics));
    }
}

const std::vector<Case> kCases = {
    {"unknown-field",
     {{"module.json", 4, 3, "unknown field \"titel\" in module.json"},
      {"q.json", 4, 56, "unknown field \"hint\" in choice"}}},
    {"missing-answer", {{"activities/quiz.json", 6, 17, "question \"q1\" has no correct choice"}}},
    {"bug-line", {{"activities/bug.json", 6, 20, "bug line 9 is outside the listing, which has lines 1 to 3"}}},
    {"duplicate-ids",
     {{"module.json", 10, 12, "duplicate activity id \"intro\": activity 1 has it already"},
      {"activities/quiz.json", 7, 12, "duplicate question id \"same\": question 1 has it already"},
      {"activities/match.json", 5, 48, "duplicate target id \"t\""},
      {"activities/match.json", 7, 20, "duplicate item id \"i\""}}},
    {"drag-target",
     {{"activities/match.json", 7, 52, "names the target \"nowhere\", which is not among this activity's targets"},
      {"activities/match.json", 8, 5, "drag-match item is missing the required field \"target\""},
      {"activities/too-many.json", 15, 5, "a drag-match has at most 9 targets"}}},
    {"missing-exercise-file",
     {{"exercises/vector-add/exercise.json", 7, 14, "starter.cu"},
      {"module.json", 10, 50, "folder \"exercises/absent\" does not exist in missing-exercise-file/"}}},
    {"bad-front-matter",
     {{"lessons/no-title.md", 1, 1, "the front matter has no \"title\""},
      {"lessons/unknown-key.md", 3, 1, "unknown front matter key \"author\""},
      {"lessons/bad-minutes.md", 3, 10, "\"minutes\" must be a whole number"},
      {"lessons/no-front.md", 1, 1, "a lesson page must start with a front matter block"},
      {"lessons/unclosed.md", 3, 1, "front matter lines are \"key: value\""},
      {"lessons/unclosed.md", 1, 1, "is never closed"}}},
    {"unknown-callout", {{"lessons/page.md", 9, 5, "unknown callout kind \"TIP\""}}},
    {"bad-json", {{"activities/quiz.json", 4, 13, "JSON syntax error"}}},
    {"path-escape",
     {{"activities/bug.json", 5, 16, "leaves the module folder"}, {"module.json", 10, 49, "leaves the module folder"}}},
    {"bad-step",
     {{"activities/traffic.json", 7, 52, "\"to\" of a transfer must be \"HBM\" or \"SRAM\", not \"L1\""},
      {"activities/traffic.json", 7, 15, "the traffic state is missing the required field \"read_bytes\""},
      {"activities/traffic.json", 8, 44, "\"lane\" of the traffic state must be one of fused, unfused"},
      {"activities/mystery.json", 4, 14, "unknown diagram \"sankey\""}}},
    {"quiz-rules",
     {{"activities/quiz.json", 6, 17, "has 2 correct choices but \"multiple\" is false"},
      {"activities/quiz.json", 10, 18, "choice is missing the required field \"explanation\""},
      {"activities/quiz.json", 11, 6, "a \"followup\" needs its \"followup_answer\""}}},
    {"walkthrough-notes",
     {{"activities/walk.json", 6, 27, "note for line 3, but the listing of pane \"CUDA\" has 2 lines"},
      {"activities/walk.json", 6, 48, "note keys are 1-based line numbers"}}},
    {"course",
     {{"course.json", 1, 54, "file \"missing-summary.md\" does not exist in course/"},
      {"02-two/module.json", 1, 21, "module id \"one\" is already used by 01-one"},
      {"02-two/module.json", 1, 69, "order 1 is already taken by 01-one"},
      {"02-two/module.json", 2, 20, "prerequisite \"ghost\" is not a module of this course"}}},
};

INSTANTIATE_TEST_SUITE_P(ContentBad, RejectionTest, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<Case>& info) {
                             std::string name = info.param.folder;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(Diagnostic, FormatsFileLineColumn)
{
    const Diagnostic d{"content/01-x/module.json", 4, 3, Severity::Error, "unknown field \"titel\""};
    EXPECT_EQ(d.format(), "content/01-x/module.json:4:3: error: unknown field \"titel\"");
    EXPECT_EQ(d.format("content"), "01-x/module.json:4:3: error: unknown field \"titel\"");
    const Diagnostic whole{"a.md", 0, 0, Severity::Warning, "w"};
    EXPECT_EQ(whole.format(), "a.md: warning: w");
}

TEST(Validate, MissingFolderIsADiagnosticNotAThrow)
{
    const auto diags = tkm::course::validateTree(tkm::test::dataDir() / "content-bad" / "no-such-folder");
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_NE(diags[0].message.find("does not exist"), std::string::npos);
}

TEST(JsonPositions, ColumnsCountCharactersAndKeysAreEscaped)
{
    // "é" is two bytes but one column; a key with '/' is escaped as ~1 in the pointer.
    const std::string text = "{\"é\": 1,\n \"a/b\": [true, {\"c\": null}]}";
    const tkm::course::detail::JsonPositionIndex index(text);
    EXPECT_EQ(index.key("/é").line, 1);
    EXPECT_EQ(index.key("/é").column, 2);
    EXPECT_EQ(index.value("/é").column, 7);
    EXPECT_EQ(index.key("/a~1b").line, 2);
    EXPECT_EQ(index.key("/a~1b").column, 2);
    EXPECT_EQ(index.value("/a~1b/1/c").column, 22);
    // A missing pointer falls back to its nearest ancestor.
    EXPECT_EQ(index.value("/a~1b/1/missing").column, 16);
    EXPECT_TRUE(index.duplicateKeys().empty());
}

TEST(JsonPositions, DuplicateKeysAreFound)
{
    const std::string text = "{\"x\": 1,\n \"x\": 2}";
    const tkm::course::detail::JsonPositionIndex index(text);
    ASSERT_EQ(index.duplicateKeys().size(), 1u);
    EXPECT_EQ(index.duplicateKeys()[0].first, "/x");
    EXPECT_EQ(index.duplicateKeys()[0].second.line, 2);
    EXPECT_EQ(index.duplicateKeys()[0].second.column, 2);
}

TEST(Markdown, CalloutsOutsideFencesAreParsedWithTheirLines)
{
    std::vector<Diagnostic> diags;
    const std::string page = "---\ntitle: 'Quoted title'\nminutes: 3\n---\n"
                             "> [!NOTE] Heads up\n> first\n>\n> second\n\n"
                             "~~~\n> [!PROBE] not here\n~~~\n> [!RULE]\n> body only\n";
    const auto lesson = tkm::course::detail::parseLessonText(page, "p.md", diags);
    ASSERT_TRUE(lesson.has_value()) << listAll(diags, {});
    EXPECT_TRUE(diags.empty());
    EXPECT_EQ(lesson->title, "Quoted title");
    EXPECT_EQ(lesson->minutes, 3);
    EXPECT_EQ(lesson->bodyFirstLine, 5);
    ASSERT_EQ(lesson->callouts.size(), 2u);
    EXPECT_EQ(lesson->callouts[0].kind, tkm::course::CalloutKind::Note);
    EXPECT_EQ(lesson->callouts[0].title, "Heads up");
    EXPECT_EQ(lesson->callouts[0].body, "first\n\nsecond");
    EXPECT_EQ(lesson->callouts[0].line, 5);
    EXPECT_EQ(lesson->callouts[1].kind, tkm::course::CalloutKind::Rule);
    EXPECT_EQ(lesson->callouts[1].body, "body only");
    EXPECT_EQ(lesson->callouts[1].line, 13);
}

TEST(Markdown, LowerCaseAndEmptyCalloutsAreRejected)
{
    std::vector<Diagnostic> diags;
    const std::string page = "---\ntitle: T\n---\n> [!probe] x\n\n> [!GOTCHA]\n";
    EXPECT_FALSE(tkm::course::detail::parseLessonText(page, "p.md", diags).has_value());
    ASSERT_EQ(diags.size(), 2u) << listAll(diags, {});
    EXPECT_EQ(diags[0].line, 4);
    EXPECT_EQ(diags[0].column, 5);
    EXPECT_NE(diags[0].message.find("unknown callout kind \"probe\""), std::string::npos);
    EXPECT_EQ(diags[1].line, 6);
    EXPECT_NE(diags[1].message.find("GOTCHA callout is empty"), std::string::npos);
}

} // namespace
