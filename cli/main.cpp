// tkm-run: the engine's command line and its worker.
//   tkm-run run <exercise-dir> <kernel.cu|kernel.py> [--device auto|cpu|gpu] [--meta K=V …] [--config K=V,K=V …] [--reset-to-zero OUT …] [--json]
//               [--timeout S] [--no-measure]
//   tkm-run compile <exercise-dir> <kernel.cu|kernel.py> [--meta K=V …] [--arch sm_90] [--json]
//   tkm-run devices [--json]
//   tkm-run validate <pack-or-folder> [--no-gpu] [--json] [--strict] [--no-compile] [--cc 90] [--timeout S]
//   tkm-run bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu]
//   tkm-run --serve      worker: JSON lines on stdin/stdout (docs/run-report.md, "Worker protocol")
//   tkm-run --probe      internal: one fault-diagnosis re-run (engine/runner/diagnose.h)

#include "cli/commands.h"
#include "cli/worker_options.h"
#include "engine/runner/device_print.h"
#include "engine/runner/diagnose.h"

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
    tkm::cli::registerValidate(app, exitCode);
    CLI11_PARSE(app, argc, argv);
    // Device printf goes to file descriptor 1; keep it off the protocol channel and out of the printed report.
    tkm::runner::captureDevicePrintf();

    if (probeMode) {
        const int rc = tkm::runner::probeMain(std::cin, std::cout);
        std::cout.flush();
        // The probe may have faulted its context: skip driver teardown.
        std::_Exit(rc);
    }
    if (serveMode) {
        return tkm::cli::serveWorker();
    }
    if (app.get_subcommands().empty()) {
        std::cout << app.help();
        return 2;
    }
    return exitCode;
}
