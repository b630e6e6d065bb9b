#pragma once
// Builds report structs from the engine's own results (compile, check), so every caller fills them the same way.

#include "engine/check/compare.h"
#include "engine/compile/compiler.h"
#include "engine/report/run_report.h"

namespace tkm::report {

/// `compile` from a CompileResult (resources present when ptxas reported them; max_threads_per_block left 0).
CompileInfo toCompileInfo(const compile::CompileResult& r);
/// `cases[i].outputs[j]` from an OutputCheck (canary_damage present when `withCanary`).
OutputInfo toOutputInfo(const check::OutputCheck& c, bool withCanary = true);
/// `r` with verdict "error", the error's sentence as summary and its kind in `error` (an engine problem, not the
/// learner's kernel).
RunReport errorReport(RunReport r, const engine::Error& e);

} // namespace tkm::report
