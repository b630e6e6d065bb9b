// checkExercise: spec → NVRTC compiles → weak-case warnings → GPU verdicts through the worker client.
#include "modules/packs/exercise_check.h"

#include "engine/common/paths.h"
#include "engine/problem/instance.h"
#include "engine/report/figures.h"
#include "engine/runner/runner.h"
#include "engine/worker/client.h"

#include <algorithm>

namespace tkm::packs {

namespace fs = std::filesystem;

namespace {

std::string quoted(const std::string& s)
{
    return "\"" + s + "\"";
}

void say(const ExerciseCheckOptions& options, const std::string& line)
{
    if (options.progress) {
        options.progress(line);
    }
}

// The rows of the table, before anything ran: solution, bugs, starter, reference.
std::vector<SourceCheck> sourceRows(const problem::ExerciseSpec& spec)
{
    auto row = [](SourceRole role, std::string file, std::string pointer, std::string expected) {
        SourceCheck r;
        r.role = role;
        r.file = std::move(file);
        r.pointer = std::move(pointer);
        r.expected = std::move(expected);
        return r;
    };
    std::vector<SourceCheck> rows{row(SourceRole::Solution, spec.solution, "/solution", "pass")};
    if (spec.firstStep) {
        rows.push_back(row(SourceRole::Solution, spec.firstStep->file, "/first_step/file", "pass"));
        rows.back().title = spec.firstStep->title;
    }
    for (std::size_t i = 0; i < spec.bugs.size(); ++i) {
        SourceCheck bug = row(SourceRole::Bug, spec.bugs[i].file, "/bugs/" + std::to_string(i) + "/file",
                              describeExpect(spec.bugs[i].expect));
        bug.title = spec.bugs[i].title;
        bug.bugIndex = static_cast<int>(i);
        bug.compileExpected = spec.bugs[i].expect.verdict != report::Verdict::CompileError;
        rows.push_back(std::move(bug));
    }
    rows.push_back(row(SourceRole::Starter, spec.starter, "/starter", "fail or fault"));
    // The reference is the judge of every run: compiled, not run on its own.
    rows.push_back(row(SourceRole::Reference, spec.reference.file, "/reference/file", ""));
    if (spec.triton) {
        const problem::TritonTrack& t = *spec.triton;
        std::vector<SourceCheck> tr{row(SourceRole::Solution, t.solution, "/triton/solution", "pass")};
        for (std::size_t i = 0; i < t.bugs.size(); ++i) {
            SourceCheck bug = row(SourceRole::Bug, t.bugs[i].file, "/triton/bugs/" + std::to_string(i) + "/file",
                                  describeExpect(t.bugs[i].expect));
            bug.title = t.bugs[i].title;
            bug.bugIndex = static_cast<int>(i);
            bug.compileExpected = t.bugs[i].expect.verdict != report::Verdict::CompileError;
            tr.push_back(std::move(bug));
        }
        tr.push_back(row(SourceRole::Starter, t.starter, "/triton/starter", "fail or fault"));
        // The Triton reference judges every Triton run; it is checked when the solution runs.
        tr.push_back(row(SourceRole::Reference, t.reference.file, "/triton/reference/file", ""));
        for (SourceCheck& r : tr) {
            r.triton = true;
            rows.push_back(std::move(r));
        }
    }
    return rows;
}

// The bug variant a row stands for.
const problem::Bug& bugOf(const problem::ExerciseSpec& spec, const SourceCheck& row)
{
    const auto& bugs = row.triton ? spec.triton->bugs : spec.bugs;
    return bugs[static_cast<std::size_t>(row.bugIndex)];
}

// The expectations of a run row, shared by the GPU and the CPU-interpreter paths.
void judgeRun(const problem::ExerciseSpec& spec, const report::RunReport& rep, SourceCheck& row)
{
    row.ran = true;
    row.verdict = rep.verdict;
    row.got = describeReport(rep);
    row.summary = rep.summary;
    for (const auto& c : rep.cases) {
        for (const auto& o : c.outputs) {
            row.maxAbsError = std::max(row.maxAbsError.value_or(0.0), o.maxAbsError);
            row.maxRelError = std::max(row.maxRelError.value_or(0.0), o.maxRelError);
        }
    }
    switch (row.role) {
    case SourceRole::Solution:
        if (rep.verdict != report::Verdict::Pass) {
            row.runProblem = "the solution must pass every case: " + rep.summary;
        }
        break;
    case SourceRole::Starter:
        if (rep.verdict != report::Verdict::Fail && rep.verdict != report::Verdict::Fault &&
            !(row.triton && rep.verdict == report::Verdict::CompileError)) {
            row.runProblem = rep.verdict == report::Verdict::Pass
                                 ? std::string("the starter already passes every case: leave the learner work to do")
                                 : "the starter should compile and fail without crashing: " + rep.summary;
        }
        break;
    case SourceRole::Bug:
        row.runProblem = expectationMismatch(bugOf(spec, row).expect, rep);
        break;
    case SourceRole::Reference:
        break;
    }
}

// A Triton row: parsed, checked and run on the CPU interpreter in this process (no GPU, no worker needed).
void runTritonRow(const problem::ExerciseSpec& spec, runner::Runner& cpu, SourceCheck& row)
{
    if (row.role == SourceRole::Reference) {
        return;
    }
    auto text = engine::readTextFile(spec.path(row.file));
    if (!text) {
        row.compileProblem = text.error().message;
        return;
    }
    runner::Job job;
    job.exercise = spec.dir;
    job.source = std::move(*text);
    job.sourceName = fs::path(row.file).filename().string();
    job.mode = runner::Mode::Run;
    job.device = runner::Device::Cpu;
    if (row.role == SourceRole::Bug) {
        job.resetToZero = bugOf(spec, row).resetToZero;
    }
    const report::RunReport rep = cpu.run(job);
    row.compileRan = true;
    row.compiled = rep.verdict != report::Verdict::CompileError;
    if (rep.compile) {
        for (const auto& d : rep.compile->diagnostics) {
            row.diagnostics.push_back({d.file, d.line, d.column, d.severity, d.message});
        }
    }
    if (row.compiled && !row.compileExpected) {
        row.compileProblem = "is declared compile_error but checks; make it fail to compile or change its "
                             "expected verdict.";
    } else if (!row.compiled && row.compileExpected && row.role != SourceRole::Starter) {
        row.compileProblem = rep.summary;
    }
    if (rep.verdict == report::Verdict::Error) {
        row.runProblem = rep.summary;
        row.ran = true;
        row.verdict = rep.verdict;
        row.got = report::verdictName(rep.verdict);
        return;
    }
    judgeRun(spec, rep, row);
}

void compileRow(const problem::ExerciseSpec& spec, const problem::MetaValues& meta, const ExerciseCheckOptions& options,
                SourceCheck& row)
{
    if (row.triton) {
        return; // checked and run on the CPU interpreter by runTritonRow
    }
    engine::Expected<compile::CompileRequest> request = engine::makeError(engine::ErrorKind::Internal, "");
    if (row.role == SourceRole::Reference) {
        request = compile::referenceRequest(spec, options.computeCapability);
    } else {
        auto text = engine::readTextFile(spec.path(row.file));
        if (!text) {
            row.compileProblem = text.error().message;
            return;
        }
        request = compile::learnerRequest(spec, meta, std::move(*text), fs::path(row.file).filename().string(),
                                          options.computeCapability);
    }
    if (!request) {
        row.compileProblem = request.error().message;
        return;
    }
    request->useCache = options.useCompileCache;
    auto result = compile::compileKernel(*request);
    row.compileRan = true;
    if (!result) {
        row.compileProblem = "NVRTC could not be used: " + result.error().message;
        return;
    }
    row.compiled = result->ok;
    for (const auto& d : result->diagnostics) {
        if (d.severity == "error" || d.severity == "warning") {
            row.diagnostics.push_back(d);
        }
    }
    if (row.compiled && !row.compileExpected) {
        row.compileProblem = "is declared compile_error but compiles; make it fail to compile or change its "
                             "expected verdict.";
    } else if (!row.compiled && row.compileExpected) {
        const std::string first = result->firstError();
        row.compileProblem =
            "does not compile" + (first.empty() ? std::string(" (see the compiler log)") : ": " + first);
    }
}

void runRow(const problem::ExerciseSpec& spec, worker::Client& client, SourceCheck& row)
{
    if (row.role == SourceRole::Reference || row.triton) {
        return;
    }
    if (row.compileRan && !row.compiled) {
        // It cannot run; the compile column already says why (or it was meant not to compile).
        row.verdict = report::Verdict::CompileError;
        row.got = report::verdictName(report::Verdict::CompileError);
        if (row.role == SourceRole::Bug) {
            row.runProblem = expectationMismatch(bugOf(spec, row).expect, report::RunReport{.verdict = report::Verdict::CompileError});
        }
        return;
    }
    auto text = engine::readTextFile(spec.path(row.file));
    if (!text) {
        row.runProblem = text.error().message;
        return;
    }
    runner::Job job;
    job.exercise = spec.dir;
    job.source = std::move(*text);
    job.sourceName = fs::path(row.file).filename().string();
    job.mode = runner::Mode::Run;
    job.measure = false;
    if (row.role == SourceRole::Bug) {
        job.resetToZero = bugOf(spec, row).resetToZero;
    }
    judgeRun(spec, client.run(job).report, row);
}

// The reason of a failing case by the engine's priority: unwritten > nan > mismatch > nondeterministic.
std::string failReason(const report::CaseInfo& c)
{
    for (const char* candidate : {"unwritten", "nan", "mismatch"}) {
        for (const auto& o : c.outputs) {
            const std::string k = candidate;
            const int64_t count = k == "unwritten" ? o.unwritten : k == "nan" ? o.nan : o.mismatches;
            if (count > 0) {
                return k;
            }
        }
    }
    return c.nondeterministic.value_or(false) ? "nondeterministic" : "";
}

nlohmann::json diagnosticsJson(const std::vector<compile::Diagnostic>& ds)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& d : ds) {
        out.push_back({{"file", d.file},
                       {"line", d.line},
                       {"column", d.column},
                       {"severity", d.severity},
                       {"message", d.message}});
    }
    return out;
}

} // namespace

std::string sourceRoleName(SourceRole role)
{
    switch (role) {
    case SourceRole::Solution:
        return "solution";
    case SourceRole::Bug:
        return "bug";
    case SourceRole::Starter:
        return "starter";
    case SourceRole::Reference:
        return "reference";
    }
    return "unknown";
}

bool ExerciseCheck::ok() const
{
    return specError.empty() &&
           std::all_of(sources.begin(), sources.end(), [](const SourceCheck& s) { return s.ok(); });
}

std::pair<std::string, std::string> splitSpecError(const std::string& message)
{
    std::string rest = message;
    const std::string label = "exercise.json: ";
    if (rest.rfind(label, 0) == 0) {
        rest = rest.substr(label.size());
    }
    if (!rest.empty() && rest.front() == '/') {
        const auto colon = rest.find(": ");
        if (colon != std::string::npos) {
            return {rest.substr(0, colon), rest.substr(colon + 2)};
        }
    }
    return {"/", rest};
}

std::string describeExpect(const problem::BugExpect& e)
{
    std::string s(report::verdictName(e.verdict));
    if (e.verdict == report::Verdict::Fault) {
        s += e.fault.empty() ? "" : " " + e.fault;
        s += e.buffer.empty() ? "" : " in " + e.buffer;
    } else if (e.verdict == report::Verdict::Fail) {
        s += e.reason.empty() ? "" : " (" + e.reason + ")";
        s += e.caseName.empty() ? "" : " in case " + quoted(e.caseName);
    }
    return s;
}

std::string describeReport(const report::RunReport& r)
{
    if (r.verdict == report::Verdict::Fault && r.fault) {
        problem::BugExpect e{.verdict = report::Verdict::Fault, .fault = r.fault->kind, .buffer = r.fault->buffer};
        return describeExpect(e);
    }
    if (r.verdict == report::Verdict::Fail) {
        if (const report::CaseInfo* c = report::firstFailingCase(r)) {
            problem::BugExpect e{.verdict = report::Verdict::Fail, .caseName = c->name, .reason = failReason(*c)};
            return describeExpect(e);
        }
    }
    return std::string(report::verdictName(r.verdict));
}

std::string expectationMismatch(const problem::BugExpect& expect, const report::RunReport& report)
{
    if (report.verdict != expect.verdict) {
        return "verdict " + std::string(report::verdictName(report.verdict)) +
               (report.summary.empty() ? "" : " (" + report.summary + ")") + ", expected " +
               std::string(report::verdictName(expect.verdict));
    }
    if (expect.verdict == report::Verdict::Fault && report.fault) {
        if (!expect.fault.empty() && report.fault->kind != expect.fault) {
            return "fault " + report.fault->kind + ", expected " + expect.fault;
        }
        if (!expect.buffer.empty() && report.fault->buffer != expect.buffer) {
            return "fault in buffer " + report.fault->buffer + ", expected " + expect.buffer;
        }
    }
    if (expect.verdict == report::Verdict::Fail) {
        const report::CaseInfo* first = report::firstFailingCase(report);
        if (!first) {
            return "verdict fail but no failing case in the report";
        }
        if (!expect.caseName.empty() && first->name != expect.caseName) {
            return "first failing case " + quoted(first->name) + ", expected " + quoted(expect.caseName);
        }
        if (!expect.reason.empty()) {
            const std::string reason = failReason(*first);
            if (reason != expect.reason) {
                return "case " + quoted(first->name) + " fails for the reason " + (reason.empty() ? "?" : reason) +
                       ", expected " + expect.reason + ": " + first->message;
            }
        }
    }
    return {};
}

GpuStatus probeGpu(worker::Client& client)
{
    GpuStatus status;
    const auto devices = client.devices();
    if (!devices) {
        status.reason = "the engine worker could not list devices: " + devices.error().message;
        return status;
    }
    if (!devices->contains("devices") || (*devices)["devices"].empty()) {
        const nlohmann::json error = devices->value("error", nlohmann::json::object());
        status.reason = error.contains("message") ? error["message"].get<std::string>() : "no NVIDIA GPU found";
        return status;
    }
    const nlohmann::json& d = (*devices)["devices"][0];
    status.available = true;
    status.device = d.value("name", std::string("GPU")) + " (cc " + d.value("cc", std::string("?")) + ")";
    return status;
}

ExerciseCheck checkExerciseSpec(const problem::ExerciseSpec& spec, const ExerciseCheckOptions& options)
{
    ExerciseCheck check;
    check.folder = spec.dir;
    check.id = spec.id;
    check.title = spec.title;
    check.sources = sourceRows(spec);
    if (options.compile) {
        auto meta = problem::resolveMeta(spec);
        if (!meta) {
            check.specError = meta.error().message;
            check.specErrorPointer = "/meta";
            return check;
        }
        for (SourceCheck& row : check.sources) {
            say(options, row.file + ": compiling");
            compileRow(spec, *meta, options, row);
        }
    }
    if (options.weakCases) {
        check.warnings = weakCaseWarnings(spec);
    }
    if (options.triton && spec.triton) {
        runner::Runner cpu;
        for (SourceCheck& row : check.sources) {
            if (row.triton && row.role != SourceRole::Reference) {
                say(options, row.file + ": running on the CPU interpreter");
                runTritonRow(spec, cpu, row);
                if (row.role == SourceRole::Bug && row.ran && row.verdict == report::Verdict::Pass) {
                    check.warnings.push_back({WeakKind::BugPasses, "/triton/bugs/" + std::to_string(row.bugIndex),
                                              row.file + " (" + row.title +
                                                  ") passes every case: the cases do not catch it; add a case that "
                                                  "does (a ragged size, negative inputs, a tighter tolerance)."});
                }
            }
        }
        check.tritonRan = true;
        // The Triton reference judged the solution's run: it checks when that run got to a verdict.
        auto find = [&](SourceRole role) {
            return std::find_if(check.sources.begin(), check.sources.end(),
                                [&](const SourceCheck& r) { return r.triton && r.role == role; });
        };
        auto ref = find(SourceRole::Reference);
        auto sol = find(SourceRole::Solution);
        if (ref != check.sources.end() && sol != check.sources.end() && sol->ran) {
            ref->compileRan = true;
            const bool refBroke = sol->verdict == report::Verdict::Error && sol->summary.find("reference") != std::string::npos;
            ref->compiled = !refBroke;
            if (refBroke) {
                ref->compileProblem = sol->summary;
            }
        }
    }
    if (options.gpu) {
        for (SourceCheck& row : check.sources) {
            if (row.triton) {
                continue;
            }
            if (row.role != SourceRole::Reference) {
                say(options, row.file + ": running on the GPU");
            }
            runRow(spec, *options.gpu, row);
            if (row.role == SourceRole::Bug && row.ran && row.verdict == report::Verdict::Pass) {
                check.warnings.push_back({WeakKind::BugPasses, "/bugs/" + std::to_string(row.bugIndex),
                                          row.file + " (" + row.title +
                                              ") passes every case: the cases do not catch it; add a case that "
                                              "does (a ragged size, negative inputs, a tighter tolerance)."});
            }
        }
        check.gpuRan = true;
    }
    return check;
}

ExerciseCheck checkExercise(const fs::path& folder, const ExerciseCheckOptions& options)
{
    auto spec = problem::loadSpec(folder);
    if (!spec) {
        ExerciseCheck check;
        check.folder = folder;
        std::tie(check.specErrorPointer, check.specError) = splitSpecError(spec.error().message);
        return check;
    }
    return checkExerciseSpec(*spec, options);
}

nlohmann::json toJson(const ExerciseCheck& check)
{
    nlohmann::json j = {{"folder", check.folder.string()},
                        {"id", check.id},
                        {"title", check.title},
                        {"ok", check.ok()},
                        {"gpu_ran", check.gpuRan},
                        {"triton_ran", check.tritonRan}};
    if (!check.specError.empty()) {
        j["spec_error"] = {{"pointer", check.specErrorPointer}, {"message", check.specError}};
    }
    j["sources"] = nlohmann::json::array();
    for (const SourceCheck& s : check.sources) {
        nlohmann::json row = {{"role", sourceRoleName(s.role)},
                              {"file", s.file},
                              {"pointer", s.pointer},
                              {"track", s.triton ? "triton" : "cuda"},
                              {"compile",
                               {{"ran", s.compileRan},
                                {"ok", s.compiled},
                                {"expected", s.compileExpected},
                                {"diagnostics", diagnosticsJson(s.diagnostics)},
                                {"problem", s.compileProblem}}},
                              {"expected", s.expected},
                              {"ran", s.ran},
                              {"ok", s.ok()}};
        if (!s.title.empty()) {
            row["title"] = s.title;
        }
        if (s.ran || s.verdict) {
            row["verdict"] = s.verdict ? report::verdictName(*s.verdict) : "";
            row["got"] = s.got;
            row["summary"] = s.summary;
            row["problem"] = s.runProblem;
        }
        if (s.maxAbsError) {
            row["max_abs_error"] = *s.maxAbsError;
            row["max_rel_error"] = s.maxRelError.value_or(0.0);
        }
        j["sources"].push_back(std::move(row));
    }
    j["warnings"] = nlohmann::json::array();
    for (const SpecWarning& w : check.warnings) {
        j["warnings"].push_back({{"kind", weakKindName(w.kind)}, {"pointer", w.pointer}, {"message", w.message}});
    }
    return j;
}

} // namespace tkm::packs
