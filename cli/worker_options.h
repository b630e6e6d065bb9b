#pragma once
// The one composition of the engine's worker: a Runner with the measure and autotune phases installed and this
// executable as its fault-diagnosis probe. `tkm-run --serve` (the app's and `tkm-run run`'s worker) and the
// bench's worker (`tkm-bench --serve`) are built from it, so the bench measures the worker the learner gets.

#include "engine/runner/runner.h"

namespace tkm::cli {

/// Runner options of a worker process: measure phase, autotune phase, probe = /proc/self/exe.
runner::RunnerOptions makeWorkerOptions();

/// Runs the worker loop on stdin/stdout with makeWorkerOptions(); returns the process exit status (after a
/// kernel fault it leaves with std::_Exit, without touching the unusable context again).
int serveWorker();

} // namespace tkm::cli
