// The good fixture (tests/data/content-good) loads completely, with every activity kind's payload as written.
#include "modules/course/loader.h"
#include "tests/modules/test_data.h"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using namespace tkm::course;

class GoodCourse : public ::testing::Test
{
protected:
    static void SetUpTestSuite()
    {
        s_root = tkm::test::dataDir() / "content-good";
        s_result = new CourseLoadResult(loadCourse(s_root));
    }
    static void TearDownTestSuite() { delete s_result; }

    static std::string diagnostics()
    {
        std::string out;
        for (const Diagnostic& d : s_result->diagnostics) {
            out += d.format(s_root) + "\n";
        }
        return out;
    }
    static const Course& course() { return *s_result->course; }
    static const Activity& activity(std::string_view module, std::string_view id)
    {
        const Module* m = course().findModule(module);
        EXPECT_NE(m, nullptr);
        const Activity* a = m->findActivity(id);
        EXPECT_NE(a, nullptr);
        return *a;
    }

    static inline fs::path s_root;
    static inline CourseLoadResult* s_result = nullptr;
};

TEST_F(GoodCourse, LoadsWithoutDiagnostics)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    EXPECT_TRUE(s_result->diagnostics.empty()) << diagnostics();
    EXPECT_TRUE(validateTree(s_root).empty());
    EXPECT_TRUE(validateTree(s_root / "01-alpha").empty());
}

TEST_F(GoodCourse, CourseAndModulesInOrder)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    EXPECT_EQ(course().title, "Fixture course");
    EXPECT_EQ(course().throughLine, "Tiles, masks and memory movement.");
    EXPECT_EQ(course().summaryTitle, "You finished the fixture course");
    EXPECT_NE(course().summary.find("[!RULE] Remember"), std::string::npos);
    ASSERT_EQ(course().modules.size(), 2u);
    const Module& alpha = course().modules[0];
    EXPECT_EQ(alpha.id, "alpha");
    EXPECT_EQ(alpha.order, 1);
    EXPECT_EQ(alpha.estimatedMinutes, 30);
    EXPECT_TRUE(alpha.prerequisites.empty());
    ASSERT_EQ(alpha.activities.size(), 7u);
    const std::vector<ActivityKind> kinds = {
        ActivityKind::Lesson,    ActivityKind::Walkthrough, ActivityKind::Quiz,    ActivityKind::SpotTheBug,
        ActivityKind::DragMatch, ActivityKind::StepThrough, ActivityKind::Exercise};
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        EXPECT_EQ(alpha.activities[i].kind, kinds[i]) << i;
        EXPECT_EQ(alpha.activities[i].payload.index(), i) << "payload alternative matches the kind";
    }
    const Module& beta = course().modules[1];
    EXPECT_EQ(beta.prerequisites, std::vector<std::string>{"alpha"});
    EXPECT_EQ(quizQuestionCount(alpha), 2);
    EXPECT_EQ(quizQuestionCount(beta), 0);
}

TEST_F(GoodCourse, LessonWithCallouts)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const Activity& a = activity("alpha", "intro");
    EXPECT_EQ(a.title, "Programs own tiles");
    const Lesson* lesson = a.as<Lesson>();
    ASSERT_NE(lesson, nullptr);
    EXPECT_EQ(lesson->minutes, 7);
    EXPECT_EQ(lesson->markdown.rfind("# Programs own tiles", 0), 0u);
    ASSERT_EQ(lesson->callouts.size(), 3u) << "the callout inside the fenced block is not one";
    EXPECT_EQ(lesson->callouts[0].kind, CalloutKind::Probe);
    EXPECT_EQ(lesson->callouts[0].title, "What interviewers probe");
    EXPECT_EQ(lesson->callouts[0].body, "Is a Triton program a CUDA thread?\nNo: it is closer to a thread block.");
    EXPECT_EQ(lesson->callouts[0].line, 9);
    EXPECT_EQ(lesson->callouts[1].kind, CalloutKind::Gotcha);
    EXPECT_TRUE(lesson->callouts[1].title.empty());
    EXPECT_EQ(lesson->callouts[2].kind, CalloutKind::Version);
    EXPECT_EQ(lesson->callouts[2].title, "Triton 3");
}

TEST_F(GoodCourse, WalkthroughPanesAndNotes)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const Walkthrough* w = activity("alpha", "kernel-walk").as<Walkthrough>();
    ASSERT_NE(w, nullptr);
    ASSERT_EQ(w->panes.size(), 2u);
    EXPECT_EQ(w->panes[0].label, "Triton");
    EXPECT_EQ(w->panes[0].language, "python");
    EXPECT_EQ(w->panes[0].code.rfind("@triton.jit\n", 0), 0u);
    EXPECT_EQ(w->panes[0].notes.at(5), "The mask guards the tail.");
    EXPECT_EQ(w->panes[1].code, "int pid = blockIdx.x;\nif (i < n) out[i] = x[i] + y[i];\n");
    EXPECT_EQ(w->panes[1].notes.size(), 1u);
}

TEST_F(GoodCourse, QuizQuestions)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const Activity& a = activity("alpha", "checks");
    EXPECT_EQ(a.title, "Alpha checks");
    const Quiz* quiz = a.as<Quiz>();
    ASSERT_NE(quiz, nullptr);
    ASSERT_EQ(quiz->questions.size(), 2u);
    const Question& q0 = quiz->questions[0];
    EXPECT_EQ(q0.id, "program");
    EXPECT_FALSE(q0.multiple);
    ASSERT_EQ(q0.choices.size(), 3u);
    EXPECT_TRUE(q0.choices[1].correct);
    EXPECT_EQ(q0.followup, "Who maps threads then?");
    EXPECT_EQ(q0.followupAnswer, "The compiler.");
    const Question& q1 = quiz->questions[1];
    EXPECT_TRUE(q1.multiple);
    EXPECT_EQ(q1.code, "acc += tl.dot(a, b)");
    EXPECT_EQ(q1.language, "python");
}

TEST_F(GoodCourse, SpotTheBugWithRun)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const SpotTheBug* bug = activity("alpha", "no-mask").as<SpotTheBug>();
    ASSERT_NE(bug, nullptr);
    EXPECT_EQ(bug->bugLines, (std::vector<int>{5, 7}));
    EXPECT_EQ(bug->language, "python");
    EXPECT_NE(bug->fixedCode.find("mask=mask"), std::string::npos);
    ASSERT_TRUE(bug->run.has_value());
    EXPECT_TRUE(fs::is_regular_file(bug->run->exerciseFolder / "exercise.json"));
    EXPECT_EQ(bug->run->kernelFile.filename(), "no-mask.cu");
}

TEST_F(GoodCourse, DragMatchAndStepThroughs)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const DragMatch* match = activity("alpha", "match").as<DragMatch>();
    ASSERT_NE(match, nullptr);
    EXPECT_EQ(match->targets.size(), 2u);
    ASSERT_EQ(match->items.size(), 3u);
    EXPECT_EQ(match->items[2].target, "block");

    const StepThrough* traffic = activity("alpha", "traffic").as<StepThrough>();
    ASSERT_NE(traffic, nullptr);
    EXPECT_EQ(traffic->diagram, Diagram::Traffic);
    EXPECT_EQ(traffic->params.at("M"), 4);
    ASSERT_EQ(traffic->steps.size(), 2u);
    EXPECT_EQ(traffic->steps[0].state.at("read_bytes"), 128);

    const StepThrough* online = activity("beta", "online").as<StepThrough>();
    ASSERT_NE(online, nullptr);
    EXPECT_EQ(online->diagram, Diagram::OnlineSoftmax);
    EXPECT_EQ(online->steps[0].state.at("m"), "-inf");
    EXPECT_TRUE(online->params.is_object());
    EXPECT_EQ(activity("beta", "grid").as<StepThrough>()->diagram, Diagram::TileGrid);
    EXPECT_EQ(activity("beta", "compile-path").as<StepThrough>()->diagram, Diagram::Pipeline);
    EXPECT_EQ(activity("beta", "numbers").as<StepThrough>()->diagram, Diagram::Table);
}

TEST_F(GoodCourse, ExerciseThroughTheEngineSpec)
{
    ASSERT_TRUE(s_result->course.has_value()) << diagnostics();
    const Activity& a = activity("alpha", "add");
    EXPECT_EQ(a.title, "Masked vector add");
    const Exercise* ex = a.as<Exercise>();
    ASSERT_NE(ex, nullptr);
    ASSERT_NE(ex->spec, nullptr);
    EXPECT_EQ(ex->specId, "vector-add");
    EXPECT_EQ(ex->kernel, "vector_add");
    EXPECT_EQ(ex->hints.size(), 3u);
    ASSERT_EQ(ex->meta.size(), 2u);
    EXPECT_EQ(ex->meta[0].name, "BLOCK_SIZE");
    EXPECT_EQ(ex->meta[0].defaultValue, 1024);
    EXPECT_FALSE(ex->autotune);
    EXPECT_NE(ex->starter.find("vector_add"), std::string::npos);
    EXPECT_NE(ex->solution.find("vector_add"), std::string::npos);
    EXPECT_FALSE(ex->prompt.empty());
    EXPECT_EQ(ex->spec->bugs.size(), 2u);
}

TEST(ModuleLoad, SingleModuleForPacks)
{
    const auto result = loadModule(tkm::test::dataDir() / "content-good" / "02-beta");
    ASSERT_TRUE(result.module.has_value());
    EXPECT_EQ(result.module->id, "beta");
    EXPECT_EQ(result.module->activities.size(), 5u);
    EXPECT_EQ(result.module->findActivity("notes")->title, "Notes");
    EXPECT_EQ(result.module->findActivity("nope"), nullptr);
}

TEST(Names, KindsRoundTrip)
{
    for (const char* name :
         {"lesson", "walkthrough", "quiz", "spot-the-bug", "drag-match", "step-through", "exercise"}) {
        const auto kind = parseActivityKind(name);
        ASSERT_TRUE(kind.has_value()) << name;
        EXPECT_EQ(activityKindName(*kind), name);
    }
    EXPECT_FALSE(parseActivityKind("Quiz").has_value());
    for (const char* name : {"PROBE", "GOTCHA", "RULE", "VERSION", "NOTE"}) {
        ASSERT_TRUE(parseCalloutKind(name).has_value()) << name;
        EXPECT_EQ(calloutKindName(*parseCalloutKind(name)), name);
    }
    for (const char* name : {"traffic", "online-softmax", "tile-grid", "pipeline", "table"}) {
        ASSERT_TRUE(parseDiagram(name).has_value()) << name;
        EXPECT_EQ(diagramName(*parseDiagram(name)), name);
    }
}

} // namespace
