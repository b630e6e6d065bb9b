// `tkm-run --serve` speaks the worker protocol of docs/run-report.md: malformed requests get an error line and
// the worker keeps serving; compile works without a GPU; devices and run report a missing GPU cleanly.
#include "engine/runner/subprocess.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

using nlohmann::json;
using tkm::runner::ReadResult;
using tkm::runner::Subprocess;

namespace {

std::filesystem::path exerciseDir()
{
    return std::filesystem::path(std::getenv("TKM_CONTENT_DIR")) / "02-vector-add/exercises/vector-add";
}

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class WorkerProtocol : public ::testing::Test
{
protected:
    void SetUp() override
    {
        const char* run = std::getenv("TKM_RUN");
        ASSERT_NE(run, nullptr) << "TKM_RUN is set by tkm_add_test";
        ASSERT_NE(std::getenv("TKM_CONTENT_DIR"), nullptr);
        auto p = Subprocess::spawn(run, {"--serve"}, true);
        ASSERT_TRUE(p.ok()) << p.error().message;
        m_worker = std::move(*p);
    }

    // Sends one raw line; returns every message up to and including the final one (not "progress").
    std::vector<json> exchange(const std::string& line)
    {
        EXPECT_TRUE(m_worker.write(line + "\n").ok());
        std::vector<json> out;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        std::string reply;
        while (m_worker.readLine(reply, deadline) == ReadResult::Line) {
            json j = json::parse(reply, nullptr, false);
            EXPECT_FALSE(j.is_discarded()) << "every stdout line is JSON: " << reply;
            out.push_back(j);
            if (j.value("type", "") != "progress") {
                break;
            }
        }
        EXPECT_FALSE(out.empty()) << "no answer to " << line;
        return out;
    }

    json last(const std::string& line)
    {
        auto all = exchange(line);
        return all.empty() ? json() : all.back();
    }

    Subprocess m_worker;
};

} // namespace

TEST_F(WorkerProtocol, MalformedRequestsGetErrorsAndTheWorkerSurvives)
{
    struct Case
    {
        std::string line;
        json id;
        std::string needle;
    };
    const std::vector<Case> cases = {
        {"this is not json", nullptr, "not valid JSON"},
        {"[1, 2, 3]", nullptr, "not a JSON object"},
        {R"({"op": "ping"})", nullptr, "\"id\" is missing"},
        {R"({"id": 1})", 1, "\"op\" is missing"},
        {R"({"id": 2, "op": 7})", 2, "\"op\" is missing"},
        {R"({"id": 3, "op": "dance"})", 3, "unknown op \"dance\""},
        {R"({"id": 4, "op": "run"})", 4, "\"exercise\" is missing"},
        {R"({"id": 5, "op": "run", "exercise": "/x"})", 5, "\"source\" is missing"},
        {R"({"id": 6, "op": "compile", "exercise": 12, "source": ""})", 6, "\"exercise\" must be"},
        {R"({"id": 7, "op": "run", "exercise": "/x", "source": "", "meta": {"BLOCK_SIZE": "big"}})", 7,
         "BLOCK_SIZE must be an integer"},
        {R"({"id": 8, "op": "run", "exercise": "/x", "source": "", "meta": [1]})", 8, "\"meta\" must be"},
        {R"({"id": 9, "op": "run", "exercise": "/x", "source": "", "cases": "some"})", 9, "\"cases\" must be"},
        {R"({"id": "s", "op": "run", "exercise": "/x", "source": "", "measure": "yes"})", "s", "\"measure\""},
    };
    for (const auto& c : cases) {
        const json r = last(c.line);
        EXPECT_EQ(r.value("type", ""), "error") << c.line;
        EXPECT_EQ(r["id"], c.id) << c.line;
        EXPECT_NE(r.value("message", "").find(c.needle), std::string::npos) << c.line << " → " << r.dump();
    }
    const json pong = last(R"({"id": 99, "op": "ping"})");
    EXPECT_EQ(pong.value("type", ""), "pong");
    EXPECT_EQ(pong["id"], 99);
    // Blank lines are ignored, not answered.
    EXPECT_TRUE(m_worker.write("\n").ok());
    EXPECT_EQ(last(R"({"id": 100, "op": "ping"})")["id"], 100);
}

TEST_F(WorkerProtocol, CompileOpWorksWithoutAGpu)
{
    const json req = {{"id", 1},
                      {"op", "compile"},
                      {"exercise", exerciseDir().string()},
                      {"source", readFile(exerciseDir() / "solution.cu")},
                      {"source_name", "solution.cu"},
                      {"meta", {{"BLOCK_SIZE", 256}}}};
    const auto all = exchange(req.dump());
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front().value("type", ""), "progress");
    EXPECT_EQ(all.front().value("stage", ""), "compile");
    const json r = all.back();
    ASSERT_EQ(r.value("type", ""), "report") << r.dump();
    const json& rep = r["report"];
    EXPECT_EQ(rep.value("schema", ""), "tkm-run-report/1");
    EXPECT_EQ(rep.value("verdict", ""), "compiled") << rep.dump();
    EXPECT_EQ(rep["meta"]["BLOCK_SIZE"], 256);
    EXPECT_TRUE(rep["compile"]["ok"].get<bool>());
}

TEST_F(WorkerProtocol, SyntaxErrorGivesLineAndColumn)
{
    // Line 3, column 5 holds the undefined identifier.
    const std::string source = "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, "
                               "int n)\n{\n    msk = 1;\n}\n";
    const json req = {{"id", 2},
                      {"op", "compile"},
                      {"exercise", exerciseDir().string()},
                      {"source", source},
                      {"source_name", "kernel.cu"}};
    const json r = last(req.dump());
    const json& rep = r["report"];
    EXPECT_EQ(rep.value("verdict", ""), "compile_error") << rep.dump();
    ASSERT_FALSE(rep["compile"]["diagnostics"].empty());
    const json& d = rep["compile"]["diagnostics"][0];
    EXPECT_EQ(d.value("file", ""), "kernel.cu");
    EXPECT_EQ(d.value("line", 0), 3);
    EXPECT_EQ(d.value("column", 0), 5);
    EXPECT_EQ(d.value("severity", ""), "error");
    EXPECT_NE(rep.value("summary", "").find("kernel.cu:3:5: error"), std::string::npos) << rep.dump();
}

TEST_F(WorkerProtocol, DevicesOpReportsTheGpusOrWhyThereAreNone)
{
    const json r = last(R"({"id": 3, "op": "devices"})");
    ASSERT_EQ(r.value("type", ""), "report") << r.dump();
    const json& rep = r["report"];
    ASSERT_TRUE(rep.contains("devices"));
    if (rep["devices"].empty()) {
        EXPECT_EQ(rep.value("verdict", ""), "error");
        const std::string kind = rep["error"].value("kind", "");
        EXPECT_TRUE(kind == "no-gpu" || kind == "no-driver") << kind;
        EXPECT_GT(rep["error"].value("message", "").size(), 20u);
    } else {
        EXPECT_EQ(rep.value("verdict", ""), "pass");
        EXPECT_FALSE(rep["device"].value("name", "").empty());
        EXPECT_GT(rep["device"].value("theoretical_gbps", 0.0), 0.0);
    }
}

TEST_F(WorkerProtocol, RunWithoutAGpuCompilesAndSaysWhy)
{
    const json devices = last(R"({"id": 4, "op": "devices"})");
    if (!devices["report"]["devices"].empty()) {
        GTEST_SKIP() << "a GPU is present: tests/gpu covers running";
    }
    const json req = {{"id", 5},
                      {"op", "run"},
                      {"exercise", exerciseDir().string()},
                      {"source", readFile(exerciseDir() / "solution.cu")}};
    const json rep = last(req.dump())["report"];
    EXPECT_EQ(rep.value("verdict", ""), "compiled") << rep.dump();
    const std::string kind = rep["error"].value("kind", "");
    EXPECT_TRUE(kind == "no-gpu" || kind == "no-driver") << kind;
    EXPECT_FALSE(rep.contains("cases"));
}

TEST_F(WorkerProtocol, BadExerciseFolderIsABadSpecReport)
{
    const json r = last(R"({"id": 6, "op": "compile", "exercise": "/nonexistent/folder", "source": "x"})");
    const json& rep = r["report"];
    EXPECT_EQ(rep.value("verdict", ""), "error");
    EXPECT_EQ(rep["error"].value("kind", ""), "bad-spec");
    EXPECT_NE(rep["error"].value("message", "").find("exercise.json"), std::string::npos);
}

TEST_F(WorkerProtocol, EndOfInputEndsTheWorkerCleanly)
{
    m_worker.closeStdin();
    const auto e = m_worker.wait();
    EXPECT_TRUE(e.exited);
    EXPECT_EQ(e.exitCode, 0);
}
