// engine/report: the run report of docs/run-report.md round-trips through JSON.

#include "engine/report/convert.h"
#include "engine/report/run_report.h"

#include "engine/common/paths.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tkm;
using nlohmann::json;

namespace {

// The example document in docs/run-report.md (the first ```json block).
json documentedExample()
{
    auto text = engine::readTextFile(std::filesystem::path(TKM_SOURCE_DIR) / "docs" / "run-report.md");
    EXPECT_TRUE(text.ok());
    const auto start = text->find("```json\n");
    const auto end = text->find("```", start + 8);
    return json::parse(text->substr(start + 8, end - start - 8));
}

} // namespace

TEST(Report, DocumentedExampleRoundTripsExactly)
{
    const json doc = documentedExample();
    const auto r = doc.get<report::RunReport>();
    EXPECT_EQ(r.schema, "tkm-run-report/1");
    EXPECT_EQ(r.verdict, report::Verdict::Pass);
    ASSERT_TRUE(r.compile.has_value());
    EXPECT_EQ(r.compile->diagnostics.at(0).column, 5);
    ASSERT_TRUE(r.compile->resources.has_value());
    EXPECT_EQ(r.compile->resources->maxThreadsPerBlock, 1024);
    ASSERT_EQ(r.cases.size(), 1u);
    EXPECT_TRUE(r.cases[0].outputs.at(0).firstMismatches.at(0).unwritten);
    EXPECT_EQ(r.cases[0].outputs.at(0).canaryBeforeStart, 0);
    EXPECT_EQ(r.cases[0].grid, (std::vector<int64_t>{2, 1, 1}));
    ASSERT_TRUE(r.fault.has_value());
    EXPECT_EQ(r.fault->caseName, "n = 1000");
    ASSERT_TRUE(r.traffic.has_value());
    EXPECT_EQ(r.traffic->dramReadBytes, 536900000);
    EXPECT_EQ(r.device->memoryBytes, 150000000000);
    EXPECT_EQ(r.stagesMs.at("total"), 280.0);
    // Every documented field is carried: writing it back gives the same document.
    EXPECT_EQ(json(r), doc) << json(r).dump(2);
}

TEST(Report, AbsentStagesStayAbsent)
{
    report::RunReport r;
    r.engineVersion = "0.1.0";
    r.created = report::utcNow();
    r.verdict = report::Verdict::CompileError;
    report::CompileInfo c;
    c.arch = "sm_90";
    c.diagnostics.push_back({"kernel.cu", 3, 7, "error", "identifier \"msk\" is undefined"});
    r.compile = c;
    const json j = r;
    EXPECT_EQ(j.at("schema"), "tkm-run-report/1");
    EXPECT_FALSE(j.contains("cases"));
    EXPECT_FALSE(j.contains("timing"));
    EXPECT_FALSE(j.contains("fault"));
    EXPECT_FALSE(j.contains("summary"));
    EXPECT_FALSE(j.at("compile").contains("resources"));
    EXPECT_EQ(j.dump().find("null"), std::string::npos);
    EXPECT_EQ(r.created.size(), 20u);
    EXPECT_EQ(r.created.back(), 'Z');
    const auto back = j.get<report::RunReport>();
    EXPECT_EQ(json(back), j);
    EXPECT_FALSE(back.timing.has_value());
}

TEST(Report, NonFiniteValuesTravelAsStrings)
{
    report::MismatchInfo m{{3, 4}, false, std::nan(""), std::numeric_limits<double>::infinity()};
    const json j = m;
    EXPECT_EQ(j.at("got"), "nan");
    EXPECT_EQ(j.at("expected"), "inf");
    const auto back = j.get<report::MismatchInfo>();
    EXPECT_TRUE(std::isnan(back.got));
    EXPECT_TRUE(std::isinf(back.expected));
    EXPECT_FALSE(back.unwritten);
}

TEST(Report, RejectsOtherDocuments)
{
    EXPECT_THROW(json::parse(R"json({"schema": "something/1", "verdict": "pass"})json").get<report::RunReport>(),
                 json::exception);
    EXPECT_THROW(json::parse(R"json({"schema": "tkm-run-report/1"})json").get<report::RunReport>(), json::exception);
}

TEST(Report, VerdictsKeepTheirWireNames)
{
    // docs/run-report.md, "verdict": the enum's names are exactly the schema's strings, both ways.
    using report::Verdict;
    const std::vector<std::pair<Verdict, std::string>> table = {
        {Verdict::Pass, "pass"},         {Verdict::Fail, "fail"},
        {Verdict::Fault, "fault"},       {Verdict::Timeout, "timeout"},
        {Verdict::CompileError, "compile_error"}, {Verdict::Compiled, "compiled"},
        {Verdict::Error, "error"}};
    for (const auto& [v, name] : table) {
        EXPECT_EQ(report::verdictName(v), name);
        EXPECT_EQ(report::verdictFromName(name), v);
        EXPECT_EQ(json(v), json(name));
        EXPECT_EQ(report::toRunVerdict(report::toConfigVerdict(v)), v);
    }
    EXPECT_EQ(report::verdictName(report::CaseVerdict::Skipped), "skipped");
    EXPECT_EQ(report::configVerdictFromName("skipped"), report::ConfigVerdict::Skipped);
    EXPECT_EQ(report::toRunVerdict(report::ConfigVerdict::Skipped), std::nullopt);
    EXPECT_EQ(report::verdictFromName("skipped"), std::nullopt);
    EXPECT_EQ(report::caseVerdictFromName("timeout"), std::nullopt);
}

TEST(Report, UnknownVerdictIsAParseError)
{
    json j = report::RunReport{.verdict = report::Verdict::Fail};
    j["verdict"] = "crashed";
    try {
        (void)j.get<report::RunReport>();
        FAIL() << "an unknown verdict must not parse";
    } catch (const json::exception& e) {
        EXPECT_NE(std::string(e.what()).find("unknown verdict \"crashed\""), std::string::npos) << e.what();
    }
    json c = report::CaseInfo{.name = "n = 1", .verdict = report::CaseVerdict::Pass};
    c["verdict"] = "compile_error";
    EXPECT_THROW((void)c.get<report::CaseInfo>(), json::exception);
}

TEST(Report, BuiltFromEngineResults)
{
    compile::CompileResult cr;
    cr.ok = true;
    cr.arch = "sm_90";
    cr.resources.known = true;
    cr.resources.registers = 16;
    cr.diagnostics.push_back({"kernel.cu", 2, 1, "warning", "variable \"pid\" was declared but never referenced"});
    const auto ci = report::toCompileInfo(cr);
    ASSERT_TRUE(ci.resources.has_value());
    EXPECT_EQ(ci.resources->registers, 16);
    EXPECT_EQ(ci.diagnostics.at(0).severity, "warning");
    check::OutputCheck oc;
    oc.buffer = "out";
    oc.checked = 1025;
    oc.mismatches = 1;
    oc.unwritten = 1;
    oc.firstMismatches.push_back({{1024}, 1024, true, 0, 0.53});
    const auto oi = report::toOutputInfo(oc);
    const json j = oi;
    EXPECT_EQ(j.at("first_mismatches").at(0).at("got"), "unwritten");
    EXPECT_EQ(j.at("canary_damage").at("before_start"), 0);
}
