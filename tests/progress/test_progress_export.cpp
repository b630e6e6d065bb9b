// CSV and JSON exports of the raw attempts: every record appears once with its fields, quoting is RFC 4180.
#include "modules/progress/export.h"
#include "modules/progress/store.h"
#include "tests/progress/test_util.h"

#include <gtest/gtest.h>

namespace tkm::progress {
namespace {

using test::TempDir;

/// A small RFC 4180 reader for checking the export: rows of fields.
std::vector<std::vector<std::string>> parseCsv(const std::string& text)
{
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                rows.back().back() += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                rows.back().back() += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.emplace_back(1);
            ++i;
        } else {
            rows.back().back() += c;
        }
    }
    if (rows.back().size() == 1 && rows.back()[0].empty()) {
        rows.pop_back();
    }
    return rows;
}

class ExportTest : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto opened = Store::open(m_dir / "progress.db");
        ASSERT_TRUE(opened) << opened.error().message;
        m_store.emplace(std::move(*opened));
        const ActivityRef m2{"02-vector-add", "quiz"};
        ASSERT_TRUE(store().recordQuizAnswer({0, m2, "q1", {0, 2}, false, 1'000}));
        ASSERT_TRUE(store().recordSpotPick({0, {"02-vector-add", "bug"}, {4}, true, 2'000}));
        ASSERT_TRUE(store().recordDragAttempt(
            {0, {"02-vector-add", "drag"}, {{"pid", "program"}, {"mask", "guard"}}, 1, 2, 3'000}));
        ASSERT_TRUE(store().recordStepCompletion({0, {"02-vector-add", "steps"}, 6, 4'000}));
        ASSERT_TRUE(store().recordHelpView({0, {"02-vector-add", "vector-add"}, HelpKind::Hint, 1, 5'000}));
        ASSERT_TRUE(store().recordHelpView({0, {"02-vector-add", "vector-add"}, HelpKind::Solution, 0, 6'000}));
        KernelRun run = kernelRunFromReport({"02-vector-add", "vector-add"}, "// a \"quoted\", multi-line\nsource\n",
                                            test::sampleReport("pass", 0.243, 3300.0));
        run.atMs = 7'000;
        ASSERT_TRUE(store().recordKernelRun(run));
        ASSERT_TRUE(store().addTimeSpent({"02-vector-add", "quiz"}, 90.0, 100'000));
        ASSERT_TRUE(store().setPosition({"02-vector-add", "vector-add"}, 8'000));
    }
    Store& store() { return *m_store; }

    TempDir m_dir;
    std::optional<Store> m_store;
};

TEST_F(ExportTest, CsvHasOneRowPerRecordWithItsFields)
{
    auto csv = exportCsv(store());
    ASSERT_TRUE(csv) << csv.error().message;
    EXPECT_EQ(csv->substr(0, csvHeader().size() + 2), std::string(csvHeader()) + "\r\n");
    const auto rows = parseCsv(*csv);
    ASSERT_EQ(rows.size(), 9u); // header + 8 records
    for (const auto& row : rows) {
        EXPECT_EQ(row.size(), 17u);
    }
    // Oldest first; time spans sort by their start (100 s - 90 s = 10 s).
    EXPECT_EQ(rows[1][0], "quiz");
    EXPECT_EQ(rows[1][2], "02-vector-add");
    EXPECT_EQ(rows[1][3], "quiz");
    EXPECT_EQ(rows[1][4], "q1");
    EXPECT_EQ(rows[1][5], "1970-01-01T00:00:01.000Z");
    EXPECT_EQ(rows[1][6], "0");
    EXPECT_EQ(rows[1][15], "[0,2]");
    EXPECT_EQ(rows[2][0], "spot-the-bug");
    EXPECT_EQ(rows[2][6], "1");
    EXPECT_EQ(rows[3][0], "drag-match");
    EXPECT_EQ(rows[3][7], "1/2");
    EXPECT_EQ(nlohmann::json::parse(rows[3][15]), (nlohmann::json{{"pid", "program"}, {"mask", "guard"}}));
    EXPECT_EQ(rows[4][0], "step-through");
    EXPECT_EQ(rows[4][7], "6 steps");
    EXPECT_EQ(rows[5][0], "hint");
    EXPECT_EQ(rows[5][4], "1");
    EXPECT_EQ(rows[6][0], "solution");
    const auto& run = rows[7];
    EXPECT_EQ(run[0], "kernel-run");
    EXPECT_EQ(run[4], "vector-add");
    EXPECT_EQ(run[8], "pass");
    EXPECT_EQ(run[9], "0.243");
    EXPECT_EQ(run[10], "3300");
    EXPECT_EQ(run[11], "536900000");
    EXPECT_EQ(run[12], "268440000");
    EXPECT_EQ(run[13], "NVIDIA H200");
    EXPECT_EQ(nlohmann::json::parse(run[15]), (nlohmann::json{{"BLOCK_SIZE", 1024}, {"NUM_WARPS", 4}}));
    EXPECT_EQ(run[16], "cuda"); // the sample report's language
    EXPECT_EQ(rows[8][16], "");  // only kernel runs have a track
    EXPECT_EQ(rows[8][0], "time");
    EXPECT_EQ(rows[8][14], "90");
    EXPECT_EQ(rows[8][5], "1970-01-01T00:00:10.000Z");
    // Fields with commas and quotes are quoted, quotes doubled.
    EXPECT_NE(csv->find("\"{\"\"BLOCK_SIZE\"\":1024,\"\"NUM_WARPS\"\":4}\""), std::string::npos);
}

TEST_F(ExportTest, JsonHasEveryRecordAndTheRunBodies)
{
    auto doc = exportJson(store());
    ASSERT_TRUE(doc) << doc.error().message;
    const nlohmann::json& j = *doc;
    EXPECT_EQ(j["schema"], "tkm-progress-export/1");
    EXPECT_EQ(j["schema_version"], kSchemaVersion);
    EXPECT_EQ(j["quiz_answers"].size(), 1u);
    EXPECT_EQ(j["quiz_answers"][0]["choices"], (nlohmann::json{0, 2}));
    EXPECT_EQ(j["quiz_answers"][0]["correct"], false);
    EXPECT_EQ(j["quiz_answers"][0]["time_utc"], "1970-01-01T00:00:01.000Z");
    EXPECT_EQ(j["spot_picks"][0]["lines"], (nlohmann::json{4}));
    EXPECT_EQ(j["drag_attempts"][0]["correct_count"], 1);
    EXPECT_EQ(j["drag_attempts"][0]["item_count"], 2);
    EXPECT_EQ(j["step_completions"][0]["step_count"], 6);
    ASSERT_EQ(j["help_views"].size(), 2u);
    EXPECT_EQ(j["help_views"][1]["kind"], "solution");
    ASSERT_EQ(j["kernel_runs"].size(), 1u);
    const auto& run = j["kernel_runs"][0];
    EXPECT_EQ(run["source"], "// a \"quoted\", multi-line\nsource\n");
    EXPECT_EQ(run["report"]["timing"]["median_ms"], 0.243);
    EXPECT_EQ(run["median_ms"], 0.243);
    EXPECT_EQ(run["ideal_bytes"], 805306368);
    EXPECT_EQ(run["ceiling_gbps"], 4250.0);
    EXPECT_EQ(run["device"], "NVIDIA H200");
    EXPECT_EQ(j["time_spans"][0]["seconds"], 90.0);
    EXPECT_EQ(j["position"]["activity_id"], "vector-add");
}

TEST_F(ExportTest, JsonWithoutBodiesLeavesSourcesOut)
{
    auto doc = exportJson(store(), ExportOptions{false});
    ASSERT_TRUE(doc);
    EXPECT_FALSE((*doc)["kernel_runs"][0].contains("source"));
    EXPECT_FALSE((*doc)["kernel_runs"][0].contains("report"));
    EXPECT_EQ((*doc)["kernel_runs"][0]["verdict"], "pass");
}

TEST_F(ExportTest, EmptyStoreExportsHeaderAndEmptyArrays)
{
    ASSERT_TRUE(store().resetAll());
    EXPECT_EQ(*exportCsv(store()), std::string(csvHeader()) + "\r\n");
    auto doc = *exportJson(store());
    EXPECT_TRUE(doc["quiz_answers"].empty());
    EXPECT_TRUE(doc["kernel_runs"].empty());
    EXPECT_TRUE(doc["position"].is_null());
}

TEST(FormatUtc, MillisecondsSinceEpochInIso8601)
{
    EXPECT_EQ(formatUtc(0), "1970-01-01T00:00:00.000Z");
    EXPECT_EQ(formatUtc(1'796'013'300'123), "2026-11-30T04:35:00.123Z");
}

} // namespace
} // namespace tkm::progress
