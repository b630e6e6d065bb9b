#pragma once
// Lowering of the tile IR (ir/ir.h) to CUDA C++ that NVRTC compiles: one Triton program = one CUDA block of
// 32·num_warps threads, the grid = the program grid. Every tile is distributed over the block in a blocked
// layout of its row-major (flat) index — each thread owns `spt` contiguous elements, threads then warps,
// repeated — held in per-thread register arrays indexed by unrolled loops; scalars are per-thread copies of a
// uniform value. Ops whose operands are laid out differently (broadcast, trans, join, cat, reductions, scans,
// dot) exchange data through a chunked shared-memory staging buffer (the correctness floor); loads and stores
// take 16-byte (or 8/4-byte) vector accesses where a thread's chunk is contiguous, unmasked and aligned, decided
// at run time per chunk. Emitted lines carry `#line N "<fileName>"` so NVRTC/ptxas messages and -lineinfo
// point at the learner's line.

#include "engine/triton/diag/diagnostic.h"
#include "engine/triton/ir/ir.h"

#include <string>
#include <vector>

namespace tkm::triton::lower {

/// One parameter of the emitted kernel's C parameter list.
struct AbiParam
{
    std::string cType; ///< e.g. "const float*", "int"
    std::string name;  ///< identifier
};

/// What to emit.
struct LowerOptions
{
    std::string kernelName;       ///< the extern "C" entry's name (empty: the function's name)
    std::vector<AbiParam> abi;    ///< the kernel's parameters in order (empty: one per Function::params)
    std::vector<int> paramToAbi;  ///< for each Function::params[i]: the abi index it reads (empty: identity)
    std::string fileName = "kernel.py"; ///< the name #line directives give
    /// false: only the correctness floor (every access tested per element at run time, IEEE division, no
    /// pattern-matched reductions) — for differential tests of the fast paths and for measuring what they buy
    bool fastPaths = true;
};

/// The CUDA lines that came from one Triton line.
struct LineMap
{
    int tritonLine = 0;    ///< 1-based line of the .py
    int firstCudaLine = 0; ///< 1-based line of Lowered::source
    int lastCudaLine = 0;  ///< inclusive
};

/// The generated source and what goes with it.
struct Lowered
{
    std::string source;                   ///< complete CUDA C++ translation unit (runtime included)
    std::vector<LineMap> lines;           ///< per run of emitted lines of one Triton line, in source order
    std::string layoutNotes;              ///< comment block: each materialised tile's layout in words
    std::vector<Diagnostic> diagnostics;  ///< internal errors of the lowering (each names the Triton line)
    bool needsFp16 = false;               ///< the source includes cuda_fp16.h
    bool needsBf16 = false;               ///< the source includes cuda_bf16.h
};

/// Lowers `f`. Never throws; an op the code generator cannot emit gives an internal-error diagnostic and a
/// static_assert at that op's line, so NVRTC's message names the Triton line too.
Lowered lower(const ir::Function& f, const LowerOptions& options);

/// The C element type of `e` ("float", "__half", "long long", …; Ptr is not an element type here).
std::string cElemType(ir::Elem e);

} // namespace tkm::triton::lower
