#pragma once
// The subcommands of tkm-run. Each register function adds one CLI11 subcommand whose callback stores its exit
// status in `exitCode`. `validate` is added by the top-level build when the pack library exists.

#include <CLI/CLI.hpp>

namespace tkm::cli {

/// `run <exercise-dir> <kernel.cu> [--meta K=V …] [--config K=V,K=V …] [--reset-to-zero OUT …] [--json]
/// [--timeout S] [--measure]`: through a worker (deadline, crash recovery); with --config a tuning job (every
/// configuration checked, then timed on the autotune shapes; the winner per shape printed); exit 0 only on pass.
void registerRun(CLI::App& app, int& exitCode);
/// `compile <exercise-dir> <kernel.cu> [--meta K=V …] [--arch sm_90] [--json]`: in-process, no GPU needed;
/// exit 0 when the kernel compiles.
void registerCompile(CLI::App& app, int& exitCode);
/// `devices [--json]`: GPUs with cc, SMs, L2, memory, theoretical bandwidth, or the no-GPU sentence.
void registerDevices(CLI::App& app, int& exitCode);
/// `validate <pack-or-folder> [--no-gpu] [--json] [--strict] [--no-compile] [--cc 90] [--timeout S]`:
/// modules/packs/validate.h; exit 0 valid (warnings allowed unless --strict), 1 errors, 2 unusable path.
void registerValidate(CLI::App& app, int& exitCode);
/// `bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu] …`: engine/measure/bench_command.h.
void registerBench(CLI::App& app, int& exitCode);

} // namespace tkm::cli
