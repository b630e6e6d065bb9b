// Every record kind round-trips; resume and reset semantics; run history, comparison and best run; time spent.
#include "modules/progress/store.h"
#include "tests/progress/test_util.h"

#include <gtest/gtest.h>

namespace tkm::progress {
namespace {

using test::TempDir;

class StoreTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto opened = Store::open(m_dir / "progress.db");
        ASSERT_TRUE(opened) << opened.error().message;
        m_store.emplace(std::move(*opened));
    }
    Store& store() { return *m_store; }

    TempDir m_dir;
    std::optional<Store> m_store;
};

const ActivityRef kQuiz{"02-vector-add", "quiz-masks"};
const ActivityRef kBug{"02-vector-add", "bug-missing-mask"};
const ActivityRef kDrag{"02-vector-add", "match-terms"};
const ActivityRef kSteps{"02-vector-add", "steps-traffic"};
const ActivityRef kExercise{"02-vector-add", "vector-add"};
const ActivityRef kOtherModule{"03-softmax", "quiz-online"};

TEST_F(StoreTest, NewDatabaseIsCreatedInWalModeAtTheCurrentSchema)
{
    const OpenReport& r = store().openReport();
    EXPECT_TRUE(r.created);
    EXPECT_EQ(r.foundVersion, 0);
    EXPECT_EQ(r.schemaVersion, kSchemaVersion);
    EXPECT_TRUE(r.wal);
    EXPECT_TRUE(r.movedAside.empty());
    EXPECT_TRUE(r.notice.empty());
    EXPECT_EQ(*store().integrityCheck(), "ok");
}

TEST_F(StoreTest, OpenCreatesMissingFolders)
{
    auto deep = Store::open(m_dir / "a" / "b" / "learner.db");
    ASSERT_TRUE(deep) << deep.error().message;
    EXPECT_TRUE(std::filesystem::exists(m_dir / "a" / "b" / "learner.db"));
}

TEST_F(StoreTest, FolderPathIsRefusedWithASentence)
{
    auto bad = Store::open(m_dir.path());
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, ErrorKind::BadInput);
    EXPECT_NE(bad.error().message.find("is a folder"), std::string::npos);
}

TEST_F(StoreTest, QuizAnswersRoundTrip)
{
    auto id = store().recordQuizAnswer({0, kQuiz, "q1", {0, 2}, false, 1000});
    ASSERT_TRUE(id) << id.error().message;
    ASSERT_TRUE(store().recordQuizAnswer({0, kQuiz, "q1", {1}, true, 2000}));
    auto all = store().quizAnswers();
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 2u);
    const QuizAnswer& first = (*all)[0];
    EXPECT_EQ(first.id, *id);
    EXPECT_EQ(first.where.moduleId, kQuiz.moduleId);
    EXPECT_EQ(first.where.activityId, kQuiz.activityId);
    EXPECT_EQ(first.questionId, "q1");
    EXPECT_EQ(first.choices, (std::vector<int>{0, 2}));
    EXPECT_FALSE(first.correct);
    EXPECT_EQ(first.atMs, 1000);
    EXPECT_TRUE((*all)[1].correct);
    EXPECT_EQ((*all)[1].choices, (std::vector<int>{1}));
}

TEST_F(StoreTest, ZeroTimeIsStampedWithNow)
{
    const auto before =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    ASSERT_TRUE(store().recordQuizAnswer({0, kQuiz, "q1", {0}, true, 0}));
    const auto at = (*store().quizAnswers())[0].atMs;
    EXPECT_GE(at, before);
    EXPECT_LT(at, before + 60'000);
}

TEST_F(StoreTest, SpotPicksDragAttemptsStepsAndHelpRoundTrip)
{
    ASSERT_TRUE(store().recordSpotPick({0, kBug, {7, 9}, false, 10}));
    ASSERT_TRUE(store().recordSpotPick({0, kBug, {12}, true, 20}));
    const nlohmann::json placement = {{"pid", "program"}, {"mask", "guard"}};
    ASSERT_TRUE(store().recordDragAttempt({0, kDrag, placement, 1, 2, 30}));
    ASSERT_TRUE(store().recordStepCompletion({0, kSteps, 6, 40}));
    ASSERT_TRUE(store().recordHelpView({0, kExercise, HelpKind::Hint, 1, 50}));
    ASSERT_TRUE(store().recordHelpView({0, kExercise, HelpKind::Solution, 0, 60}));

    auto picks = *store().spotPicks();
    ASSERT_EQ(picks.size(), 2u);
    EXPECT_EQ(picks[0].lines, (std::vector<int>{7, 9}));
    EXPECT_FALSE(picks[0].correct);
    EXPECT_EQ(picks[1].lines, (std::vector<int>{12}));
    EXPECT_TRUE(picks[1].correct);
    EXPECT_EQ(picks[1].atMs, 20);

    auto drags = *store().dragAttempts();
    ASSERT_EQ(drags.size(), 1u);
    EXPECT_EQ(drags[0].placement, placement);
    EXPECT_EQ(drags[0].correctCount, 1);
    EXPECT_EQ(drags[0].itemCount, 2);
    EXPECT_EQ(drags[0].where.activityId, kDrag.activityId);

    auto steps = *store().stepCompletions();
    ASSERT_EQ(steps.size(), 1u);
    EXPECT_EQ(steps[0].stepCount, 6);
    EXPECT_EQ(steps[0].atMs, 40);

    auto help = *store().helpViews({kExercise.moduleId, kExercise.activityId});
    ASSERT_EQ(help.size(), 2u);
    EXPECT_EQ(help[0].kind, HelpKind::Hint);
    EXPECT_EQ(help[0].hintIndex, 1);
    EXPECT_EQ(help[1].kind, HelpKind::Solution);
}

TEST_F(StoreTest, InvalidRecordsAreRefusedWithASentence)
{
    auto noModule = store().recordQuizAnswer({0, {"", "quiz"}, "q1", {0}, true, 0});
    ASSERT_FALSE(noModule);
    EXPECT_EQ(noModule.error().kind, ErrorKind::BadInput);
    EXPECT_NE(noModule.error().message.find("module id"), std::string::npos);
    auto badDrag = store().recordDragAttempt({0, kDrag, nlohmann::json::object(), 3, 2, 0});
    ASSERT_FALSE(badDrag);
    EXPECT_EQ(badDrag.error().kind, ErrorKind::BadInput);
    EXPECT_TRUE(store().dragAttempts()->empty());
}

TEST_F(StoreTest, KernelRunRoundTripsWithSourceReportAndFigures)
{
    const auto report = test::sampleReport("pass", 0.243, 3300.0);
    KernelRun run = kernelRunFromReport(kExercise, "__global__ void vector_add() {}\n", report);
    EXPECT_EQ(run.exerciseId, "vector-add");
    EXPECT_EQ(run.verdict, report::Verdict::Pass);
    EXPECT_EQ(run.device, "NVIDIA H200");
    EXPECT_EQ(run.meta["BLOCK_SIZE"], 1024);
    ASSERT_TRUE(run.medianMs && run.achievedGbps && run.dramReadBytes && run.storedBytes && run.idealBytes);
    EXPECT_DOUBLE_EQ(*run.ceilingGbps, 4250.0); // the measured copy, not the theoretical figure
    run.atMs = 5000;
    auto id = store().recordKernelRun(run);
    ASSERT_TRUE(id) << id.error().message;

    auto back = store().run(*id);
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->source, run.source);
    ASSERT_TRUE(back->report);
    EXPECT_EQ(nlohmann::json(*back->report), nlohmann::json(report));
    EXPECT_EQ(back->meta, run.meta);
    EXPECT_DOUBLE_EQ(*back->medianMs, 0.243);
    EXPECT_DOUBLE_EQ(*back->achievedGbps, 3300.0);
    EXPECT_EQ(*back->dramReadBytes, 536900000);
    EXPECT_EQ(*back->storedBytes, 268440000);
    EXPECT_EQ(*back->idealBytes, 805306368);
    EXPECT_EQ(back->atMs, 5000);
    EXPECT_NEAR(*back->ceilingFraction(), 3300.0 / 4250.0, 1e-12);
    EXPECT_NEAR(*back->dramEfficiency(), 805306368.0 / (536900000.0 + 268440000.0), 1e-12);
}

TEST_F(StoreTest, RunOfACompileErrorKeepsMissingFiguresEmpty)
{
    const nlohmann::json report = {{"schema", "tkm-run-report/1"},
                                   {"exercise", {{"id", "vector-add"}}},
                                   {"verdict", "compile_error"},
                                   {"traffic", {{"available", false}, {"unavailable_reason", "not reached"}}}};
    auto id = store().recordKernelRun(kernelRunFromReport(kExercise, "broken(", report.get<report::RunReport>()));
    ASSERT_TRUE(id);
    auto back = *store().run(*id);
    EXPECT_EQ(back.verdict, report::Verdict::CompileError);
    EXPECT_FALSE(back.medianMs);
    EXPECT_FALSE(back.dramReadBytes);
    EXPECT_FALSE(back.ceilingFraction());
    EXPECT_FALSE(back.dramEfficiency());
    EXPECT_EQ(back.device, "");
}

TEST_F(StoreTest, RunHistoryIsNewestFirstWithoutBodiesAndRunsCompare)
{
    std::vector<int64_t> ids;
    const char* verdicts[] = {"fail", "pass", "pass"};
    const double times[] = {0.5, 0.31, 0.25};
    for (int i = 0; i < 3; ++i) {
        KernelRun run = kernelRunFromReport(kExercise, "source v" + std::to_string(i),
                                            test::sampleReport(verdicts[i], times[i], 3000.0));
        run.atMs = 1000 * (i + 1);
        ids.push_back(*store().recordKernelRun(run));
    }
    ASSERT_TRUE(store().recordKernelRun(kernelRunFromReport(kOtherModule, "x", test::sampleReport("pass", 0.1, 1.0))));

    auto history = store().runHistory({kExercise.moduleId, kExercise.activityId});
    ASSERT_TRUE(history);
    ASSERT_EQ(history->size(), 3u);
    EXPECT_EQ((*history)[0].id, ids[2]);
    EXPECT_EQ((*history)[2].id, ids[0]);
    EXPECT_TRUE((*history)[0].source.empty());
    EXPECT_FALSE((*history)[0].report.has_value());

    // An earlier source is restorable.
    EXPECT_EQ(store().run(ids[0])->source, "source v0");

    auto pair = store().compareRuns(ids[0], ids[2]);
    ASSERT_TRUE(pair) << pair.error().message;
    EXPECT_EQ(pair->first.source, "source v0");
    EXPECT_EQ(pair->second.source, "source v2");
    EXPECT_EQ(pair->first.verdict, report::Verdict::Fail);
    EXPECT_DOUBLE_EQ(*pair->second.medianMs, 0.25);

    auto best = store().bestRun(kExercise);
    ASSERT_TRUE(best && best->has_value());
    EXPECT_EQ((*best)->id, ids[2]);

    auto missing = store().run(99999);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().kind, ErrorKind::NotFound);
    auto across = store().compareRuns(ids[0], store().runHistory({kOtherModule.moduleId, {}})->front().id);
    ASSERT_FALSE(across);
    EXPECT_EQ(across.error().kind, ErrorKind::BadInput);
}

TEST_F(StoreTest, BestRunIsNoneBeforeAPass)
{
    ASSERT_TRUE(store().recordKernelRun(kernelRunFromReport(kExercise, "s", test::sampleReport("fail", 0.2, 1.0))));
    auto best = store().bestRun(kExercise);
    ASSERT_TRUE(best);
    EXPECT_FALSE(best->has_value());
}

TEST_F(StoreTest, TimeSpansAccumulatePerActivityAndModule)
{
    auto span = store().beginTimeSpan(kQuiz, 10'000);
    ASSERT_TRUE(span);
    ASSERT_TRUE(store().extendTimeSpan(*span, 40'000));
    ASSERT_TRUE(store().extendTimeSpan(*span, 70'000));
    ASSERT_TRUE(store().extendTimeSpan(*span, 20'000)); // a clock step back never shrinks a span
    ASSERT_TRUE(store().addTimeSpent(kExercise, 90.5, 200'000));
    ASSERT_TRUE(store().addTimeSpent(kOtherModule, 10.0, 300'000));

    EXPECT_DOUBLE_EQ(*store().secondsSpent({kQuiz.moduleId, kQuiz.activityId}), 60.0);
    EXPECT_DOUBLE_EQ(*store().secondsSpent({kQuiz.moduleId, {}}), 150.5);
    EXPECT_DOUBLE_EQ(*store().secondsSpent(), 160.5);
    auto spans = *store().timeSpans({kExercise.moduleId, kExercise.activityId});
    ASSERT_EQ(spans.size(), 1u);
    EXPECT_EQ(spans[0].startMs, 200'000 - 90'500);
    EXPECT_EQ(spans[0].endMs, 200'000);
    EXPECT_FALSE(store().addTimeSpent(kQuiz, -1.0));
}

TEST_F(StoreTest, PositionResumesAcrossReopen)
{
    EXPECT_FALSE(store().position()->has_value());
    ASSERT_TRUE(store().setPosition(kQuiz, 111));
    ASSERT_TRUE(store().setPosition(kExercise, 222));
    ASSERT_TRUE(store().recordQuizAnswer({0, kQuiz, "q3", {1}, true, 300}));
    m_store.reset(); // quit

    auto reopened = Store::open(m_dir / "progress.db");
    ASSERT_TRUE(reopened) << reopened.error().message;
    EXPECT_FALSE(reopened->openReport().created);
    EXPECT_EQ(reopened->openReport().foundVersion, kSchemaVersion);
    auto pos = reopened->position();
    ASSERT_TRUE(pos && pos->has_value());
    EXPECT_EQ((*pos)->where.moduleId, kExercise.moduleId);
    EXPECT_EQ((*pos)->where.activityId, kExercise.activityId);
    EXPECT_EQ((*pos)->atMs, 222);
    ASSERT_EQ(reopened->quizAnswers()->size(), 1u);
    EXPECT_EQ(reopened->quizAnswers()->front().questionId, "q3");
}

TEST_F(StoreTest, ActivityValuesRoundTripReplaceAndRemove)
{
    ASSERT_TRUE(store().setActivityValue(kQuiz, "q/q1/right", true));
    ASSERT_TRUE(store().setActivityValue(kQuiz, "state", 1));
    ASSERT_TRUE(store().setActivityValue(kQuiz, "state", 2));
    ASSERT_TRUE(store().setActivityValue(kExercise, "meta/BLOCK_SIZE", 256));
    ASSERT_TRUE(store().setActivityValue(kExercise, "note", "text"));
    auto quiz = store().activityValues({kQuiz.moduleId, kQuiz.activityId});
    ASSERT_TRUE(quiz);
    ASSERT_EQ(quiz->size(), 2u);
    EXPECT_EQ((*quiz)[0].key, "q/q1/right");
    EXPECT_EQ((*quiz)[0].value, true);
    EXPECT_EQ((*quiz)[1].key, "state");
    EXPECT_EQ((*quiz)[1].value, 2);
    ASSERT_TRUE(store().setActivityValue(kExercise, "note", nullptr));
    auto all = store().activityValues();
    ASSERT_EQ(all->size(), 3u);
    EXPECT_EQ(all->back().value, 256);
    EXPECT_FALSE(store().setActivityValue(kQuiz, "", 1));
    // View state is not a record of study.
    EXPECT_FALSE(store().recordedRange()->has_value());
}

TEST_F(StoreTest, RecordedRangeAndLatestDeviceSummariseTheStore)
{
    EXPECT_FALSE(store().recordedRange()->has_value());
    EXPECT_EQ(*store().latestDevice(), "");
    ASSERT_TRUE(store().recordQuizAnswer({0, kQuiz, "q1", {0}, true, 5'000}));
    ASSERT_TRUE(store().addTimeSpent(kExercise, 2.0, 9'000)); // 7 s .. 9 s
    KernelRun gpu = kernelRunFromReport(kExercise, "s", test::sampleReport("pass", 1, 1));
    gpu.atMs = 3'000;
    ASSERT_TRUE(store().recordKernelRun(gpu));
    KernelRun noGpu = kernelRunFromReport(kExercise, "s", report::RunReport{.verdict = report::Verdict::Compiled});
    noGpu.atMs = 8'000;
    ASSERT_TRUE(store().recordKernelRun(noGpu));
    auto range = store().recordedRange();
    ASSERT_TRUE(range && range->has_value());
    EXPECT_EQ((*range)->first, 3'000);
    EXPECT_EQ((*range)->second, 9'000);
    EXPECT_EQ(*store().latestDevice(), "NVIDIA H200");
}

class ResetTest : public StoreTest
{
protected:
    void SetUp() override
    {
        StoreTest::SetUp();
        for (const ActivityRef& where : {kQuiz, kOtherModule}) {
            ASSERT_TRUE(store().recordQuizAnswer({0, where, "q1", {0}, true, 1}));
            ASSERT_TRUE(store().addTimeSpent(where, 5.0, 100'000));
        }
        ASSERT_TRUE(store().recordSpotPick({0, kBug, {3}, true, 2}));
        ASSERT_TRUE(store().recordDragAttempt({0, kDrag, nlohmann::json::object(), 0, 4, 3}));
        ASSERT_TRUE(store().recordStepCompletion({0, kSteps, 4, 4}));
        ASSERT_TRUE(store().recordHelpView({0, kExercise, HelpKind::Hint, 0, 5}));
        ASSERT_TRUE(store().recordKernelRun(kernelRunFromReport(kExercise, "s", test::sampleReport("pass", 1, 1))));
        ASSERT_TRUE(store().setPosition(kExercise, 6));
        ASSERT_TRUE(store().setActivityValue(kExercise, "state", 2));
        ASSERT_TRUE(store().setActivityValue(kOtherModule, "state", 1));
    }
    size_t countIn(const Scope& scope)
    {
        return store().quizAnswers(scope)->size() + store().spotPicks(scope)->size() +
               store().dragAttempts(scope)->size() + store().stepCompletions(scope)->size() +
               store().helpViews(scope)->size() + store().runHistory(scope)->size() + store().timeSpans(scope)->size();
    }
};

TEST_F(ResetTest, ResetActivityClearsOnlyThatActivityAndKeepsThePosition)
{
    ASSERT_TRUE(store().resetActivity(kExercise));
    EXPECT_EQ(countIn({kExercise.moduleId, kExercise.activityId}), 0u);
    EXPECT_TRUE(store().activityValues({kExercise.moduleId, kExercise.activityId})->empty());
    EXPECT_EQ(store().activityValues()->size(), 1u);
    EXPECT_EQ(store().quizAnswers({kQuiz.moduleId, kQuiz.activityId})->size(), 1u);
    EXPECT_EQ(store().spotPicks()->size(), 1u);
    EXPECT_EQ(countIn({kOtherModule.moduleId, {}}), 2u);
    EXPECT_TRUE(store().position()->has_value());
    EXPECT_FALSE(store().resetActivity({kQuiz.moduleId, ""}));
}

TEST_F(ResetTest, ResetModuleClearsTheModuleAndAPositionInsideIt)
{
    ASSERT_TRUE(store().resetModule(kQuiz.moduleId));
    EXPECT_EQ(countIn({kQuiz.moduleId, {}}), 0u);
    EXPECT_EQ(countIn({kOtherModule.moduleId, {}}), 2u);
    EXPECT_FALSE(store().position()->has_value());
}

TEST_F(ResetTest, ResetModuleKeepsAPositionInAnotherModule)
{
    ASSERT_TRUE(store().setPosition(kOtherModule, 7));
    ASSERT_TRUE(store().resetModule(kQuiz.moduleId));
    ASSERT_TRUE(store().position()->has_value());
    EXPECT_EQ((*store().position())->where.moduleId, kOtherModule.moduleId);
}

TEST_F(ResetTest, ResetAllClearsEverythingAndTheStoreStaysUsable)
{
    ASSERT_TRUE(store().resetAll());
    EXPECT_EQ(countIn({}), 0u);
    EXPECT_TRUE(store().activityValues()->empty());
    EXPECT_FALSE(store().position()->has_value());
    ASSERT_TRUE(store().recordQuizAnswer({0, kQuiz, "q1", {0}, true, 9}));
    EXPECT_EQ(countIn({}), 1u);
}

TEST_F(ResetTest, ExtendingASpanOfAResetActivityReportsNotFound)
{
    auto span = store().beginTimeSpan(kQuiz, 1000);
    ASSERT_TRUE(span);
    ASSERT_TRUE(store().resetActivity(kQuiz));
    auto extended = store().extendTimeSpan(*span, 2000);
    ASSERT_FALSE(extended);
    EXPECT_EQ(extended.error().kind, ErrorKind::NotFound);
}

} // namespace
} // namespace tkm::progress
