#pragma once
// The `bench` command line (tkm-run bench, tkm-bench), parsed with CLI11, running bench.h:
//   bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu] [--worker PATH] [--target-ms MS]
//   bench --serve                    the worker loop (worker_options.h), used by the bench itself
//   bench --launch-once DIR FILE     internal: the process ncu profiles

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace tkm::cli {

/// Adds the bench options to `cmd` and its callback, which sets `exitCode`. `selfArgs`: the words that make this
/// executable run the bench ({"bench"} for tkm-run, {} for tkm-bench), for the worker and the ncu process.
void addBenchOptions(CLI::App& cmd, int& exitCode, std::vector<std::string> selfArgs);

} // namespace tkm::cli
