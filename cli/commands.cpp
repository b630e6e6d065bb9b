#include "cli/commands.h"

#include "cli/print.h"
#include "engine/common/json_safe.h"
#include "engine/common/paths.h"
#include "engine/cuda/device.h"
#include "cli/bench_command.h"
#include "engine/problem/meta_text.h"
#include "engine/runner/runner.h"
#include "engine/runner/subprocess.h"
#include "engine/worker/client.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace tkm::cli {
namespace {

struct JobArgs
{
    std::string exercise;
    std::string kernel;
    std::vector<std::string> meta;
    std::string device = "auto";
    bool json = false;
};

void addJobArgs(CLI::App* cmd, JobArgs& a)
{
    cmd->add_option("exercise", a.exercise, "exercise folder (holds exercise.json)")->required();
    cmd->add_option("kernel", a.kernel, "kernel source file: CUDA C++ (.cu) or Triton (.py)")->required();
    cmd->add_option("--meta", a.meta, "meta-parameter value NAME=VALUE (repeatable), e.g. --meta BLOCK_SIZE=256");
    cmd->add_flag("--json", a.json, "print the JSON run report (docs/run-report.md)");
}

// Parses NAME=VALUE pairs; on a malformed one prints the sentence and returns nullopt.
std::optional<problem::MetaValues> parseMeta(const std::vector<std::string>& items)
{
    problem::MetaValues out;
    for (const auto& item : items) {
        const auto eq = item.find('=');
        int64_t value = 0;
        const char* begin = item.data() + (eq == std::string::npos ? 0 : eq + 1);
        const char* end = item.data() + item.size();
        const auto [ptr, ec] = std::from_chars(begin, end, value);
        if (eq == std::string::npos || eq == 0 || ec != std::errc() || ptr != end) {
            std::cerr << fmt::format("--meta {}: expected NAME=INTEGER, e.g. --meta BLOCK_SIZE=256\n", item);
            return std::nullopt;
        }
        out[item.substr(0, eq)] = value;
    }
    return out;
}

// Builds the job from the arguments; prints why and returns nullopt when the kernel file cannot be read.
std::optional<runner::Job> makeJob(const JobArgs& a, runner::Mode mode)
{
    auto meta = parseMeta(a.meta);
    if (!meta) {
        return std::nullopt;
    }
    const auto device = runner::parseDevice(a.device);
    if (!device) {
        std::cerr << fmt::format("--device {}: expected auto, cpu or gpu\n", a.device);
        return std::nullopt;
    }
    auto source = engine::readTextFile(a.kernel);
    if (!source) {
        std::cerr << source.error().message << "\n";
        return std::nullopt;
    }
    std::error_code ec;
    runner::Job job;
    job.exercise = std::filesystem::absolute(a.exercise, ec);
    job.source = std::move(*source);
    job.sourceName = std::filesystem::path(a.kernel).filename().string();
    job.meta = std::move(*meta);
    job.mode = mode;
    job.device = *device;
    return job;
}

void print(const report::RunReport& r, bool json)
{
    if (json) {
        std::cout << engine::dumpJson(nlohmann::json(r), 2) << "\n";
    } else {
        std::cout << formatReport(r);
    }
}

} // namespace

// Parses the --config values (one configuration each) and the --reset-to-zero names (repeatable, or
// comma-separated) into the job; prints why and returns false on a malformed one.
bool addTuning(runner::Job& job, const std::vector<std::string>& configs, const std::vector<std::string>& resets,
               bool resetGiven)
{
    for (const std::string& text : configs) {
        auto c = problem::parseMetaAssignments(text);
        if (!c) {
            std::cerr << "--config: " << c.error().message << "\n";
            return false;
        }
        job.configs.push_back(std::move(*c));
    }
    if (resetGiven) {
        std::vector<std::string> names;
        for (const std::string& item : resets) {
            std::size_t start = 0;
            while (start <= item.size()) {
                const std::size_t comma = std::min(item.find(',', start), item.size());
                if (comma > start) {
                    names.push_back(item.substr(start, comma - start));
                }
                start = comma + 1;
            }
        }
        job.resetToZero = std::move(names);
    }
    return true;
}

void registerRun(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<JobArgs>();
    auto timeout = std::make_shared<double>(10.0);
    auto noMeasure = std::make_shared<bool>(false);
    auto configs = std::make_shared<std::vector<std::string>>();
    auto resets = std::make_shared<std::vector<std::string>>();
    CLI::App* cmd = app.add_subcommand("run", "compile a kernel, run it on every case (CUDA on the GPU; Triton on the GPU, or on the CPU interpreter without one) and check it");
    addJobArgs(cmd, *args);
    cmd->add_option("--device", args->device,
                    "where to run: auto (CUDA on the GPU; Triton on the GPU when one is usable, else the CPU interpreter), cpu (the interpreter: "
                    "Triton only, correctness without timing), gpu")
        ->check(CLI::IsMember({"auto", "cpu", "gpu"}));
    cmd->add_option("--config", *configs,
                    "autotune: one configuration NAME=VALUE,NAME=VALUE (repeat for each; at least the exercise's "
                    "min_configs), e.g. --config BLOCK_SIZE=256,NUM_WARPS=2 --config BLOCK_SIZE=1024,NUM_WARPS=4")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--reset-to-zero", *resets,
                    "autotune: outputs zeroed before every launch, as @triton.autotune(reset_to_zero=[…]) "
                    "(repeatable or comma-separated), e.g. --reset-to-zero hist")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    auto deepCheck = std::make_shared<bool>(false);
    auto deepCase = std::make_shared<int>(-1);
    cmd->add_flag("--deep-check", *deepCheck,
                  "also run the first failing case (else --deep-check-case, else a small multi-block one) under "
                  "compute-sanitizer: memcheck, racecheck, synccheck, initcheck, on your lines");
    cmd->add_option("--deep-check-case", *deepCase, "the case index the deep check runs when no case fails")
        ->check(CLI::NonNegativeNumber);
    cmd->add_option("--timeout", *timeout,
                    "seconds a job may take before it is stopped (default 10; with --config 20 per configuration)")
        ->check(CLI::PositiveNumber);
    // Measuring is the default: only its opt-out is a flag.
    cmd->add_flag("--no-measure", *noMeasure,
                  "check the cases only: skip timing and the DRAM traffic measurement that follow a pass");
    cmd->callback([cmd, args, timeout, noMeasure, configs, resets, deepCheck, deepCase, &exitCode] {
        auto job = makeJob(*args, runner::Mode::Run);
        if (!job || !addTuning(*job, *configs, *resets, cmd->count("--reset-to-zero") > 0)) {
            exitCode = 2;
            return;
        }
        job->measure = !*noMeasure;
        worker::ClientOptions options;
        // A tuning job checks and times every configuration: by default allow 20 s for each.
        const double seconds = cmd->count("--timeout") == 0 && !job->configs.empty()
                                   ? 20.0 * static_cast<double>(job->configs.size())
                                   : *timeout;
        options.deadline = std::chrono::milliseconds(static_cast<int64_t>(std::llround(seconds * 1000)));
        if (*deepCheck || *deepCase >= 0) {
            job->deepCheck = true;
            if (*deepCase >= 0) {
                job->deepCheckCase = *deepCase;
            }
            // Each tool's run under compute-sanitizer has its own 120 s limit; progress comes between them.
            options.deadline = std::max(options.deadline, std::chrono::milliseconds(130000));
        }
        // The worker is this very executable: what runs the job is what the user started.
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        options.workerPath = ec ? runner::defaultTkmRunPath() : self;
        worker::Client client(options);
        const bool tty = ::isatty(STDERR_FILENO) != 0 && !args->json;
        const worker::JobResult result = client.run(*job, [tty](const runner::Progress& p) {
            if (tty) {
                std::cerr << "\r\033[K" << p.text << std::flush;
            }
        });
        if (tty) {
            std::cerr << "\r\033[K" << std::flush;
        }
        print(result.report, args->json);
        exitCode = result.report.verdict == report::Verdict::Pass ? 0 : 1;
    });
}

void registerCompile(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<JobArgs>();
    auto arch = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand("compile", "compile a kernel and check its signature (no GPU needed)");
    addJobArgs(cmd, *args);
    cmd->add_option("--arch", *arch, "target architecture, e.g. sm_90 (default: the GPU's, else sm_90)");
    cmd->callback([args, arch, &exitCode] {
        auto job = makeJob(*args, runner::Mode::CompileOnly);
        if (!job) {
            exitCode = 2;
            return;
        }
        if (!arch->empty()) {
            int cc = 0;
            const std::string digits = arch->rfind("sm_", 0) == 0 ? arch->substr(3) : *arch;
            const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), cc);
            if (ec != std::errc() || ptr != digits.data() + digits.size() || cc < 50) {
                std::cerr << fmt::format("--arch {}: expected an architecture such as sm_90\n", *arch);
                exitCode = 2;
                return;
            }
            job->computeCapability = cc;
        } else if (auto info = cuda::queryDevice(0)) {
            job->computeCapability = info->cc();
        }
        runner::Runner runner;
        const report::RunReport r = runner.run(*job);
        print(r, args->json);
        exitCode = r.verdict == report::Verdict::Compiled ? 0 : 1;
    });
}

void registerDevices(CLI::App& app, int& exitCode)
{
    auto json = std::make_shared<bool>(false);
    CLI::App* cmd = app.add_subcommand("devices", "list the GPUs the engine can use");
    cmd->add_flag("--json", *json, "print JSON");
    cmd->callback([json, &exitCode] {
        nlohmann::json j = {{"devices", nlohmann::json::array()}};
        auto list = cuda::listDevices();
        if (!list) {
            j["error"] = {{"kind", std::string(engine::errorKindName(list.error().kind))},
                          {"message", list.error().message}};
        } else {
            for (const auto& d : *list) {
                nlohmann::json dj = runner::toReportDevice(d);
                dj["ordinal"] = d.ordinal;
                dj["arch"] = d.arch();
                dj["memory_clock_khz"] = d.memoryClockKhz;
                dj["bus_width_bits"] = d.busWidthBits;
                j["devices"].push_back(std::move(dj));
            }
        }
        std::cout << (*json ? engine::dumpJson(j, 2) + "\n" : formatDevices(j));
        exitCode = list && !list->empty() ? 0 : 1;
    });
}

void registerBench(CLI::App& app, int& exitCode)
{
    CLI::App* cmd = app.add_subcommand("bench", "job turnaround and measurement accuracy (see cli/bench.h)");
    addBenchOptions(*cmd, exitCode, {"bench"});
}

} // namespace tkm::cli
