// tkm-bench: the bench subcommand as its own executable (same as `tkm-run bench`).
#include "engine/measure/bench_command.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    return tkm::measure::runBenchCommand(args, std::cout, std::cerr, /*selfArgs=*/{});
}
