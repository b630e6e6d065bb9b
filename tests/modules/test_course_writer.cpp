// The writer (modules/course/writer.h): load → write → load gives the same content for every built-in module and
// the fixture course; writing is stable; diagnostics of written files map back to JSON pointers.
#include "modules/course/loader.h"
#include "modules/course/writer.h"
#include "test_data.h"
#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using namespace tkm::course;

namespace {

using tkm::test::TempDir;

std::string readAll(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<fs::path> contentRoots()
{
    return {fs::path(TKM_SOURCE_DIR) / "content", tkm::test::dataDir() / "content-good"};
}

} // namespace

TEST(CourseWriter, RoundTripsEveryModule)
{
    int modules = 0;
    for (const fs::path& root : contentRoots()) {
        const CourseLoadResult loaded = loadCourse(root);
        ASSERT_TRUE(loaded.course) << root;
        for (const Module& original : loaded.course->modules) {
            TempDir dir;
            const fs::path dest = dir.path() / original.folder.filename();
            ASSERT_TRUE(writeModule(original, dest)) << original.id;
            const ModuleLoadResult again = loadModule(dest);
            ASSERT_TRUE(again.module) << original.id << ": "
                                      << (again.diagnostics.empty() ? "" : again.diagnostics[0].format());
            EXPECT_EQ(contentDifference(original, *again.module), "") << original.id;
            EXPECT_EQ(contentDifference(*again.module, original), "") << original.id;

            // A second write of the reloaded module gives the same bytes (no drift).
            const fs::path dest2 = dir.path() / "second";
            ASSERT_TRUE(writeModule(*again.module, dest2));
            for (const ModuleFile& f : moduleFiles(*again.module)) {
                EXPECT_EQ(readAll(dest / f.relative), readAll(dest2 / f.relative)) << f.relative;
            }
            ++modules;
        }
    }
    EXPECT_GE(modules, 8);
}

TEST(CourseWriter, DetectsADifference)
{
    const CourseLoadResult loaded = loadCourse(fs::path(TKM_SOURCE_DIR) / "content");
    ASSERT_TRUE(loaded.course);
    Module a = loaded.course->modules.front();
    Module b = a;
    EXPECT_EQ(contentDifference(a, b), "");
    for (Activity& act : b.activities) {
        if (auto* quiz = std::get_if<Quiz>(&act.payload)) {
            quiz->questions[0].choices[1].explanation += " (edited)";
            const std::string diff = contentDifference(a, b);
            EXPECT_NE(diff.find("question 1, choice 2: explanation differs"), std::string::npos) << diff;
            return;
        }
    }
    FAIL() << "the first built-in module has no quiz";
}

// A module with one quiz ("check", one question) whose second choice has `explanation`.
static Module quizModule(const std::string& explanation)
{
    Module m;
    m.id = "new-module";
    m.title = "New module";
    m.summary = "A module made in the app.";
    m.order = 1;
    m.estimatedMinutes = 10;
    Activity quiz;
    quiz.id = "check";
    quiz.kind = ActivityKind::Quiz;
    quiz.title = "Check";
    Question q;
    q.id = "q1";
    q.prompt = "Which?";
    q.choices = {{"A", true, "Because."}, {"B", false, explanation}};
    quiz.payload = Quiz{{q}};
    m.activities.push_back(quiz);
    return m;
}

TEST(CourseWriter, NewActivitiesGetDefaultFiles)
{
    Module m = quizModule("No.");
    Activity lesson;
    lesson.id = "intro";
    lesson.kind = ActivityKind::Lesson;
    lesson.title = "\"Quoted\" title";
    lesson.payload = Lesson{"\"Quoted\" title", 5, "# Intro\n\nText.\n", 1, {}};
    m.activities.insert(m.activities.begin(), lesson);

    TempDir dir;
    ASSERT_TRUE(writeModule(m, dir.path()));
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "lessons" / "intro.md"));
    EXPECT_TRUE(fs::is_regular_file(dir.path() / "activities" / "check.json"));
    const ModuleLoadResult again = loadModule(dir.path());
    ASSERT_TRUE(again.module) << again.diagnostics[0].format();
    EXPECT_EQ(contentDifference(m, *again.module), "");
}

TEST(CourseWriter, DiagnosticsMapToJsonPointers)
{
    const Module m = quizModule("");

    TempDir dir;
    ASSERT_TRUE(writeModule(m, dir.path()));
    const ModuleLoadResult loaded = loadModule(dir.path());
    ASSERT_FALSE(loaded.module);
    ASSERT_FALSE(loaded.diagnostics.empty());
    const Diagnostic& d = loaded.diagnostics.front();
    EXPECT_EQ(d.file.filename(), "check.json");
    const std::string text = readAll(d.file);
    EXPECT_EQ(jsonPointerAt(text, d.line, d.column), "/questions/0/choices/1/explanation") << d.format();
    EXPECT_EQ(jsonPointerAt(text, 1, 1), "");
    EXPECT_EQ(jsonPointerAt("not json", 1, 1), "");
}

TEST(CourseWriter, NewActivityDoesNotTakeAnotherActivitysFile)
{
    Module m = quizModule("No.");
    m.folder = "/course/01-x";
    m.activities[0].id = "a";
    m.activities[0].source = "/course/01-x/activities/b.json"; // loaded from the file a new "b" would get
    Activity b = m.activities[0];
    b.id = "b";
    b.source.clear();
    m.activities.push_back(b);
    EXPECT_EQ(activityRelativePath(m, 0), fs::path("activities/b.json"));
    EXPECT_EQ(activityRelativePath(m, 1), fs::path("activities/b-2.json"));
    const std::vector<ModuleFile> files = moduleFiles(m);
    ASSERT_EQ(files.size(), 3u);
    EXPECT_NE(files[1].relative, files[2].relative);
}

// The Triton track's prompt and hints ("triton"/"prompt", "triton"/"hints") survive load → write → load, and a
// change to either is a difference. Module 01 is copied and its scaled-copy exercise given both.
TEST(CourseWriter, RoundTripsTheTritonPromptAndHints)
{
    TempDir dir;
    const fs::path module = dir.path() / "01-programming-model";
    fs::copy(fs::path(TKM_SOURCE_DIR) / "content" / "01-programming-model", module, fs::copy_options::recursive);
    const fs::path exercise = module / "exercises" / "scaled-copy";
    nlohmann::json spec = nlohmann::json::parse(readAll(exercise / "exercise.json"));
    spec["triton"]["prompt"] = "prompt-triton.md";
    spec["triton"]["hints"] = {"`pid = tl.program_id(0)` owns one tile", "mask the load and the store"};
    std::ofstream(exercise / "exercise.json") << spec.dump(2);
    std::ofstream(exercise / "prompt-triton.md") << "# Scaled copy in Triton\n\nWrite `scaled_copy` as a @triton.jit kernel.\n";

    const ModuleLoadResult loaded = loadModule(module);
    ASSERT_TRUE(loaded.module) << (loaded.diagnostics.empty() ? "" : loaded.diagnostics[0].format());
    const Exercise* ex = nullptr;
    for (const Activity& a : loaded.module->activities) {
        if (const Exercise* e = a.as<Exercise>(); e && e->specId == "scaled-copy") {
            ex = e;
        }
    }
    ASSERT_NE(ex, nullptr);
    EXPECT_EQ(ex->tritonPrompt, "# Scaled copy in Triton\n\nWrite `scaled_copy` as a @triton.jit kernel.\n");
    ASSERT_EQ(ex->tritonHints.size(), 2u);
    EXPECT_EQ(ex->tritonHints[1], "mask the load and the store");

    const fs::path dest = dir.path() / "written";
    ASSERT_TRUE(writeModule(*loaded.module, dest));
    const ModuleLoadResult again = loadModule(dest);
    ASSERT_TRUE(again.module) << (again.diagnostics.empty() ? "" : again.diagnostics[0].format());
    EXPECT_EQ(contentDifference(*loaded.module, *again.module), "");

    Module edited = *again.module;
    for (Activity& a : edited.activities) {
        if (auto* e = std::get_if<Exercise>(&a.payload); e && e->specId == "scaled-copy") {
            e->tritonHints.pop_back();
        }
    }
    EXPECT_NE(contentDifference(*loaded.module, edited).find("Triton hints"), std::string::npos)
        << contentDifference(*loaded.module, edited);
    for (Activity& a : edited.activities) {
        if (auto* e = std::get_if<Exercise>(&a.payload); e && e->specId == "scaled-copy") {
            e->tritonHints = ex->tritonHints;
            e->tritonPrompt += "More.\n";
        }
    }
    EXPECT_NE(contentDifference(*loaded.module, edited).find("Triton prompt"), std::string::npos);

    // The Triton prompt has the top-level prompt's size limit, reported at its field.
    std::ofstream(exercise / "prompt-triton.md") << std::string(kMaxMarkdownBytes + 1, 'x');
    const ModuleLoadResult big = loadModule(module);
    EXPECT_FALSE(big.module);
    ASSERT_FALSE(big.diagnostics.empty());
    EXPECT_NE(big.diagnostics[0].format().find("prompt-triton.md"), std::string::npos) << big.diagnostics[0].format();
    EXPECT_NE(big.diagnostics[0].format().find("KiB"), std::string::npos) << big.diagnostics[0].format();
}
