#pragma once
// Fault diagnosis. After a kernel fault the runner's context is unusable, so the faulting case is re-run in
// fresh processes (`tkm-run --probe`, started with fork + exec so no CUDA state is inherited), each with one
// buffer guarded and every other buffer padded (engine/memory/guarded_buffer.h):
//   0. control: every buffer padded                        → a fault here is not about bounds: a trap, a stack
//                                                             overflow or an access far away; no buffer is blamed;
//   1. each buffer flush against the guard at its end      → a fault names the buffer: past the end;
//   2. each buffer flush against the guard at its start    → before the start;
//   3. the found buffer again, guard mapped read-only      → a fault means a write, none a read;
//   4. nothing found (the control ran clean)              → the fault does not repeat (a race?).
// The kind is decided from the CUDA error first: misaligned (716), assert (710), stack-overflow (714),
// illegal-instruction (715, 718); a write is never blamed on an input buffer.
// The result is the report's `fault`, e.g. "Out-of-bounds read past the end of `x` (n = 1000; your grid covers
// 1024 elements): a missing mask?".

#include "engine/cuda/driver.h"
#include "engine/memory/guarded_buffer.h"
#include "engine/problem/instance.h"
#include "engine/report/run_report.h"
#include "engine/runner/job.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iosfwd>
#include <map>
#include <string>

namespace tkm::runner {

/// One probe: the job's source and meta, one case, a guard layout per buffer (others padded).
struct ProbeRequest
{
    Job job;                                            ///< exercise, source, source name, meta, cc
    int caseIndex = 0;                                  ///< index into the spec's cases
    std::map<std::string, memory::GuardOptions> guards; ///< by buffer name; others Padded
    bool plain = false; ///< every buffer a plain cuMemAlloc (the deep check under compute-sanitizer)
};

/// What a probe saw.
struct ProbeResult
{
    bool ran = false;      ///< the probe compiled and launched the kernel
    bool faulted = false;  ///< the launch ended in a sticky error
    int code = 0;          ///< CUresult of the fault (0 when none)
    std::string cudaError; ///< "CUDA_ERROR_ILLEGAL_ADDRESS"
    std::string message;   ///< why the probe did not run, or the error text
};

/// JSON form of a probe request (the probe's stdin).
nlohmann::json toJson(const ProbeRequest& request);
/// Parses a probe request; Error (BadInput) names the missing or malformed field.
engine::Expected<ProbeRequest> probeRequestFromJson(const nlohmann::json& j);
/// JSON form of a probe result (the probe's stdout line).
nlohmann::json toJson(const ProbeResult& result);
/// Parses a probe result (missing fields read as defaults).
ProbeResult probeResultFromJson(const nlohmann::json& j);

/// `tkm-run --probe`: reads one JSON request from `in`, runs it, writes one JSON line to `out`.
/// Returns the process exit status (0 when a result was written).
int probeMain(std::istream& in, std::ostream& out);

/// Runs a probe in a fresh process `exe --probe`, killed after `timeoutS` [s].
ProbeResult runProbe(const std::filesystem::path& exe, const ProbeRequest& request, double timeoutS);

/// Everything the diagnosis needs about the fault.
struct FaultContext
{
    const Job& job;                           ///< the job that faulted
    int caseIndex = 0;                        ///< spec case index
    const problem::ProblemInstance& instance; ///< the faulting case, instantiated
    cuda::CudaFailure failure;                ///< the sticky error seen
    int launch = 1;                           ///< 1: first launch (end guards), 2: second (start guards)
    std::filesystem::path probeExecutable;    ///< tkm-run
    double probeTimeoutS = 8;                 ///< per probe [s]
    ProgressFn progress;                      ///< "diagnose" progress (may be empty)
    std::vector<std::string> printed;         ///< what the faulting launch printed (an assert's report line)
};

/// Diagnoses a fault with probes (see file comment) and returns the report's fault object.
report::FaultInfo diagnoseFault(const FaultContext& fault);

/// "n = 1000" or "M = 3, N = 5" from a case's sizes.
std::string sizesText(const std::map<std::string, int64_t>& sizes);

} // namespace tkm::runner
