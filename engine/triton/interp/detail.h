#pragma once
// Internals of the CPU interpreter (interpreter.h): the value frame and the evaluators of each family of ops.
// A value is a Tile: its numel lanes in row-major order, stored by kind — integers (wrapped to the type's
// width and signedness; uint64 as its bits) and pointer offsets in `i`, floats (already rounded to the element
// type) in `f`, and for pointers the buffer each lane was derived from in `buf`. Shapes and element types come
// from the Function's static types, never from the tile. One frame of tiles indexed by ValueId is reused by
// every program, so after the first program no op allocates.

#include "engine/triton/interp/interpreter.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tkm::triton::interp::detail {

/// The lanes of one value (see the file comment for which vectors a type uses).
struct Tile
{
    std::vector<int64_t> i;   ///< integers, I1 as 0/1, pointer offsets [pointee elements]
    std::vector<double> f;    ///< floats, rounded to the element type
    std::vector<int32_t> buf; ///< pointers: index into the run's buffers per lane (-1: none)
};

/// The state of one run: the function, the buffers, the frame and what has happened so far.
struct Context
{
    const ir::Function& fn;
    std::span<HostBuffer> buffers;
    const RunOptions& options;
    RunResult& result;
    std::vector<Tile> frame;             ///< indexed by ValueId
    std::array<int64_t, 3> pid{0, 0, 0}; ///< the running program
    int64_t ticks = 0;                   ///< loop iterations so far (the deadline is read every 1024)
    std::vector<double> scratch;         ///< dot: the transposed B operand
    std::vector<int64_t> index;          ///< shape ops: source lane of each result lane

    const ir::Type& type(ir::ValueId v) const { return fn.typeOf(v); }  ///< static type of v
    Tile& tile(ir::ValueId v) { return frame[static_cast<size_t>(v)]; } ///< storage of v
    bool failed() const { return result.fault.has_value(); }            ///< a fault stopped the run
};

// --- values.cpp: scalar conversions ---

/// `v` wrapped to the width and signedness of integer type `e` (I1: 0/1, uint64: its bits).
int64_t wrapInt(int64_t v, ir::Elem e);
/// `v` rounded to nearest even in float type `e` (F64: unchanged).
double roundFloat(double v, ir::Elem e);
/// `v` rounded toward zero in float type `e` (fp_downcast_rounding="rtz").
double roundFloatTowardZero(double v, ir::Elem e);
/// Raw bits of a float value of type `e` (low bitWidth(e) bits).
uint64_t floatBits(double v, ir::Elem e);
/// The float of type `e` whose raw bits are `bits`.
double floatFromBits(uint64_t bits, ir::Elem e);
/// An integer lane as a double (uint64 read as unsigned).
double intToDouble(int64_t v, ir::Elem from);
/// Converts one lane from `from` to `to` as tl.cast does (float → int truncates and saturates like PTX cvt.rzi;
/// NaN → 0; to I1 means != 0). Integers go in and out through `iv`, floats through `fv`.
void castLane(int64_t iv, double fv, ir::Elem from, ir::Elem to, bool towardZero, int64_t& oi, double& of);
/// Resizes the storage of `v` for its type's numel and returns it.
Tile& prepare(Context& ctx, ir::ValueId v);
/// Text of one lane for tl.device_print (shortest round-trip decimal; hex: 0x + the bits).
std::string laneText(const Tile& t, int64_t lane, const ir::Type& type, bool hex);

// --- faults (memory.cpp) ---

/// "program 0" for a 1-D grid, else "program (x, y, z)".
std::string programText(const Context& ctx);
/// Row-major coordinates of `lane` in `shape`.
std::vector<int64_t> laneCoords(int64_t lane, const std::vector<int64_t>& shape);
/// ", lane 3 of 16" / ", lane (3, 0) of 16×8" / "" for a scalar.
std::string laneText(int64_t lane, const std::vector<int64_t>& shape);
/// Sets the run's fault (kind, range, program, message) for `op`.
void raise(Context& ctx, FaultKind kind, const ir::Op& op, std::string message);

// --- validate.cpp ---

/// Checks the IR's structure (see validate.cpp); false with an Unsupported fault set when it cannot run.
bool validate(Context& ctx);

// --- evaluators: each defines op.results from its operands, or raises a fault ---

/// Constant, ProgramId, NumPrograms, Arange, Splat, Broadcast, ExpandDims, Reshape, Trans, Join, Cat.
void evalShape(Context& ctx, const ir::Op& op);
/// Arithmetic, bitwise, shifts, min/max, comparisons, Select, AddPtr (elementwise.cpp).
void evalArith(Context& ctx, const ir::Op& op);
/// Math functions, Fma, UMulHi, Cast, Bitcast, PtrToInt, IntToPtr (convert.cpp).
void evalConvert(Context& ctx, const ir::Op& op);
/// Load, Store, AtomicRMW, AtomicCAS with bounds checks (memory.cpp).
void evalMemory(Context& ctx, const ir::Op& op);
/// Reduce, Scan (reduce.cpp).
void evalReduce(Context& ctx, const ir::Op& op);
/// Dot (reduce.cpp).
void evalDot(Context& ctx, const ir::Op& op);
/// Print, Assert (debug.cpp).
void evalDebug(Context& ctx, const ir::Op& op);

} // namespace tkm::triton::interp::detail
