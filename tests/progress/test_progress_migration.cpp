// Schema migrations from every earlier version, atomic migration steps, and what open() does with files it cannot
// use: newer schema (refused, untouched), another program's database (refused), garbage, truncated (moved aside).
#include "modules/progress/schema.h"
#include "modules/progress/store.h"
#include "tests/progress/test_util.h"

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>
#include <gtest/gtest.h>

#include <random>
#include <regex>

namespace tkm::progress {
namespace {

using test::TempDir;
namespace fs = std::filesystem;

/// Creates a database at exactly `version` with the store's own migrations.
void createAtVersion(const fs::path& file, int version)
{
    SQLite::Database db(file.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    auto found = migrate(db, version);
    ASSERT_TRUE(found) << found.error().message;
    ASSERT_EQ(schemaVersionOf(db), version);
}

bool hasColumn(SQLite::Database& db, const std::string& table, const std::string& column)
{
    SQLite::Statement q(db, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?");
    q.bind(1, table);
    q.bind(2, column);
    q.executeStep();
    return q.getColumn(0).getInt() > 0;
}

TEST(Migration, EveryStepHasSql)
{
    for (int v = 0; v < kSchemaVersion; ++v) {
        EXPECT_FALSE(migrationSql(v).empty()) << "no migration from version " << v;
    }
    EXPECT_TRUE(migrationSql(kSchemaVersion).empty());
    EXPECT_TRUE(migrationSql(-1).empty());
}

TEST(Migration, EveryEarlierVersionOpensAndReachesTheCurrentSchema)
{
    for (int v = 0; v < kSchemaVersion; ++v) {
        TempDir dir;
        createAtVersion(dir / "p.db", v);
        auto store = Store::open(dir / "p.db");
        ASSERT_TRUE(store) << "from version " << v << ": " << store.error().message;
        EXPECT_EQ(store->openReport().foundVersion, v);
        EXPECT_EQ(store->openReport().schemaVersion, kSchemaVersion);
        EXPECT_EQ(schemaVersionOf(store->database()), kSchemaVersion);
        EXPECT_EQ(*store->integrityCheck(), "ok");
        // Every record kind is writable after the migration.
        const ActivityRef at{"m", "a"};
        EXPECT_TRUE(store->recordQuizAnswer({0, at, "q", {0}, true, 1}));
        EXPECT_TRUE(store->recordSpotPick({0, at, {1}, true, 1}));
        EXPECT_TRUE(store->recordDragAttempt({0, at, nlohmann::json::object(), 1, 1, 1}));
        EXPECT_TRUE(store->recordStepCompletion({0, at, 3, 1}));
        EXPECT_TRUE(store->recordHelpView({0, at, HelpKind::Hint, 0, 1}));
        EXPECT_TRUE(store->recordKernelRun(kernelRunFromReport(at, "s", test::sampleReport("pass", 1, 1))));
        EXPECT_TRUE(store->addTimeSpent(at, 1.0));
        EXPECT_TRUE(store->setPosition(at));
    }
}

TEST(Migration, Version1DataSurvivesAndRunsGainTheirV2Figures)
{
    TempDir dir;
    const fs::path file = dir / "v1.db";
    createAtVersion(file, 1);
    {
        SQLite::Database db(file.string(), SQLite::OPEN_READWRITE);
        ASSERT_FALSE(db.tableExists("time_spans"));
        ASSERT_FALSE(hasColumn(db, "kernel_runs", "ideal_bytes"));
        // Rows exactly as version 1 of the app wrote them.
        db.exec("INSERT INTO quiz_answers(module_id, activity_id, question_id, choices, correct, at_ms) "
                "VALUES('02-vector-add', 'quiz', 'q1', '[2]', 0, 100), ('02-vector-add', 'quiz', 'q1', '[1]', 1, 200)");
        db.exec("INSERT INTO spot_picks(module_id, activity_id, lines, correct, at_ms) "
                "VALUES('02-vector-add', 'bug', '[4]', 1, 300)");
        db.exec("INSERT INTO drag_attempts(module_id, activity_id, placement, correct_count, item_count, at_ms) "
                "VALUES('02-vector-add', 'drag', '{\"a\":\"x\"}', 1, 1, 400)");
        db.exec("INSERT INTO step_completions(module_id, activity_id, step_count, at_ms) "
                "VALUES('02-vector-add', 'steps', 5, 500)");
        db.exec("INSERT INTO help_views(module_id, activity_id, kind, hint_index, at_ms) "
                "VALUES('02-vector-add', 'vector-add', 'solution', 0, 600)");
        SQLite::Statement run(db, "INSERT INTO kernel_runs(module_id, activity_id, exercise_id, source, meta, verdict, "
                                  "median_ms, achieved_gbps, dram_read_bytes, stored_bytes, device, report, at_ms) "
                                  "VALUES('02-vector-add', 'vector-add', 'vector-add', 'src', '{}', 'pass', 0.243, "
                                  "3300, 536900000, 268440000, 'NVIDIA H200', ?, 700)");
        run.bind(1, test::sampleReportJson("pass", 0.243, 3300).dump());
        run.exec();
        // A run whose report has no traffic section (compile error) must migrate with empty figures.
        db.exec("INSERT INTO kernel_runs(module_id, activity_id, exercise_id, source, meta, verdict, device, report, "
                "at_ms) VALUES('02-vector-add', 'vector-add', 'vector-add', 'bad(', '{}', 'compile_error', '', "
                "'{\"verdict\":\"compile_error\"}', 800)");
        db.exec("INSERT INTO position(id, module_id, activity_id, at_ms) VALUES(1, '02-vector-add', 'drag', 900)");
    }
    auto store = Store::open(file);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->openReport().foundVersion, 1);
    EXPECT_FALSE(store->openReport().created);
    EXPECT_TRUE(store->database().tableExists("time_spans"));

    auto quiz = *store->quizAnswers();
    ASSERT_EQ(quiz.size(), 2u);
    EXPECT_EQ(quiz[0].choices, std::vector<int>{2});
    EXPECT_TRUE(quiz[1].correct);
    EXPECT_EQ(store->spotPicks()->front().lines, std::vector<int>{4});
    EXPECT_EQ(store->dragAttempts()->front().placement, (nlohmann::json{{"a", "x"}}));
    EXPECT_EQ(store->stepCompletions()->front().stepCount, 5);
    EXPECT_EQ(store->helpViews()->front().kind, HelpKind::Solution);
    EXPECT_EQ((*store->position())->where.activityId, "drag");

    auto history = *store->runHistory();
    ASSERT_EQ(history.size(), 2u);
    const KernelRun& old = history[1]; // oldest: the passing run
    EXPECT_EQ(old.verdict, report::Verdict::Pass);
    ASSERT_TRUE(old.idealBytes.has_value());
    EXPECT_EQ(*old.idealBytes, 805306368);
    ASSERT_TRUE(old.ceilingGbps.has_value());
    EXPECT_DOUBLE_EQ(*old.ceilingGbps, 4250.0);
    EXPECT_NEAR(*old.dramEfficiency(), 805306368.0 / (536900000.0 + 268440000.0), 1e-12);
    EXPECT_FALSE(history[0].idealBytes.has_value());
    EXPECT_EQ(store->run(old.id)->source, "src");
}

TEST(Migration, AFailingStepChangesNothing)
{
    TempDir dir;
    const fs::path file = dir / "v1.db";
    createAtVersion(file, 1);
    {
        // Something the 1→2 step does not expect: a table in the way, so the step fails halfway.
        SQLite::Database db(file.string(), SQLite::OPEN_READWRITE);
        db.exec("CREATE TABLE time_spans(x INTEGER)");
    }
    auto store = Store::open(file);
    ASSERT_FALSE(store);
    EXPECT_EQ(store.error().kind, ErrorKind::Sqlite);
    SQLite::Database db(file.string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(schemaVersionOf(db), 1);
    EXPECT_FALSE(hasColumn(db, "kernel_runs", "ideal_bytes")) << "half a migration was kept";
}

TEST(Open, NewerSchemaIsRefusedAndTheFileIsNotChanged)
{
    TempDir dir;
    const fs::path file = dir / "future.db";
    {
        auto store = Store::open(file);
        ASSERT_TRUE(store);
        ASSERT_TRUE(store->recordQuizAnswer({0, {"m", "a"}, "q", {0}, true, 1}));
        store->database().exec("PRAGMA user_version = 99");
    }
    ASSERT_FALSE(fs::exists(dir / "future.db-wal"));
    const std::string before = test::readBytes(file);
    const auto mtime = fs::last_write_time(file);

    auto refused = Store::open(file);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::TooNew);
    EXPECT_NE(refused.error().message.find("newer version"), std::string::npos);
    EXPECT_NE(refused.error().message.find("99"), std::string::npos);
    EXPECT_NE(refused.error().message.find("not changed"), std::string::npos);
    EXPECT_EQ(test::readBytes(file), before);
    EXPECT_EQ(fs::last_write_time(file), mtime);
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        EXPECT_EQ(entry.path().filename().string().find("corrupt"), std::string::npos) << "moved aside";
    }
}

TEST(Open, AnotherProgramsDatabaseIsRefusedAndNotChanged)
{
    TempDir dir;
    const fs::path file = dir / "other.db";
    {
        SQLite::Database db(file.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE invoices(id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES(1, 9.5)");
    }
    const std::string before = test::readBytes(file);
    auto refused = Store::open(file);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().kind, ErrorKind::BadInput);
    EXPECT_NE(refused.error().message.find("another program"), std::string::npos);
    EXPECT_EQ(test::readBytes(file), before);
}

/// Checks that `file` was moved aside to <file>.corrupt-YYYYMMDD-HHMM with `oldBytes`, and a fresh store works.
void expectMovedAside(const Expected<Store>& opened, const fs::path& file, const std::string& oldBytes)
{
    ASSERT_TRUE(opened) << opened.error().message;
    const OpenReport& r = opened->openReport();
    ASSERT_FALSE(r.movedAside.empty());
    EXPECT_TRUE(r.created);
    EXPECT_TRUE(std::regex_match(r.movedAside.filename().string(),
                                 std::regex(file.filename().string() + R"(\.corrupt-\d{8}-\d{4}(-\d+)?)")))
        << r.movedAside;
    EXPECT_EQ(r.movedAside.parent_path(), file.parent_path());
    EXPECT_EQ(test::readBytes(r.movedAside), oldBytes);
    EXPECT_NE(r.notice.find(r.movedAside.string()), std::string::npos) << r.notice;
    EXPECT_EQ(*opened->integrityCheck(), "ok");
    EXPECT_TRUE(opened->quizAnswers()->empty());
}

TEST(Open, GarbageFileIsMovedAsideAndANewDatabaseStarts)
{
    TempDir dir;
    const fs::path file = dir / "progress.db";
    std::mt19937 rng(7);
    std::string garbage(8192, '\0');
    for (char& c : garbage) {
        c = static_cast<char>(rng());
    }
    test::writeBytes(file, garbage);
    auto opened = Store::open(file);
    expectMovedAside(opened, file, garbage);
    auto& store = const_cast<Store&>(*opened);
    ASSERT_TRUE(store.recordQuizAnswer({0, {"m", "a"}, "q", {0}, true, 1}));
    EXPECT_EQ(store.quizAnswers()->size(), 1u);
}

TEST(Open, TruncatedDatabaseIsMovedAside)
{
    TempDir dir;
    const fs::path file = dir / "progress.db";
    {
        auto store = Store::open(file);
        ASSERT_TRUE(store);
        for (int i = 0; i < 200; ++i) {
            ASSERT_TRUE(store->recordKernelRun(kernelRunFromReport(
                {"m", "ex"}, std::string(2000, static_cast<char>('a' + i % 26)), test::sampleReport("pass", 1, 1))));
        }
    }
    ASSERT_FALSE(fs::exists(dir / "progress.db-wal")) << "the last close should have checkpointed the WAL";
    std::string bytes = test::readBytes(file);
    ASSERT_GT(bytes.size(), 200'000u);
    bytes.resize(bytes.size() / 2);
    test::writeBytes(file, bytes);
    auto opened = Store::open(file);
    expectMovedAside(opened, file, bytes);
}

TEST(Open, DatabaseCutInsideItsHeaderIsMovedAside)
{
    TempDir dir;
    const fs::path file = dir / "progress.db";
    {
        ASSERT_TRUE(Store::open(file));
    }
    std::string bytes = test::readBytes(file).substr(0, 60);
    test::writeBytes(file, bytes);
    auto opened = Store::open(file);
    expectMovedAside(opened, file, bytes);
}

TEST(Open, TwoCorruptFilesInOneMinuteGetDistinctNames)
{
    TempDir dir;
    const fs::path file = dir / "progress.db";
    test::writeBytes(file, std::string(4096, 'x'));
    auto first = Store::open(file);
    ASSERT_TRUE(first);
    const fs::path firstAside = first->openReport().movedAside;
    first = Store::open(dir / "unused.db"); // close the new database before damaging it
    test::writeBytes(file, std::string(4096, 'y'));
    auto second = Store::open(file);
    ASSERT_TRUE(second);
    ASSERT_FALSE(second->openReport().movedAside.empty());
    EXPECT_NE(second->openReport().movedAside, firstAside);
    EXPECT_EQ(test::readBytes(firstAside), std::string(4096, 'x'));
    EXPECT_EQ(test::readBytes(second->openReport().movedAside), std::string(4096, 'y'));
}

TEST(Open, EmptyFileIsANewDatabase)
{
    TempDir dir;
    test::writeBytes(dir / "progress.db", "");
    auto opened = Store::open(dir / "progress.db");
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_TRUE(opened->openReport().movedAside.empty());
    EXPECT_TRUE(opened->openReport().created);
}

} // namespace
} // namespace tkm::progress
