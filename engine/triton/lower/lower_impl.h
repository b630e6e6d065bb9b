#pragma once
// The lowering's internals shared by its files: the emitter (source text with line tracking, the layout of
// each tile, value names) and the per-op emission functions.

#include "engine/triton/lower/lower.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tkm::triton::lower {

/// The runtime helpers' source text (namespace tkm).
const char* runtimeSource();

/// Where a tile lives: N elements (row-major flat index), SPT contiguous per thread, K register slots.
struct Layout
{
    int64_t n = 1;   ///< numel
    int spt = 1;     ///< contiguous elements per thread
    int64_t k = 1;   ///< register slots per thread
};

/// What the axis analysis (lower_axis.cpp) knows of a value along its last dimension (scalars: extent 1).
struct AxisInfo
{
    int64_t contig = 1;    ///< runs of consecutive integers (or pointers one element apart) this long
    int64_t divis = 1;     ///< a power of two dividing the first element of each run (integers only)
    int64_t constancy = 1; ///< runs of equal values this long
    bool isConst = false;  ///< a compile-time integer constant (scalar or splat)
    int64_t value = 0;     ///< that constant
};

/// The axis facts of every value of f (indexed by ValueId), as Triton's AxisInfo pass finds them.
std::vector<AxisInfo> analyseAxes(const ir::Function& f);

/// A row reduction's per-thread partials (lower_reduce.cpp): slot i of a tile of `shape` in the same layout
/// belongs to the row whose value is parts[i / slotsPerPart].
struct RowSlice
{
    std::string parts;         ///< the partials array's name
    int64_t slotsPerPart = 1;  ///< consecutive slots of one row in a thread
    std::vector<int64_t> shape; ///< the reduced operand's shape
    ir::Elem elem = ir::Elem::F32; ///< the reduction result's element type
};

/// Emits one kernel's body: text, #line bookkeeping, names and layouts.
class Emitter
{
public:
    Emitter(const ir::Function& f, const LowerOptions& options);

    const ir::Function& fn;
    const LowerOptions& opts;
    int nt = 128;                         ///< threads per block
    int64_t smemBytes = 0;                ///< the staging buffer's size (max over ops)
    int64_t smemCap = 32768;              ///< chunk budget of one staging exchange [bytes]
    bool fp16 = false;                    ///< cuda_fp16.h needed
    bool bf16 = false;                    ///< cuda_bf16.h needed
    std::string body;                     ///< emitted statements
    int bodyLines = 0;                    ///< newlines in body so far
    int indent = 1;                       ///< current indentation level
    int curLine = 0;                      ///< Triton line of the op being emitted
    std::vector<LineMap> lines;           ///< relative to the body's first line
    std::vector<Diagnostic> diagnostics;  ///< internal errors
    std::string notes;                    ///< layout notes
    int tmp = 0;                          ///< counter for fresh names
    bool named = false;                   ///< a #line with the file name was emitted
    bool fast = true;                     ///< fast paths on (LowerOptions::fastPaths)
    /// flat indices without wrap-around for a tile that is not replicated: set for tl.arange only, the root of
    /// the index math of loads and stores (in exchanges through shared memory exact indices let the compiler
    /// share loads across unrolled slots, and a large kernel such as attention spills)
    bool exactFlat = false;
    std::vector<AxisInfo> axes;           ///< analyseAxes(fn)
    std::vector<const ir::Op*> def;       ///< the op defining each value (nullptr: parameter, region argument)
    std::map<ir::ValueId, RowSlice> rowSlices; ///< row reductions (and their [:, None]) held per thread

    Layout layoutOf(const ir::Type& t) const;
    const ir::Type& type(ir::ValueId v) const { return fn.typeOf(v); }
    std::string cType(const ir::Type& t);           ///< element C type of a value of type t (T or T*)
    std::string name(ir::ValueId v) const;          ///< "v12"
    std::string ref(ir::ValueId v) const;           ///< "v12[i]" for tiles, "v12" for scalars
    std::string fresh(const char* stem);            ///< a new local name
    void line(const std::string& text);             ///< one statement line at the current indentation
    void setLine(const SourceRange& r);             ///< emits #line when the Triton line changes
    void declare(ir::ValueId v);                    ///< "T v[K];" or "T v;" (+ a layout note)
    /// Opens `#pragma unroll for (int i …)` over the slots of a tile of type t, with `e` its flat index.
    void openLoop(const ir::Type& t, bool withFlat);
    void closeLoop();
    std::string flatExpr(const ir::Type& t, const std::string& slot) const; ///< tkm::flat<…>(slot)
    std::string ownerExpr(const ir::Type& t, const std::string& slot) const; ///< tkm::owner<…>(slot)
    void internalError(const ir::Op& op, const std::string& what); ///< diagnostic + static_assert
    void copyValue(ir::ValueId dst, ir::ValueId src);  ///< dst = src, same type (declared already)
    void needSmem(int64_t bytes) { smemBytes = bytes > smemBytes ? bytes : smemBytes; }
    /// Gathers `src` into `dst` (declared) through shared memory, in chunks: for each slot of dst, `srcIndex`
    /// (an expression of the slot's coordinates c0, c1, … and `e`) names the source flat index; `when`, if
    /// not empty, limits which slots read (others keep their value).
    void gather(ir::ValueId dst, ir::ValueId src, const std::string& srcIndex, const std::string& when = {});
    /// Declares `int c0 = …, c1 = …` for the coordinates of flat index `e` in shape `shape`.
    void coords(const std::vector<int64_t>& shape, const std::string& e, const std::string& prefix = "c");

    /// dst = src[:, None]-like (shape + [1]): dst keeps src's row slice, if any.
    void forwardRowSlice(ir::ValueId dst, ir::ValueId src);
    /// Broadcasts a row slice back over its rows without moving data; false when src holds none for dst.
    bool broadcastRowSlice(ir::ValueId dst, ir::ValueId src);

    void region(const ir::Region& r);
    void op(const ir::Op& op);
};

// Per-op emission (lower_ops.cpp, lower_mem.cpp, lower_shape.cpp). Each returns false if it does not handle op.
bool emitElementwise(Emitter& em, const ir::Op& op);
bool emitMemory(Emitter& em, const ir::Op& op);
bool emitShape(Emitter& em, const ir::Op& op);
bool emitReduce(Emitter& em, const ir::Op& op);
/// The floor: any reduction or scan, each output element combined in index order through shared memory.
void emitGenericReduce(Emitter& em, const ir::Op& op);
bool emitDot(Emitter& em, const ir::Op& op);
bool emitControl(Emitter& em, const ir::Op& op);

/// A C literal of value `x` for element type e.
std::string literal(ir::Elem e, double x);
std::string literalInt(ir::Elem e, int64_t x);

} // namespace tkm::triton::lower
