#pragma once
// The CPU interpreter of the tile IR: runs the grid program by program on host copies of the case's buffers,
// tile by tile (every lane of a tile in one host loop), with Triton 3.6's semantics (ir.h) and fp16/bf16
// values rounded as the GPU rounds them. Every load, store and atomic checks each active lane's address
// against the buffer the pointer was derived from (pointers carry their buffer): an access outside it stops
// the run with a Fault that names the line, column, program id, lane, element offset, buffer and whether a
// mask was given. Atomics are serialised (programs run one after another). tl.device_print output is captured
// (bounded). A deadline stops endless loops like a GPU time-out.

#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/ir/ir.h"

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tkm::triton::interp {

/// A host buffer the kernel may touch: `elements` elements of `elem` at `data` (storage order, padding
/// included), named as the spec names it.
struct HostBuffer
{
    std::string name;       ///< parameter name, e.g. "x"
    ir::Elem elem = ir::Elem::F32; ///< element type in memory
    std::byte* data = nullptr;     ///< storage (read and written in place)
    int64_t elements = 0;          ///< storage elements [elements]
};

/// The value of one runtime parameter, in Function::params order: a buffer index (pointer params) or a number.
struct ArgValue
{
    int buffer = -1;        ///< pointer params: index into the buffers span
    int64_t intValue = 0;   ///< integer scalars
    double floatValue = 0;  ///< float scalars
};

/// Settings of one run.
struct RunOptions
{
    std::array<int64_t, 3> grid{1, 1, 1}; ///< programs per axis
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max(); ///< stop then
    int maxPrintLines = 200;              ///< captured tl.device_print lines; the rest are counted
};

/// Why a run stopped early.
enum class FaultKind {
    ReadPastEnd,     ///< a load/atomic read past the buffer's last element
    ReadBeforeStart, ///< a load read before its first element
    WritePastEnd,    ///< a store/atomic wrote past the end
    WriteBeforeStart,///< a store wrote before the start
    Assert,          ///< tl.device_assert failed
    Timeout,         ///< the deadline passed (an endless loop?)
    Unsupported,     ///< an op the interpreter cannot run (an internal error: the checker should have refused it)
};

/// Stable name: "read-past-end", "read-before-start", "write-past-end", "write-before-start", "assert",
/// "timeout", "unsupported" (the run report's fault names, docs/run-report.md).
const char* faultKindName(FaultKind k);

/// A located fault.
struct Fault
{
    FaultKind kind = FaultKind::ReadPastEnd;
    SourceRange range;                    ///< the Triton expression (the tl.load / tl.store call)
    std::array<int64_t, 3> programId{0, 0, 0}; ///< the program that faulted
    int64_t lane = 0;                     ///< row-major index of the first bad lane within the tile
    std::vector<int64_t> laneIndex;       ///< its coordinates in the tile (empty for a scalar access)
    int64_t tileLanes = 1;                ///< lanes in the tile
    std::string buffer;                   ///< the buffer the pointer was derived from
    int64_t offset = 0;                   ///< element offset of the bad access from the buffer's start (may be < 0)
    int64_t bufferElements = 0;           ///< the buffer's size [elements]
    bool masked = false;                  ///< the access had a mask (the mask let this lane through)
    int64_t badLanes = 0;                 ///< how many lanes of the tile were out of bounds
    /// One sentence: "line 9: tl.load reads x[1000] (x has 1000 elements) in program 0, lane 1000 of 1024 — no
    /// mask was given".
    std::string message;
};

/// What a run did.
struct RunResult
{
    std::optional<Fault> fault;       ///< set when the run stopped early
    std::vector<std::string> printed; ///< captured device_print lines ("pid (0, 0, 0) idx (3) x: 1.5")
    int64_t printedDropped = 0;       ///< lines past maxPrintLines
    int64_t programsRun = 0;          ///< programs that ran to completion
};

/// Runs `f` over the grid. `args` follow f.params; `buffers` are the host buffers that pointer args index.
RunResult run(const ir::Function& f, std::span<const ArgValue> args, std::span<HostBuffer> buffers,
              const RunOptions& options);

} // namespace tkm::triton::interp
