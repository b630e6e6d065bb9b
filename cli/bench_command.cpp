#include "cli/bench_command.h"

#include "cli/bench.h"
#include "cli/worker_options.h"

#include <iostream>
#include <memory>

namespace tkm::cli {

void addBenchOptions(CLI::App& cmd, int& exitCode, std::vector<std::string> selfArgs)
{
    struct Args
    {
        BenchOptions o;
        bool serve = false;
        std::vector<std::string> launchOnce;
    };
    auto a = std::make_shared<Args>();
    cmd.add_option("--runs", a->o.runs, "warm runs after the first (cold) one")->check(CLI::PositiveNumber);
    cmd.add_option("--exercise", a->o.exercise, "exercise folder (default: the vector-add exercise)");
    cmd.add_option("--kernel", a->o.kernel, "kernel file (default: the exercise's solution)");
    cmd.add_flag("--no-cold", [a](int64_t) { a->o.cold = false; }, "skip the cold-worker and app-start timings");
    cmd.add_flag("--no-triton", [a](int64_t) { a->o.triton = false; },
                 "skip the Triton row (the exercise's Triton solution on the GPU path)");
    cmd.add_flag("--no-ncu", [a](int64_t) { a->o.ncu = false; }, "skip the comparison with Nsight Compute");
    cmd.add_option("--worker", a->o.worker, "worker executable started with --serve (default: this one)");
    cmd.add_option("--target-ms", a->o.targetMs, "warm turnaround target [ms]")->check(CLI::PositiveNumber);
    cmd.add_flag("--serve", a->serve, "run as the bench's worker: JSON lines on stdin/stdout");
    cmd.add_option("--launch-once", a->launchOnce, "internal: launch the performance case once (for ncu)")
        ->expected(2)
        ->group(""); // hidden
    cmd.footer("Prints the turnaround of a job on a warm worker, split by stage, and (with ncu on PATH) our DRAM "
               "read bytes and duration next to Nsight Compute's.");
    cmd.callback([a, &exitCode, selfArgs = std::move(selfArgs)] {
        if (a->serve) {
            exitCode = serveWorker();
        } else if (!a->launchOnce.empty()) {
            exitCode = launchPerformanceCaseOnce(a->launchOnce[0], a->launchOnce[1], std::cerr);
        } else {
            exitCode = runBench(a->o, std::cout, selfArgs);
        }
    });
}

} // namespace tkm::cli
