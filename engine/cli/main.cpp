// tkm-run: the engine's command line and its worker.
//   tkm-run run <exercise-dir> <kernel.cu> [--meta K=V …] [--config K=V,K=V …] [--reset-to-zero OUT …] [--json]
//               [--timeout S] [--no-measure]
//   tkm-run compile <exercise-dir> <kernel.cu> [--meta K=V …] [--arch sm_90] [--json]
//   tkm-run devices [--json]
//   tkm-run validate <pack-or-folder> [--no-gpu] [--json] [--strict] [--no-compile] [--cc 90] [--timeout S]
//   tkm-run bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu]
//   tkm-run --serve      worker: JSON lines on stdin/stdout (docs/run-report.md, "Worker protocol")
//   tkm-run --probe      internal: one fault-diagnosis re-run (engine/runner/diagnose.h)

#include "engine/cli/commands.h"
#include "engine/measure/autotune_phase.h"
#include "engine/measure/phase.h"
#include "engine/runner/diagnose.h"
#include "engine/worker/serve.h"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <filesystem>
#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"tkm-run: compile, run, check and measure GPU kernels for Triton Kernel Mastery"};
    app.require_subcommand(0, 1);
    bool serveMode = false;
    bool probeMode = false;
    app.add_flag("--serve", serveMode, "run as the app's worker: JSON lines on stdin/stdout");
    app.add_flag("--probe", probeMode, "internal: one fault-diagnosis re-run, JSON on stdin/stdout")
        ->group(""); // hidden
    int exitCode = 0;
    tkm::cli::registerRun(app, exitCode);
    tkm::cli::registerCompile(app, exitCode);
    tkm::cli::registerDevices(app, exitCode);
    tkm::cli::registerBench(app, exitCode);
#ifdef TKM_HAVE_VALIDATE
    tkm::cli::registerValidate(app, exitCode);
#endif
    CLI11_PARSE(app, argc, argv);

    if (probeMode) {
        const int rc = tkm::runner::probeMain(std::cin, std::cout);
        std::cout.flush();
        // The probe may have faulted its context: skip driver teardown.
        std::_Exit(rc);
    }
    if (serveMode) {
        tkm::runner::RunnerOptions options;
        std::error_code ec;
        options.probeExecutable = std::filesystem::read_symlink("/proc/self/exe", ec);
        options.measure = tkm::measure::makeMeasurePhase();
        options.autotune = tkm::measure::makeAutotunePhase();
        const int rc = tkm::worker::serve(std::cin, std::cout, std::move(options));
        std::cout.flush();
        if (rc == tkm::worker::kStickyExit) {
            // The context is unusable after a kernel fault; leave without touching it again.
            std::_Exit(rc);
        }
        return rc;
    }
    if (app.get_subcommands().empty()) {
        std::cout << app.help();
        return 2;
    }
    return exitCode;
}
