#pragma once
// `tkm-run --serve`: the worker loop. Reads one JSON request per line from `in`, answers on `out` (one JSON
// object per line, flushed), keeps the CUDA context warm between jobs, and never crashes on a malformed
// request (bad JSON, unknown op, missing or mistyped field: an "error" line naming the problem).
// After a sticky CUDA error it sends the job's report and returns kStickyExit: the context is unusable and
// the caller must end the process (the client starts a fresh worker).

#include "engine/runner/runner.h"

#include <iosfwd>

namespace tkm::worker {

/// Exit status of a worker after a sticky CUDA error (docs/run-report.md).
inline constexpr int kStickyExit = 3;

/// Serves requests until end of input (returns 0) or a sticky error (returns kStickyExit).
int serve(std::istream& in, std::ostream& out, runner::RunnerOptions options = {});

} // namespace tkm::worker
