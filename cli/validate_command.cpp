// `tkm-run validate <pack-or-folder> [--no-gpu] [--json] [--strict]`: content and pack validation for an instructor's
// own CI: schema, NVRTC compiles, weak-case warnings and, on a machine with a GPU, the verdict table of every exercise
// (docs/packs.md, "Validation"). Built into tkm-run only when the course and pack libraries are part of the build
// (top-level CMakeLists.txt).

#include "cli/commands.h"
#include "engine/runner/subprocess.h"
#include "engine/worker/client.h"
#include "modules/packs/validate.h"

#include "engine/common/json_safe.h"

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

namespace tkm::cli {

namespace {

struct ValidateArgs
{
    std::string path;
    bool noCompile = false;
    bool noGpu = false;
    bool json = false;
    bool strict = false;
    bool quiet = false;
    int cc = 90;
    double timeout = 10.0;
};

nlohmann::json diagnosticJson(const course::Diagnostic& d)
{
    return {{"file", d.file.string()},
            {"line", d.line},
            {"column", d.column},
            {"severity", d.severity == course::Severity::Error ? "error" : "warning"},
            {"message", d.message}};
}

std::string cell(const std::string& s, std::size_t width)
{
    if (s.size() <= width) {
        return s + std::string(width - s.size(), ' ');
    }
    return s.substr(0, width - 1) + "~";
}

// One table per exercise: source, expected, got, result.
void printVerdicts(const packs::ExerciseCheck& check, bool triton)
{
    std::cout << "\n" << (check.id.empty() ? check.folder.filename().string() : check.id)
              << (triton ? " — Triton track on the CPU interpreter\n" : " — GPU verdicts\n");
    std::cout << "  " << cell("source", 30) << " " << cell("expected", 36) << " " << cell("got", 44) << " result\n";
    for (const packs::SourceCheck& s : check.sources) {
        if (s.role == packs::SourceRole::Reference || s.triton != triton) {
            continue;
        }
        const std::string result = s.ok() ? "ok" : "FAIL";
        std::string got = s.got;
        if (s.role == packs::SourceRole::Solution && s.maxAbsError) {
            got += fmt::format(" (max err {:.1e})", *s.maxAbsError);
        }
        std::cout << "  " << cell(s.file, 30) << " " << cell(s.expected, 36) << " " << cell(got, 44) << " " << result
                  << "\n";
    }
}

void printText(const packs::ValidationResult& result, const packs::GpuStatus& gpu, int errors, int warnings)
{
    for (const course::Diagnostic& d : result.diagnostics) {
        std::cout << d.format() << '\n';
    }
    bool anyRan = false;
    for (const packs::ExerciseCheck& check : result.exercises) {
        if (check.gpuRan) {
            printVerdicts(check, false);
            anyRan = true;
        }
        if (check.tritonRan) {
            printVerdicts(check, true);
        }
    }
    if (anyRan) {
        std::cout << "\nGPU: " << gpu.device << "\n";
    } else if (!result.exercises.empty()) {
        std::cout << "GPU verdicts not run: " << gpu.reason << "\n";
    }
    std::cout << (errors == 0 ? "valid: " : "invalid: ") << result.modules << " module(s), " << result.exercises.size()
              << " exercise(s), " << result.sourcesCompiled << " exercise source(s) compiled, " << errors
              << " error(s), " << warnings << " warning(s)\n";
}

void printJson(const ValidateArgs& args, const packs::ValidationResult& result, const packs::GpuStatus& gpu, int errors,
               int warnings)
{
    nlohmann::json j = {{"schema", "tkm-validate/1"},
                        {"path", args.path},
                        {"exit_code", result.exitCode},
                        {"valid", errors == 0},
                        {"modules", result.modules},
                        {"sources_compiled", result.sourcesCompiled},
                        {"errors", errors},
                        {"warnings", warnings},
                        {"gpu", {{"available", gpu.available}, {"device", gpu.device}, {"reason", gpu.reason}}}};
    j["diagnostics"] = nlohmann::json::array();
    for (const course::Diagnostic& d : result.diagnostics) {
        j["diagnostics"].push_back(diagnosticJson(d));
    }
    j["exercises"] = nlohmann::json::array();
    for (const packs::ExerciseCheck& check : result.exercises) {
        j["exercises"].push_back(packs::toJson(check));
    }
    std::cout << engine::dumpJson(j, 2) << '\n';
}

void runValidate(const ValidateArgs& args, int& exitCode)
{
    packs::ValidateOptions options;
    options.compile = !args.noCompile;
    options.computeCapability = args.cc;
    options.strict = args.strict;
    if (!args.quiet) {
        options.progress = [](const std::string& line) { std::cerr << line << '\n'; };
    }
    packs::GpuStatus gpu;
    std::unique_ptr<worker::Client> client;
    if (args.noGpu) {
        gpu.reason = "not asked for (--no-gpu).";
    } else {
        worker::ClientOptions co;
        // The worker is this very executable.
        std::error_code ec;
        const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
        co.workerPath = ec ? runner::defaultTkmRunPath() : self;
        co.deadline = std::chrono::milliseconds(static_cast<int64_t>(std::llround(args.timeout * 1000)));
        client = std::make_unique<worker::Client>(co);
        gpu = packs::probeGpu(*client);
        if (gpu.available) {
            options.gpu = client.get();
        } else {
            gpu.reason = "the GPU verdicts need an NVIDIA GPU (" + gpu.reason + ")";
        }
    }
    const packs::ValidationResult result = packs::validatePackOrFolder(args.path, options);
    int errors = 0;
    for (const course::Diagnostic& d : result.diagnostics) {
        errors += d.severity == course::Severity::Error ? 1 : 0;
    }
    const int warnings = static_cast<int>(result.diagnostics.size()) - errors;
    if (args.json) {
        printJson(args, result, gpu, errors, warnings);
    } else {
        printText(result, gpu, errors, warnings);
    }
    exitCode = result.exitCode;
}

} // namespace

void registerValidate(CLI::App& app, int& exitCode)
{
    auto args = std::make_shared<ValidateArgs>();
    CLI::App* cmd = app.add_subcommand(
        "validate", "check a .tkmpack, a pack folder, a content root, a module or an exercise folder: schema, NVRTC "
                    "compiles, weak-case warnings and, with a GPU, the solution/bug-variant/starter verdicts");
    cmd->add_option("path", args->path, "what to check")->required();
    cmd->add_flag("--no-compile", args->noCompile, "check the schema only; do not compile the exercise sources");
    cmd->add_flag("--no-gpu", args->noGpu, "do not run the GPU verdicts even when a GPU is present");
    cmd->add_flag("--json", args->json, "print the result as JSON (docs/packs.md, \"tkm-run validate --json\")");
    cmd->add_flag("--strict", args->strict, "warnings (weak cases, content warnings) fail the validation too");
    cmd->add_flag("--quiet", args->quiet, "no progress lines on stderr");
    cmd->add_option("--cc", args->cc, "compute capability to compile for, major*10+minor (default 90 = sm_90)")
        ->check(CLI::Range(50, 120));
    cmd->add_option("--timeout", args->timeout, "seconds one GPU run may take before it is stopped (default 10)")
        ->check(CLI::PositiveNumber);
    cmd->callback([args, &exitCode] { runValidate(*args, exitCode); });
}

} // namespace tkm::cli
