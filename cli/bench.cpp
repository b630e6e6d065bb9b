#include "cli/bench.h"

#include "engine/common/paths.h"
#include "engine/compile/compiler.h"
#include "engine/cuda/context.h"
#include "engine/cuda/module.h"
#include "engine/measure/perf_case.h"
#include "engine/problem/spec.h"
#include "engine/runner/subprocess.h"
#include "engine/worker/client.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <unistd.h>

namespace tkm::cli {
namespace {

using Clock = std::chrono::steady_clock;

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string fixed(double v, int digits = 1)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string pad(const std::string& s, size_t width)
{
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

/// Splits one CSV line with double-quoted fields.
std::vector<std::string> csvFields(const std::string& line)
{
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted) {
            out.push_back(cur);
            cur.clear();
        } else
            cur += c;
    }
    out.push_back(cur);
    return out;
}

std::filesystem::path findOnPath(const std::string& exe)
{
    const char* path = std::getenv("PATH");
    if (!path)
        return {};
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        const auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / exe;
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return {};
}

std::string selfExe()
{
    char self[4096] = {};
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    return n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string("tkm-bench");
}

struct Exercise
{
    std::filesystem::path dir;
    std::filesystem::path kernelFile;
    problem::ExerciseSpec spec;
    std::string source;
};

engine::Expected<Exercise> loadExercise(const std::filesystem::path& dirIn, const std::filesystem::path& kernelIn)
{
    Exercise e;
    e.dir = dirIn.empty() ? engine::contentDir() / "02-vector-add" / "exercises" / "vector-add" : dirIn;
    auto spec = problem::loadSpec(e.dir);
    if (!spec)
        return spec.error();
    e.spec = std::move(*spec);
    e.kernelFile = kernelIn.empty() ? e.spec.path(e.spec.solution) : kernelIn;
    auto src = engine::readTextFile(e.kernelFile);
    if (!src)
        return src.error();
    e.source = std::move(*src);
    if (!e.spec.performance)
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "The exercise " + e.spec.id + " has no performance case: there is nothing to time.");
    return e;
}

void printNcu(const BenchOptions& o, const Exercise& e, const report::RunReport& rep, std::ostream& out,
              const std::vector<std::string>& selfPrefix)
{
    const auto ncu = findOnPath("ncu");
    if (!o.ncu)
        return;
    if (ncu.empty()) {
        out << "\nNsight Compute (ncu) is not on PATH: no comparison.\n";
        return;
    }
    std::vector<std::string> args{"--clock-control",
                                  "none",
                                  "--metrics",
                                  "dram__bytes_read.sum,gpu__time_duration.sum",
                                  "--csv",
                                  "--print-units",
                                  "base",
                                  "-k",
                                  "regex:^" + e.spec.kernel + "$",
                                  "-c",
                                  "1",
                                  selfExe()};
    args.insert(args.end(), selfPrefix.begin(), selfPrefix.end());
    args.insert(args.end(), {"--launch-once", e.dir.string(), e.kernelFile.string()});
    auto proc = runner::Subprocess::spawn(ncu, args, true);
    if (!proc) {
        out << "\nncu could not be started: " << proc.error().message << "\n";
        return;
    }
    proc->closeStdin();
    std::string csv, line;
    const auto deadline = Clock::now() + std::chrono::seconds(120);
    while (proc->readLine(line, deadline) == runner::ReadResult::Line)
        csv += line + "\n";
    const runner::ExitInfo ex = proc->wait();
    const double ncuBytes = ncuMetric(csv, "dram__bytes_read.sum");
    const double ncuNs = ncuMetric(csv, "gpu__time_duration.sum");
    if (ncuBytes < 0 || ncuNs < 0) {
        out << "\nncu gave no metrics (" << ex.describe() << "). Its output:\n" << csv;
        return;
    }
    const double ourBytes = rep.traffic && rep.traffic->dramReadBytes ? double(*rep.traffic->dramReadBytes) : -1;
    const double ourMedian = rep.timing ? rep.timing->medianMs : -1;
    const double ourCupti = rep.traffic && rep.traffic->durationMs ? *rep.traffic->durationMs : -1;
    const double ncuMs = ncuNs * 1e-6;
    auto diff = [](double a, double b) { return b > 0 && a >= 0 ? 100.0 * (a - b) / b : 0.0; };
    out << "\nPerformance case vs Nsight Compute (" << ncu.string() << ", --clock-control none)\n";
    out << "  metric                    ours            ncu       diff   limit  ok\n";
    const bool bytesOk = ourBytes >= 0 && std::abs(diff(ourBytes, ncuBytes)) <= 2.0;
    out << "  dram__bytes_read.sum " << pad(fixed(ourBytes, 0), 14) << pad(fixed(ncuBytes, 0), 15)
        << pad(fixed(diff(ourBytes, ncuBytes), 2) + " %", 11) << "     2 %  " << (bytesOk ? "yes" : "NO") << "\n";
    const bool timeOk = ourMedian >= 0 && std::abs(diff(ourMedian, ncuMs)) <= 3.0;
    out << "  duration (events) ms " << pad(fixed(ourMedian, 4), 14) << pad(fixed(ncuMs, 4), 15)
        << pad(fixed(diff(ourMedian, ncuMs), 2) + " %", 11) << "     3 %  " << (timeOk ? "yes" : "NO") << "\n";
    if (ourCupti >= 0)
        out << "  duration (CUPTI) ms  " << pad(fixed(ourCupti, 4), 14) << pad(fixed(ncuMs, 4), 15)
            << pad(fixed(diff(ourCupti, ncuMs), 2) + " %", 11) << "\n";
}

// One job on a fresh worker: wall time and the report.
struct TimedJob
{
    double wallMs = 0;
    worker::JobResult result;
};

TimedJob timedRun(worker::Client& client, const runner::Job& job)
{
    const auto t0 = Clock::now();
    TimedJob t;
    t.result = client.run(job);
    t.wallMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
    return t;
}

std::string stageList(const report::RunReport& r)
{
    std::string text;
    for (const auto& [k, v] : r.stagesMs)
        text += (text.empty() ? "" : ", ") + k + " " + fixed(v);
    return text;
}

} // namespace

bool printColdStart(const worker::ClientOptions& co, const runner::Job& job, std::ostream& out)
{
    {
        // Fills the disk caches (CUBINs, calibration) as any earlier session of the app would have.
        worker::Client prime(co);
        const TimedJob t = timedRun(prime, job);
        out << "Priming the disk caches (first job ever on this machine): " << fixed(t.wallMs) << " ms, verdict "
            << report::verdictName(t.result.report.verdict) << "\n";
        if (t.result.report.verdict != report::Verdict::Pass) {
            out << "bench: the job did not pass: " << t.result.report.summary << "\n";
            return false;
        }
    }
    {
        worker::Client cold(co);
        const TimedJob t = timedRun(cold, job);
        out << "Cold worker, warm disk cache: first job " << fixed(t.wallMs) << " ms (target 1500 ms: "
            << (t.wallMs <= 1500 ? "meets" : "MISSES") << "); stages: " << stageList(t.result.report) << "\n";
    }
    {
        // What the app does: warm the worker when it opens, then the learner's first and second Run.
        worker::Client app(co);
        const auto t0 = Clock::now();
        auto warm = app.warm(job.exercise);
        const double warmMs = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        if (!warm) {
            out << "App start: the warm-up failed: " << warm.error().message << "\n";
            return true;
        }
        const TimedJob first = timedRun(app, job);
        const TimedJob second = timedRun(app, job);
        out << "App start: warm-up " << fixed(warmMs) << " ms (" << stageList(*warm) << "); first Run "
            << fixed(first.wallMs) << " ms, second Run " << fixed(second.wallMs) << " ms: the first is "
            << (first.wallMs <= second.wallMs * 1.1 ? "as fast as" : "SLOWER than") << " the second\n";
        out << "  first Run stages: " << stageList(first.result.report) << "\n";
    }
    return true;
}

double ncuMetric(const std::string& csv, const std::string& metric)
{
    std::stringstream ss(csv);
    std::string line;
    int nameCol = -1;
    int valueCol = -1;
    while (std::getline(ss, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line.front() != '"')
            continue; // ==PROF== lines and the profiled program's own output
        const auto f = csvFields(line);
        if (nameCol < 0) {
            for (size_t i = 0; i < f.size(); ++i) {
                if (f[i] == "Metric Name")
                    nameCol = static_cast<int>(i);
                if (f[i] == "Metric Value")
                    valueCol = static_cast<int>(i);
            }
            continue;
        }
        if (valueCol < 0 || static_cast<int>(f.size()) <= std::max(nameCol, valueCol) || f[nameCol] != metric)
            continue;
        std::string v;
        for (char c : f[valueCol])
            if (c != ',')
                v += c;
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (end != v.c_str())
            return d;
    }
    return -1;
}

int launchPerformanceCaseOnce(const std::filesystem::path& exercise, const std::filesystem::path& kernel,
                              std::ostream& err)
{
    auto fail = [&](const engine::Error& e) {
        err << "launch-once: " << e.message << (e.detail.empty() ? "" : " (" + e.detail + ")") << "\n";
        return 1;
    };
    auto e = loadExercise(exercise, kernel);
    if (!e)
        return fail(e.error());
    auto ctx = cuda::Context::create(0);
    if (!ctx)
        return fail(ctx.error());
    auto stream = cuda::Stream::create();
    if (!stream)
        return fail(stream.error());
    auto meta = problem::resolveMeta(e->spec, {});
    if (!meta)
        return fail(meta.error());
    auto compiled = compile::compileKernel(
        compile::learnerRequest(e->spec, *meta, e->source, e->kernelFile.filename().string(), ctx->info().cc()));
    if (!compiled)
        return fail(compiled.error());
    if (!compiled->ok)
        return fail(engine::makeError(engine::ErrorKind::BadInput, "does not compile: " + compiled->firstError()));
    auto module = cuda::Module::load(compiled->cubin);
    if (!module)
        return fail(module.error());
    auto k = module->kernel(compiled->loweredName);
    if (!k)
        return fail(k.error());
    auto measurer = measure::Measurer::create(*ctx, /*withTraffic=*/false);
    if (!measurer)
        return fail(measurer.error());
    auto pc = measure::PerfCase::create(**measurer, e->spec, *meta, *e->spec.performance, -1);
    if (!pc)
        return fail(pc.error());
    auto w = (*pc)->workload(*k, (*pc)->instance().launch, e->spec.kernel);
    if (!w)
        return fail(w.error());
    const CUstream s = stream->handle();
    for (auto st : {(*pc)->resetOutputs(s), (*measurer)->flushL2(s), w->launch(s), stream->synchronize()})
        if (!st)
            return fail(st.error());
    return 0;
}

bool printTritonRow(const worker::ClientOptions& co, const runner::Job& cudaJob, const BenchOptions& o,
                    std::ostream& out)
{
    auto spec = problem::loadSpec(cudaJob.exercise);
    if (!spec || !spec->triton) {
        out << "Triton row: " << (spec ? "the exercise has no Triton track" : spec.error().message) << "\n";
        return false;
    }
    const std::filesystem::path file = spec->path(spec->triton->solution);
    auto src = engine::readTextFile(file);
    if (!src) {
        out << "Triton row: " << src.error().message << "\n";
        return false;
    }
    runner::Job job = cudaJob;
    job.source = std::move(*src);
    job.sourceName = file.filename().string();
    job.device = runner::Device::Gpu;
    worker::Client client(co);
    std::vector<double> walls;
    double cold = 0;
    for (int run = 0; run <= o.runs; ++run) {
        const TimedJob t = timedRun(client, job);
        const auto& rep = t.result.report;
        if (rep.verdict != report::Verdict::Pass || rep.executor != "gpu") {
            out << "Triton row: " << job.sourceName << " did not pass on the GPU (verdict " << rep.verdict
                << ", executor " << (rep.executor.empty() ? "-" : rep.executor) << "): " << rep.summary << "\n";
            return false;
        }
        if (run == 0) {
            cold = t.wallMs;
        } else {
            walls.push_back(t.wallMs);
        }
    }
    const double m = median(walls);
    out << "Triton row (" << spec->id << ", " << job.sourceName << " on the GPU path): cold job " << fixed(cold)
        << " ms (fresh worker), warm turnaround median " << fixed(m) << " ms over " << walls.size() << " runs: "
        << (m <= o.tritonTargetMs ? "meets" : "MISSES") << " the " << fixed(o.tritonTargetMs, 0) << " ms target.\n";
    return true;
}

int runBench(const BenchOptions& o, std::ostream& out, const std::vector<std::string>& selfPrefix)
{
    auto e = loadExercise(o.exercise, o.kernel);
    if (!e) {
        out << "bench: " << e.error().message << "\n";
        return 1;
    }
    std::vector<double> walls;
    std::map<std::string, std::vector<double>> stageValues;
    report::RunReport last;
    const std::vector<std::string> stages{"compile", "cases", "timing", "traffic", "baselines", "measure", "total"};
    // The worker keeps its CUPTI session (and the GPU's counters) until it exits: it must be gone before ncu runs.
    worker::ClientOptions co;
    co.workerPath = o.worker;
    if (o.worker.empty()) {
        // This executable serves as the worker, with the measure phase installed (bench --serve).
        co.workerPath = selfExe();
        co.workerArgs = selfPrefix;
        co.workerArgs.push_back("--serve");
    }
    co.deadline = std::chrono::milliseconds(120000); // the cold job creates the context and the CUPTI session
    runner::Job job;
    job.exercise = e->dir;
    job.source = e->source;
    job.sourceName = e->kernelFile.filename().string();
    job.measure = true;
    if (o.cold && !printColdStart(co, job, out))
        return 1;
    {
        worker::Client client(co);

        out << "Turnaround of one job (submitted -> full report) for " << e->spec.id << " with "
            << e->kernelFile.filename().string() << ", worker " << co.workerPath.string() << "\n";
        out << "  run      wall";
        for (const auto& s : stages)
            out << pad(s, 10);
        out << "  overhead\n";
        for (int run = 0; run <= o.runs; ++run) {
            const auto t0 = Clock::now();
            worker::JobResult r = client.run(job);
            const double wall = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
            if (r.report.verdict != report::Verdict::Pass) {
                out << "bench: the job did not pass (verdict " << report::verdictName(r.report.verdict) << "): " << r.report.summary
                    << (r.report.error && r.report.error->message != r.report.summary ? " " + r.report.error->message
                                                                                      : std::string())
                    << "\n";
                return 1;
            }
            const auto& sm = r.report.stagesMs;
            out << "  " << (run == 0 ? std::string("cold") : pad(std::to_string(run), 4)) << pad(fixed(wall), 10);
            for (const auto& s : stages)
                out << pad(sm.count(s) ? fixed(sm.at(s)) : std::string("-"), 10);
            const double total = sm.count("total") ? sm.at("total") : 0;
            out << pad(fixed(wall - total), 10) << "\n";
            if (run > 0) {
                walls.push_back(wall);
                for (const auto& [k, v] : sm)
                    stageValues[k].push_back(v);
            }
            last = std::move(r.report);
        }
    } // the client ends the worker here
    out << "  median" << pad(fixed(median(walls)), 8);
    for (const auto& s : stages)
        out << pad(stageValues.count(s) ? fixed(median(stageValues[s])) : std::string("-"), 10);
    out << "\n";
    out << "  cases stage, median ms:";
    for (const char* s : {"inputs", "buffers", "launch", "reference", "check"}) {
        const std::string key = std::string("cases_") + s;
        out << " " << s << " " << (stageValues.count(key) ? fixed(median(stageValues[key])) : std::string("-"));
    }
    out << "\n";
    const double m = median(walls);
    out << "Warm turnaround median " << fixed(m) << " ms: " << (m <= o.targetMs ? "meets" : "MISSES") << " the "
        << fixed(o.targetMs, 0) << " ms target (real Triton's first call of the same kernel: 1217 ms on an H200).\n";
    if (!last.traffic || !last.traffic->available)
        out << "DRAM traffic: "
            << (last.traffic ? last.traffic->unavailableReason
                             : std::string("no measure phase in the report (is the "
                                           "worker's measure phase installed?)"))
            << "\n";
    if (last.timing)
        out << "Performance case: median " << fixed(last.timing->medianMs, 4) << " ms over " << last.timing->samples
            << " samples" << (last.timing->settled ? " (settled)" : " (budget)") << ", "
            << fixed(last.timing->achievedGbps.value_or(0), 0) << " GB/s\n";
    if (o.triton && !printTritonRow(co, job, o, out))
        return 1;
    printNcu(o, *e, last, out, selfPrefix);
    return 0;
}

} // namespace tkm::cli
