#include "cli/worker_options.h"

#include "engine/measure/autotune_phase.h"
#include "engine/measure/phase.h"
#include "engine/worker/serve.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace tkm::cli {

runner::RunnerOptions makeWorkerOptions()
{
    runner::RunnerOptions options;
    std::error_code ec;
    options.probeExecutable = std::filesystem::read_symlink("/proc/self/exe", ec);
    options.measure = measure::makeMeasurePhase();
    options.autotune = measure::makeAutotunePhase();
    return options;
}

int serveWorker()
{
    const int rc = worker::serve(std::cin, std::cout, makeWorkerOptions());
    std::cout.flush();
    if (rc == worker::kStickyExit) {
        std::_Exit(rc);
    }
    return rc;
}

} // namespace tkm::cli
