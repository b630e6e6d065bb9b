#pragma once
// The `bench` subcommand for the command line (tkm-run bench, tkm-bench): parses its arguments and runs bench.h.
//   bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu] [--worker PATH] [--target-ms MS]
//   bench --launch-once DIR FILE     (internal: the process ncu profiles)

#include <iosfwd>
#include <string>
#include <vector>

namespace tkm::measure {

/// Runs the bench subcommand with `args` (the words after "bench"). Returns the process exit status; usage errors
/// print a sentence and the usage to `err` and return 2. `selfArgs`: see runBench() ({"bench"} for tkm-run).
int runBenchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                    const std::vector<std::string>& selfArgs = {"bench"});

} // namespace tkm::measure
