#pragma once
// The run report of docs/run-report.md ("schema": "tkm-run-report/1") as structs, with JSON conversion.
// Optional fields (std::optional, or empty vectors marked below) are absent from the JSON when not set,
// never null. from_json accepts exactly what to_json writes, and ignores unknown keys (newer minor fields).

#include "engine/report/autotune_info.h"
#include "engine/report/verdict.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tkm::report {

/// Schema tag of this version.
inline constexpr const char* kSchema = "tkm-run-report/1";

/// `exercise`
struct ExerciseInfo
{
    std::string id;     ///< spec id
    std::string title;  ///< spec title
    std::string kernel; ///< entry point
};

/// `device`
struct DeviceInfo
{
    std::string name;           ///< "NVIDIA H200"
    std::string cc;             ///< "9.0"
    int sms = 0;                ///< multiprocessors
    int64_t l2Bytes = 0;        ///< [bytes]
    int64_t memoryBytes = 0;    ///< [bytes]
    std::string driver;         ///< "13.0"
    double theoreticalGbps = 0; ///< [GB/s]
};

/// `compile.diagnostics[i]`
struct DiagnosticInfo
{
    std::string file;     ///< source name
    int line = 0;         ///< 1-based, 0 unknown
    int column = 0;       ///< 1-based, 0 unknown
    std::string severity; ///< error, warning, remark, note
    std::string message;  ///< text
};

/// `compile.resources`
struct ResourcesInfo
{
    int registers = 0;            ///< per thread
    int64_t sharedBytes = 0;      ///< static shared [bytes]
    int64_t localBytes = 0;       ///< [bytes]
    int64_t spillStoresBytes = 0; ///< [bytes]
    int64_t spillLoadsBytes = 0;  ///< [bytes]
    int maxThreadsPerBlock = 0;   ///< from the loaded function (0 when not loaded)
};

/// `compile`
/// `compile.generated_lines[i]`: the CUDA lines our compiler generated from one line of a Triton kernel.
struct GeneratedLinesInfo
{
    int line = 0;                          ///< 1-based line of the .py
    std::vector<std::array<int, 2>> cuda;  ///< JSON "cuda": [first, last] 1-based lines of generated_source, inclusive
};

struct CompileInfo
{
    bool ok = false;                         ///< compiled and signature matches
    std::string arch;                        ///< "sm_90"
    std::string nvrtcVersion;                ///< "13.0"
    bool cached = false;                     ///< from the CUBIN cache
    double compileMs = 0;                    ///< [ms]
    std::vector<std::string> options;        ///< NVRTC options shown
    std::vector<DiagnosticInfo> diagnostics; ///< parsed messages
    std::string log;                         ///< raw log
    std::optional<ResourcesInfo> resources;  ///< when ptxas reported them
    /// A Triton kernel on the GPU: the CUDA C++ translation unit our compiler generated (absent when empty).
    std::string generatedSource;
    std::vector<GeneratedLinesInfo> generatedLines; ///< per Triton line, its generated lines (absent when empty)
};

/// `cases[i].outputs[j].first_mismatches[k]`
struct MismatchInfo
{
    std::vector<int64_t> index; ///< logical coordinates
    bool unwritten = false;     ///< JSON "got": "unwritten" instead of a number
    double got = 0;             ///< learner value (NaN/inf written as strings "nan", "inf", "-inf")
    double expected = 0;        ///< reference value (same encoding)
};

/// `cases[i].outputs[j]`
struct OutputInfo
{
    std::string buffer;                        ///< parameter name
    int64_t checked = 0;                       ///< elements compared
    int64_t mismatches = 0;                    ///< failing elements
    int64_t unwritten = 0;                     ///< poison left
    int64_t nan = 0;                           ///< NaNs
    int64_t inf = 0;                           ///< infs
    double maxAbsError = 0;                    ///< max |got − ref|
    double maxRelError = 0;                    ///< max |got − ref| / |ref|
    double atol = 0;                           ///< effective atol
    double rtol = 0;                           ///< rtol
    std::vector<MismatchInfo> firstMismatches; ///< ≤ 10
    std::optional<int64_t> canaryBeforeStart;  ///< JSON canary_damage.before_start [bytes]
};

/// `cases[i]`
struct CaseInfo
{
    std::string name;                     ///< case name
    std::map<std::string, int64_t> sizes; ///< size variables
    CaseVerdict verdict = CaseVerdict::Skipped; ///< pass, fail, fault, skipped
    std::vector<int64_t> grid;            ///< 3 numbers (absent when empty)
    std::vector<int64_t> block;           ///< 3 numbers (absent when empty)
    std::vector<OutputInfo> outputs;      ///< checked outputs (absent when empty)
    std::optional<bool> nondeterministic; ///< second launch differed
    /// Tuning jobs: outputs that accumulated across the repeated launches on the same buffers (absent when empty).
    std::vector<std::string> accumulated;
    std::string message;                  ///< sentence (absent when empty)
};

/// `fault`
struct FaultInfo
{
    std::string
        kind; ///< read-past-end, write-past-end, read-before-start, write-before-start, misaligned, trap, unknown
    std::string buffer;    ///< parameter name (absent when empty)
    std::string caseName;  ///< JSON "case" (absent when empty)
    std::string cudaError; ///< "CUDA_ERROR_ILLEGAL_ADDRESS" (absent when empty)
    std::string message;   ///< sentence
    // Located faults (the CPU interpreter of Triton kernels): the learner's line, the program and the lane.
    int line = 0;                   ///< 1-based line in the kernel file (absent when 0)
    int column = 0;                 ///< 1-based column (absent when 0)
    std::vector<int64_t> programId; ///< JSON "program": 3 numbers (absent when empty)
    std::vector<int64_t> lane;      ///< coordinates of the first bad lane in its tile (absent when empty)
    std::optional<int64_t> offset;  ///< element offset from the buffer's start (may be < 0)
    std::optional<int64_t> bufferElements; ///< the buffer's size [elements]
    std::optional<bool> masked;     ///< the access had a mask
    /// A Triton kernel that faulted on the GPU, replayed in the CPU interpreter: "agrees" (same kind and
    /// buffer), "disagrees", "no-fault" (the interpreter runs the case cleanly), "not-run" (absent when empty).
    std::string interpreter;
};

/// `timing`
struct TimingInfo
{
    double medianMs = 0;                  ///< [ms]
    double p20Ms = 0;                     ///< [ms]
    double p80Ms = 0;                     ///< [ms]
    double minMs = 0;                     ///< [ms]
    int samples = 0;                      ///< count
    bool settled = false;                 ///< spread settled before the budget ended
    std::map<std::string, int64_t> sizes; ///< performance case sizes
    std::optional<double> achievedGbps;   ///< ideal_bytes / median [GB/s]
    std::optional<double> achievedGflops; ///< flops / median [GFLOP/s]
};

/// `traffic`
struct TrafficInfo
{
    bool available = false;                ///< counters were read
    std::optional<int64_t> dramReadBytes;  ///< [bytes]
    std::optional<int64_t> storedBytes;    ///< [bytes]
    std::string storedSource;              ///< counter formula (absent when empty)
    std::optional<int64_t> dramWriteBytes; ///< [bytes]
    std::optional<double> l2HitRate;       ///< 0..1
    std::optional<double> durationMs;      ///< [ms]
    std::optional<double> idealBytes;      ///< [bytes]
    std::optional<double> efficiency;      ///< ideal / (read + stored)
    std::string unavailableReason;         ///< when !available (absent when empty)
};

/// `ceilings`
struct CeilingsInfo
{
    double theoreticalGbps = 0;             ///< [GB/s]
    std::optional<double> measuredCopyGbps; ///< [GB/s]
    std::optional<double> peakFp32Gflops;   ///< [GFLOP/s]
    std::optional<double> peakTensorGflops; ///< [GFLOP/s] product table
    std::optional<double> measuredTensorGflops; ///< [GFLOP/s] the calibration's cuBLAS fp16 GEMM
    std::string source;                     ///< how the figures were obtained (absent when empty)
};

/// `roofline`
struct RooflineInfo
{
    double intensityFlopPerByte = 0;                ///< [FLOP/byte]
    double achievedGflops = 0;                      ///< [GFLOP/s]
    std::string bound;                              ///< "memory" or "compute"
    double attainableGflopsTheoretical = 0;         ///< [GFLOP/s]
    std::optional<double> attainableGflopsMeasured; ///< [GFLOP/s]
};

/// `baselines[i]`
struct BaselineInfo
{
    std::string name;                     ///< baseline name
    double medianMs = 0;                  ///< [ms]
    std::optional<int64_t> dramReadBytes; ///< [bytes]
    std::optional<int64_t> storedBytes;   ///< [bytes]
    std::optional<double> timeRatio;      ///< learner median / baseline median
    std::optional<double> bytesRatio;     ///< learner bytes / baseline bytes
};

/// `stages_ms`: wall time per stage [ms]; only stages reached are present.
using StagesMs = std::map<std::string, double>;

/// `error`
struct ErrorInfo
{
    std::string kind;    ///< no-gpu, no-driver, bad-spec, worker-crash, internal
    std::string message; ///< sentence
};

/// One problem the deep check found (runner/deep_check.h), on the learner's lines.
struct DeepCheckFinding
{
    std::string tool;       ///< memcheck, racecheck, synccheck, initcheck
    std::string severity;   ///< "error" or "warning" (as the tool rates it)
    std::string message;    ///< the sentence
    std::vector<int> lines; ///< learner's lines it names, first the one to fix (absent when empty)
    std::string raw;        ///< the tool's own report, as printed (absent when empty)
};

/// `deep_check`: the chosen case run under compute-sanitizer's tools.
struct DeepCheckInfo
{
    bool available = false;                ///< compute-sanitizer ran
    std::string unavailableReason;         ///< why not (absent when empty)
    std::string caseName;                  ///< JSON "case"
    std::vector<std::string> tools;        ///< tools that ran to the end
    std::vector<DeepCheckFinding> findings; ///< absent when empty
    std::string summary;                   ///< one sentence
};

/// The whole report.
struct RunReport
{
    std::string schema = kSchema;         ///< "tkm-run-report/1"
    std::string engineVersion;            ///< "0.1.0"
    std::string created;                  ///< ISO 8601 UTC, "2026-11-30T04:40:00Z"
    std::optional<ExerciseInfo> exercise; ///< absent for devices-only reports
    std::map<std::string, int64_t> meta;  ///< meta-parameter values (absent when empty)
    std::optional<DeviceInfo> device;     ///< absent without a GPU
    Verdict verdict = Verdict::Error;     ///< pass, fail, fault, timeout, compile_error, compiled, error
    std::string language;                 ///< "cuda" or "triton" (absent when empty)
    std::string executor;                 ///< "gpu" or "cpu-interpreter" (absent when empty)
    std::vector<std::string> printed;     ///< device print output, first lines (absent when empty)
    int64_t printedDropped = 0;           ///< further lines not kept (absent when 0)
    std::string summary;                  ///< one sentence (absent when empty)
    std::optional<CompileInfo> compile;   ///< compile stage
    std::vector<CaseInfo> cases;          ///< absent when empty
    std::optional<FaultInfo> fault;       ///< verdict fault
    std::optional<TimingInfo> timing;     ///< measure phase
    std::optional<TrafficInfo> traffic;   ///< measure phase
    std::optional<CeilingsInfo> ceilings; ///< measure phase
    std::optional<RooflineInfo> roofline; ///< measure phase
    std::vector<BaselineInfo> baselines;  ///< absent when empty
    std::optional<AutotuneInfo> autotune; ///< tuning job (request field `configs`)
    std::optional<DeepCheckInfo> deepCheck; ///< JSON "deep_check": job field deep_check
    StagesMs stagesMs;                    ///< absent when empty
    std::optional<ErrorInfo> error;       ///< verdict error
};

/// Current UTC time as "YYYY-MM-DDTHH:MM:SSZ" (for RunReport::created).
std::string utcNow();

void to_json(nlohmann::json& j, const ExerciseInfo& v);     ///< JSON writer
void from_json(const nlohmann::json& j, ExerciseInfo& v);   ///< JSON reader
void to_json(nlohmann::json& j, const DeviceInfo& v);       ///< JSON writer
void from_json(const nlohmann::json& j, DeviceInfo& v);     ///< JSON reader
void to_json(nlohmann::json& j, const DiagnosticInfo& v);   ///< JSON writer
void from_json(const nlohmann::json& j, DiagnosticInfo& v); ///< JSON reader
void to_json(nlohmann::json& j, const ResourcesInfo& v);    ///< JSON writer
void from_json(const nlohmann::json& j, ResourcesInfo& v);  ///< JSON reader
void to_json(nlohmann::json& j, const CompileInfo& v);      ///< JSON writer
void from_json(const nlohmann::json& j, CompileInfo& v);    ///< JSON reader
void to_json(nlohmann::json& j, const MismatchInfo& v);     ///< JSON writer
void from_json(const nlohmann::json& j, MismatchInfo& v);   ///< JSON reader
void to_json(nlohmann::json& j, const OutputInfo& v);       ///< JSON writer
void from_json(const nlohmann::json& j, OutputInfo& v);     ///< JSON reader
void to_json(nlohmann::json& j, const CaseInfo& v);         ///< JSON writer
void from_json(const nlohmann::json& j, CaseInfo& v);       ///< JSON reader
void to_json(nlohmann::json& j, const FaultInfo& v);        ///< JSON writer
void from_json(const nlohmann::json& j, FaultInfo& v);      ///< JSON reader
void to_json(nlohmann::json& j, const TimingInfo& v);       ///< JSON writer
void from_json(const nlohmann::json& j, TimingInfo& v);     ///< JSON reader
void to_json(nlohmann::json& j, const TrafficInfo& v);      ///< JSON writer
void from_json(const nlohmann::json& j, TrafficInfo& v);    ///< JSON reader
void to_json(nlohmann::json& j, const CeilingsInfo& v);     ///< JSON writer
void from_json(const nlohmann::json& j, CeilingsInfo& v);   ///< JSON reader
void to_json(nlohmann::json& j, const RooflineInfo& v);     ///< JSON writer
void from_json(const nlohmann::json& j, RooflineInfo& v);   ///< JSON reader
void to_json(nlohmann::json& j, const BaselineInfo& v);     ///< JSON writer
void from_json(const nlohmann::json& j, BaselineInfo& v);   ///< JSON reader
void to_json(nlohmann::json& j, const DeepCheckFinding& v); ///< JSON writer
void from_json(const nlohmann::json& j, DeepCheckFinding& v); ///< JSON reader
void to_json(nlohmann::json& j, const DeepCheckInfo& v);    ///< JSON writer
void from_json(const nlohmann::json& j, DeepCheckInfo& v);  ///< JSON reader
void to_json(nlohmann::json& j, const ErrorInfo& v);        ///< JSON writer
void from_json(const nlohmann::json& j, ErrorInfo& v);      ///< JSON reader
void to_json(nlohmann::json& j, const RunReport& v);        ///< JSON writer
void from_json(
    const nlohmann::json& j,
    RunReport& v); ///< JSON reader (throws nlohmann::json::exception on a wrong type or a missing required key)

} // namespace tkm::report
