#pragma once
// `tkm-run bench` / `tkm-bench`: the turnaround of one job — submitted to a warm worker until its full report
// (compile + every correctness case + timing + traffic) — for the vector-add exercise, split by stage; and, when
// Nsight Compute (`ncu`) is on PATH, our DRAM read bytes and duration of the performance case next to ncu's.
// Target on an H200: ≤ 150 ms warm (issue 17); ncu agreement within 2 % (bytes) and 3 % (duration). A Triton row
// times the exercise's Triton solution on the GPU path the same way (cold job, warm median; target ≤ 300 ms).

#include "engine/common/error.h"
#include "engine/runner/job.h"
#include "engine/worker/client.h"

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace tkm::cli {

/// Options of the benchmark.
struct BenchOptions
{
    std::filesystem::path exercise; ///< exercise folder; empty: <content>/02-vector-add/exercises/vector-add
    std::filesystem::path kernel;   ///< kernel file; empty: the exercise's solution
    int runs = 10;                  ///< warm runs after the first (cold) one
    bool ncu = true;                ///< compare with Nsight Compute when `ncu` is on PATH
    std::filesystem::path worker;   ///< worker executable (started with --serve); empty: this executable's own
                                    ///< `bench --serve` (the worker loop with the measure phase installed)
    double targetMs = 150;          ///< turnaround target [ms] (issue 17: from 293 ms)
    bool cold = true;               ///< also time a cold worker (warm disk cache) and the app's warm-up start
    bool triton = true;             ///< also time the exercise's Triton solution on the GPU path (its own row)
    double tritonTargetMs = 300;    ///< warm turnaround target of the Triton row [ms] (issue 13 item 4)
};

/// The Triton row (issue 13 item 4): the exercise's Triton solution through the GPU path (lowered, NVRTC, run on
/// the GPU, measured), as a job of a fresh worker (the cold job: the worker's start, the context, the Triton front
/// end and the compile; disk caches warm from the CUDA rows) and then `runs` warm jobs; prints the cold job's
/// time and the warm turnaround's median against `tritonTargetMs`. False (after the reason) when the exercise has
/// no Triton track or a job does not pass on the GPU.
bool printTritonRow(const worker::ClientOptions& client, const runner::Job& cudaJob, const BenchOptions& options,
                    std::ostream& out);

/// Times the start of a worker (issue 17 item 3): one job to fill the disk caches, then the first job of a fresh
/// worker (target ≤ 1.5 s), then what the app does — a `warm` request when it opens, the learner's first and second
/// Run. Prints the lines to `out`; false (after the reason) when the job does not pass.
bool printColdStart(const worker::ClientOptions& client, const runner::Job& job, std::ostream& out);

/// Runs the benchmark and prints its tables to `out`. Returns 0 when it ran (also when the target is missed: the
/// table says so), 1 when it could not run (no GPU, worker failed, bad exercise) with the reason printed.
/// `selfArgs`: the words that make this executable run the bench subcommand (for the process ncu profiles):
/// {"bench"} for tkm-run, {} for tkm-bench.
int runBench(const BenchOptions& options, std::ostream& out, const std::vector<std::string>& selfArgs = {"bench"});

/// The process that `ncu` profiles: creates the context, compiles `kernel` for the exercise's performance case,
/// uploads its inputs, flushes the L2 and launches the kernel exactly once. Returns 0 on success, else prints
/// the reason to `err` and returns 1.
int launchPerformanceCaseOnce(const std::filesystem::path& exercise, const std::filesystem::path& kernel,
                              std::ostream& err);

/// Metric values from `ncu --csv --print-units base` output (first row of each metric name); the numbers may
/// carry thousands separators. Returns a negative value for a metric that is absent.
double ncuMetric(const std::string& csv, const std::string& metric);

} // namespace tkm::cli
