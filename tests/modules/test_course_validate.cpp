// course::validate on the model: each rule broken once in the good fixture module, in memory (no file written),
// gives its diagnostic on the right activity and field (JSON pointer of the content file).
#include "modules/course/loader.h"
#include "modules/course/validate.h"
#include "tests/modules/test_data.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace {

using tkm::course::FieldDiagnostic;
using tkm::course::Module;
using tkm::course::Severity;
namespace course = tkm::course;

// Activities of tests/data/content-good/01-alpha, in module.json order.
enum Index { kLesson = 0, kWalk = 1, kQuiz = 2, kBug = 3, kMatch = 4, kSteps = 5, kExercise = 6, kModule = -1 };

struct Rule
{
    std::string name;
    std::function<void(Module&)> breakIt;
    int activity;        // where the diagnostic belongs (kModule: module.json)
    std::string pointer; // its field
    std::string text;    // part of the message
    bool alone = true;   // the only error the change causes
};

const Module& goodModule()
{
    static const Module module = [] {
        course::ModuleLoadResult loaded = course::loadModule(tkm::test::dataDir() / "content-good" / "01-alpha");
        EXPECT_TRUE(loaded.module.has_value());
        return loaded.module.value_or(Module{});
    }();
    return module;
}

template <class T> T& payload(Module& m, int index)
{
    return std::get<T>(m.activities[static_cast<std::size_t>(index)].payload);
}

course::Quiz& quiz(Module& m)
{
    return payload<course::Quiz>(m, kQuiz);
}
course::Question& question(Module& m)
{
    return quiz(m).questions[0];
}
course::DragMatch& match(Module& m)
{
    return payload<course::DragMatch>(m, kMatch);
}
course::WalkthroughPane& pane(Module& m)
{
    return payload<course::Walkthrough>(m, kWalk).panes[0];
}
course::SpotTheBug& bug(Module& m)
{
    return payload<course::SpotTheBug>(m, kBug);
}
course::StepThrough& steps(Module& m)
{
    return payload<course::StepThrough>(m, kSteps);
}

std::string listAll(const std::vector<FieldDiagnostic>& found)
{
    std::string out;
    for (const FieldDiagnostic& d : found) {
        out += "  activity " + std::to_string(d.activity) + " " + d.pointer + ": " + d.message + "\n";
    }
    return out;
}

const std::vector<Rule> kRules = {
    // module.json
    {"module_id", [](Module& m) { m.id = "Alpha"; }, kModule, "/id", "may only use lower-case letters"},
    {"module_title", [](Module& m) { m.title = " "; }, kModule, "/title", "\"title\" in module.json must not be empty"},
    {"module_summary", [](Module& m) { m.summary.clear(); }, kModule, "/summary", "must not be empty"},
    {"module_order", [](Module& m) { m.order = 0; }, kModule, "/order", "it must lie between 1 and 1000"},
    {"module_minutes", [](Module& m) { m.estimatedMinutes = 0; }, kModule, "/estimated_minutes", "between 1"},
    {"prerequisite_form", [](Module& m) { m.prerequisites = {"Not An Id"}; }, kModule, "/prerequisites/0",
     "a prerequisite is a module id"},
    {"prerequisite_self", [](Module& m) { m.prerequisites = {"alpha"}; }, kModule, "/prerequisites/0",
     "cannot be its own prerequisite"},
    {"prerequisite_twice", [](Module& m) { m.prerequisites = {"beta", "beta"}; }, kModule, "/prerequisites/1",
     "listed twice"},
    {"activity_id_form", [](Module& m) { m.activities[1].id = "Walk Through"; }, kModule, "/activities/1/id",
     "may only use lower-case letters"},
    {"activity_id_twice", [](Module& m) { m.activities[2].id = "intro"; }, kModule, "/activities/2/id",
     "duplicate activity id \"intro\": activity 1 has it already"},
    {"no_activities", [](Module& m) { m.activities.clear(); }, kModule, "/activities", "must not be empty"},
    // lesson
    {"lesson_title", [](Module& m) { payload<course::Lesson>(m, kLesson).title.clear(); }, kLesson, "/title",
     "give the page a title"},
    {"lesson_minutes", [](Module& m) { payload<course::Lesson>(m, kLesson).minutes = 700; }, kLesson, "/minutes",
     "between 1 and 600"},
    {"lesson_callout", [](Module& m) { payload<course::Lesson>(m, kLesson).markdown = "Text.\n\n> [!TIP] A tip\n"; },
     kLesson, "/markdown/3", "unknown callout kind \"TIP\""},
    // walkthrough
    {"activity_title", [](Module& m) { m.activities[kWalk].title.clear(); }, kWalk, "/title",
     "\"title\" in walkthrough file must not be empty"},
    {"no_panes", [](Module& m) { payload<course::Walkthrough>(m, kWalk).panes.clear(); }, kWalk, "/panes",
     "must not be empty"},
    {"pane_label", [](Module& m) { pane(m).label.clear(); }, kWalk, "/panes/0/label", "must not be empty"},
    {"pane_language", [](Module& m) { pane(m).language = "rust"; }, kWalk, "/panes/0/language",
     "unknown language \"rust\""},
    {"note_past_listing", [](Module& m) { pane(m).notes[999] = "Far away."; }, kWalk, "/panes/0/notes/999",
     "note for line 999, but the listing of pane"},
    {"note_line_zero", [](Module& m) { pane(m).notes[0] = "Nowhere."; }, kWalk, "/panes/0/notes/0",
     "note keys are 1-based line numbers"},
    {"note_empty", [](Module& m) { pane(m).notes[1] = ""; }, kWalk, "/panes/0/notes/1", "must be a non-empty string"},
    // quiz
    {"no_questions", [](Module& m) { quiz(m).questions.clear(); }, kQuiz, "/questions", "must not be empty"},
    {"question_id_form", [](Module& m) { question(m).id = "Q 1"; }, kQuiz, "/questions/0/id",
     "may only use lower-case letters"},
    {"question_id_twice", [](Module& m) { quiz(m).questions[1].id = question(m).id; }, kQuiz, "/questions/1/id",
     "question 1 has it already"},
    {"question_prompt", [](Module& m) { question(m).prompt = "\n"; }, kQuiz, "/questions/0/prompt",
     "\"prompt\" in quiz question must not be empty"},
    {"one_choice",
     [](Module& m) {
         question(m).choices.resize(1);
         question(m).choices[0].correct = true;
     },
     kQuiz, "/questions/0/choices", "at least two choices"},
    {"no_correct_choice",
     [](Module& m) {
         for (auto& c : question(m).choices)
             c.correct = false;
     },
     kQuiz, "/questions/0/choices", "has no correct choice"},
    {"two_correct_single",
     [](Module& m) {
         question(m).multiple = false;
         for (auto& c : question(m).choices)
             c.correct = true;
     },
     kQuiz, "/questions/0/choices", "but \"multiple\" is false"},
    {"choice_text", [](Module& m) { question(m).choices[1].text.clear(); }, kQuiz, "/questions/0/choices/1/text",
     "\"text\" in choice must not be empty"},
    {"choice_explanation", [](Module& m) { question(m).choices[1].explanation.clear(); }, kQuiz,
     "/questions/0/choices/1/explanation", "\"explanation\" in choice must not be empty"},
    {"followup_alone",
     [](Module& m) {
         question(m).followup = "And then?";
         question(m).followupAnswer.clear();
     },
     kQuiz, "/questions/0/followup", "needs its \"followup_answer\""},
    {"answer_alone",
     [](Module& m) {
         question(m).followup.clear();
         question(m).followupAnswer = "This.";
     },
     kQuiz, "/questions/0/followup_answer", "without a \"followup\""},
    {"language_without_code",
     [](Module& m) {
         question(m).code.clear();
         question(m).language = "python";
     },
     kQuiz, "/questions/0/language", "belongs to a \"code\" listing"},
    // spot the bug
    {"bug_language", [](Module& m) { bug(m).language = "fortran"; }, kBug, "/language", "unknown language"},
    {"bug_code", [](Module& m) { bug(m).code.clear(); }, kBug, "/code", "must not be empty"},
    {"no_bug_lines", [](Module& m) { bug(m).bugLines.clear(); }, kBug, "/bug_lines", "must not be empty"},
    {"bug_line_outside", [](Module& m) { bug(m).bugLines = {999}; }, kBug, "/bug_lines/0",
     "bug line 999 is outside the listing"},
    {"bug_line_twice", [](Module& m) { bug(m).bugLines = {1, 1}; }, kBug, "/bug_lines/1", "listed twice"},
    {"bug_why", [](Module& m) { bug(m).why.clear(); }, kBug, "/why", "must not be empty"},
    {"bug_fix", [](Module& m) { bug(m).fix.clear(); }, kBug, "/fix", "must not be empty"},
    // drag-match
    {"match_prompt", [](Module& m) { match(m).prompt.clear(); }, kMatch, "/prompt", "must not be empty"},
    {"no_targets", [](Module& m) { match(m).targets.clear(); }, kMatch, "/targets", "must not be empty", false},
    {"target_id_form", [](Module& m) { match(m).targets[0].id = "T"; }, kMatch, "/targets/0/id",
     "may only use lower-case letters", false},
    {"target_id_twice", [](Module& m) { match(m).targets[1].id = match(m).targets[0].id; }, kMatch,
     "/targets/1/id", "duplicate target id", false},
    {"target_text", [](Module& m) { match(m).targets[0].text.clear(); }, kMatch, "/targets/0/text",
     "must not be empty"},
    {"ten_targets",
     [](Module& m) {
         for (int i = 0; i < 8; ++i)
             match(m).targets.push_back({"extra-" + std::to_string(i), "Extra"});
     },
     kMatch, "/targets/9", "a drag-match has at most 9 targets"},
    {"no_items", [](Module& m) { match(m).items.clear(); }, kMatch, "/items", "must not be empty"},
    {"item_id_form", [](Module& m) { match(m).items[0].id = "I!"; }, kMatch, "/items/0/id",
     "may only use lower-case letters"},
    {"item_id_twice", [](Module& m) { match(m).items[1].id = match(m).items[0].id; }, kMatch, "/items/1/id",
     "duplicate item id"},
    {"item_target", [](Module& m) { match(m).items[0].target = "nowhere"; }, kMatch, "/items/0/target",
     "names the target \"nowhere\", which is not among this activity's targets"},
    {"item_text", [](Module& m) { match(m).items[2].text.clear(); }, kMatch, "/items/2/text", "must not be empty"},
    {"item_explanation", [](Module& m) { match(m).items[0].explanation.clear(); }, kMatch, "/items/0/explanation",
     "must not be empty"},
    // step-through
    {"no_steps", [](Module& m) { steps(m).steps.clear(); }, kSteps, "/steps", "must not be empty"},
    {"step_title", [](Module& m) { steps(m).steps[1].title.clear(); }, kSteps, "/steps/1/title",
     "\"title\" in step must not be empty"},
    {"step_text", [](Module& m) { steps(m).steps[0].text.clear(); }, kSteps, "/steps/0/text", "must not be empty"},
    {"state_field_missing", [](Module& m) { steps(m).steps[0].state.erase("read_bytes"); }, kSteps,
     "/steps/0/state", "the traffic state is missing the required field \"read_bytes\""},
    {"state_bad_value", [](Module& m) { steps(m).steps[0].state["lane"] = "sideways"; }, kSteps,
     "/steps/0/state/lane", "\"lane\" of the traffic state must be one of fused, unfused"},
};

class ValidateRule : public ::testing::TestWithParam<Rule>
{
};

TEST(Validate, TheGoodModuleHasNoFindings)
{
    const Module& module = goodModule();
    ASSERT_EQ(module.activities.size(), 7u);
    ASSERT_EQ(module.activities[kExercise].kind, course::ActivityKind::Exercise);
    const std::vector<FieldDiagnostic> found = course::validate(module);
    EXPECT_TRUE(found.empty()) << listAll(found);
}

TEST_P(ValidateRule, LandsOnItsField)
{
    const Rule& rule = GetParam();
    Module module = goodModule();
    rule.breakIt(module);
    const std::vector<FieldDiagnostic> found = course::validate(module);
    const auto hit = std::find_if(found.begin(), found.end(), [&](const FieldDiagnostic& d) {
        return d.activity == rule.activity && d.pointer == rule.pointer && d.severity == Severity::Error &&
               d.message.find(rule.text) != std::string::npos;
    });
    EXPECT_NE(hit, found.end()) << "expected activity " << rule.activity << " " << rule.pointer << ": …" << rule.text
                                << "…\ngot:\n"
                                << listAll(found);
    if (rule.alone) {
        EXPECT_EQ(found.size(), 1u) << listAll(found);
    }
}

INSTANTIATE_TEST_SUITE_P(EachRule, ValidateRule, ::testing::ValuesIn(kRules),
                         [](const ::testing::TestParamInfo<Rule>& info) { return info.param.name; });

TEST(Validate, KeyAndColumnWhereTheFileFormatNeedsThem)
{
    Module module = goodModule();
    pane(module).notes[999] = "Far away.";
    payload<course::Lesson>(module, kLesson).markdown = "Text.\n\n> [!TIP] A tip\n";
    const std::vector<FieldDiagnostic> found = course::validate(module);
    ASSERT_EQ(found.size(), 2u) << listAll(found);
    EXPECT_TRUE(found[0].atKey || found[1].atKey); // the note's line number is the key of its entry
    const FieldDiagnostic& callout = found[0].activity == kLesson ? found[0] : found[1];
    EXPECT_EQ(callout.column, 5); // the "TIP" after "> [!"
}

TEST(Validate, LessonCalloutsCountPageLines)
{
    const std::vector<course::Callout> callouts =
        course::lessonCallouts("Intro.\n\n> [!PROBE] Why tiles?\n> Because.\n\n```\n> [!NOTE] in code\n```\n", 5);
    ASSERT_EQ(callouts.size(), 1u);
    EXPECT_EQ(callouts[0].kind, course::CalloutKind::Probe);
    EXPECT_EQ(callouts[0].title, "Why tiles?");
    EXPECT_EQ(callouts[0].body, "Because.");
    EXPECT_EQ(callouts[0].line, 7);
}

} // namespace
