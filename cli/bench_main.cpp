// tkm-bench: the bench command as its own executable (same as `tkm-run bench`).
#include "cli/bench_command.h"

int main(int argc, char** argv)
{
    CLI::App app{"tkm-bench: turnaround of a job on a warm worker and measurement accuracy against Nsight Compute"};
    int exitCode = 0;
    tkm::cli::addBenchOptions(app, exitCode, /*selfArgs=*/{});
    CLI11_PARSE(app, argc, argv);
    return exitCode;
}
