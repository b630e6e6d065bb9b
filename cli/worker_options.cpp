#include "cli/worker_options.h"

#include "engine/measure/autotune_phase.h"
#include "engine/measure/phase.h"
#include "engine/worker/serve.h"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>

namespace tkm::cli {

runner::RunnerOptions makeWorkerOptions()
{
    runner::RunnerOptions options;
    std::error_code ec;
    options.probeExecutable = std::filesystem::read_symlink("/proc/self/exe", ec);
    measure::MeasurePhases phases = measure::makeMeasurePhases();
    options.measure = std::move(phases.measure);
    options.warm = std::move(phases.warm);
    // TKM_BACKGROUND_WARM=0: the first job does its measure set-up in line (to compare cold times).
    const char* background = std::getenv("TKM_BACKGROUND_WARM");
    options.warmInBackground = background == nullptr || std::string(background) != "0";
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
