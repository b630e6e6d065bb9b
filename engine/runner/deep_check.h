#pragma once
// The deep check (issue 14 item 5): a race that happens not to change the values passes every case, and so may an
// uninitialised read or a barrier in divergent code. On request the runner re-runs one case — the first failing
// one, else the chosen one, else the first with more than one program — in a fresh probe process (diagnose.h,
// every buffer a plain cuMemAlloc so that the tools know its exact bounds) under each of compute-sanitizer's
// tools: memcheck (out-of-bounds and misaligned accesses), racecheck (shared-memory hazards), synccheck (barriers
// in divergent code) and initcheck (reads of uninitialised global memory). Kernels are compiled with -lineinfo, so
// the tools name the learner's lines; each report becomes one finding with a sentence and its lines. Without
// compute-sanitizer (it comes with the CUDA toolkit, <cuda>/bin) the report says so plainly.

#include "engine/problem/spec.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::runner {

/// The tools the deep check runs, in order.
inline constexpr const char* kDeepCheckTools[] = {"memcheck", "racecheck", "synccheck", "initcheck"};

/// compute-sanitizer: $TKM_COMPUTE_SANITIZER, then <cuda root>/bin, then PATH; empty when none is found.
std::filesystem::path findComputeSanitizer();

/// The findings of one tool's log (lines starting with "========="), mapped to the lines of `sourceName` (the
/// learner's file; other files' lines are left out of `lines`).
std::vector<report::DeepCheckFinding> parseSanitizerLog(std::string_view tool, std::string_view log,
                                                        const std::string& sourceName);

/// Which case to check: the first failing or faulting one of `cases` (report order = `indices`), else
/// `job.deepCheckCase`, else the first of `indices` whose grid has more than one program (else the last).
int chooseDeepCheckCase(const Job& job, const problem::ExerciseSpec& spec, const problem::MetaValues& meta,
                        const std::vector<int>& indices, const std::vector<report::CaseInfo>& cases);

/// Runs case `caseIndex` of `job` under every tool (`probeExecutable --probe` as the target, each run killed
/// after `timeoutS`) and returns the report's deep_check; "deep-check" progress before each tool.
report::DeepCheckInfo deepCheck(const Job& job, int caseIndex, const std::string& caseName,
                                const std::filesystem::path& probeExecutable, double timeoutS = 120,
                                const ProgressFn& progress = {});

} // namespace tkm::runner
