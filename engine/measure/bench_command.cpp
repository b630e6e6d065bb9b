#include "engine/measure/bench_command.h"

#include "engine/measure/bench.h"
#include "engine/measure/phase.h"
#include "engine/worker/serve.h"

#include <iostream>

#include <cstdlib>
#include <ostream>

namespace tkm::measure {
namespace {

constexpr const char* kUsage =
    "usage: bench [--runs N] [--exercise DIR] [--kernel FILE] [--no-ncu] [--worker PATH] [--target-ms MS]\n"
    "       bench --serve   (the worker loop with the measure phase, used by the bench itself)\n"
    "  Prints the turnaround of a vector-add job on a warm worker, split by stage, and (with ncu on PATH)\n"
    "  our DRAM read bytes and duration next to Nsight Compute's.\n";

int usage(std::ostream& err, const std::string& problem)
{
    err << "bench: " << problem << "\n" << kUsage;
    return 2;
}

} // namespace

int runBenchCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                    const std::vector<std::string>& selfArgs)
{
    BenchOptions o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& v) {
            if (i + 1 >= args.size())
                return false;
            v = args[++i];
            return true;
        };
        std::string v;
        if (a == "--serve") {
            // The worker loop (docs/run-report.md protocol) with the measure phase installed.
            runner::RunnerOptions options;
            options.measure = makeMeasurePhase();
            return worker::serve(std::cin, std::cout, std::move(options));
        } else if (a == "--launch-once") {
            if (i + 2 >= args.size())
                return usage(err, "--launch-once needs an exercise folder and a kernel file.");
            return launchPerformanceCaseOnce(args[i + 1], args[i + 2], err);
        } else if (a == "--runs") {
            if (!value(v) || std::atoi(v.c_str()) < 1)
                return usage(err, "--runs needs a positive number.");
            o.runs = std::atoi(v.c_str());
        } else if (a == "--exercise") {
            if (!value(v))
                return usage(err, "--exercise needs a folder.");
            o.exercise = v;
        } else if (a == "--kernel") {
            if (!value(v))
                return usage(err, "--kernel needs a file.");
            o.kernel = v;
        } else if (a == "--worker") {
            if (!value(v))
                return usage(err, "--worker needs the path of tkm-run.");
            o.worker = v;
        } else if (a == "--target-ms") {
            if (!value(v) || std::atof(v.c_str()) <= 0)
                return usage(err, "--target-ms needs a positive number of milliseconds.");
            o.targetMs = std::atof(v.c_str());
        } else if (a == "--no-ncu") {
            o.ncu = false;
        } else if (a == "-h" || a == "--help") {
            out << kUsage;
            return 0;
        } else {
            return usage(err, "unknown option \"" + a + "\".");
        }
    }
    return runBench(o, out, selfArgs);
}

} // namespace tkm::measure
