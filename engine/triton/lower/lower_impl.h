#pragma once
// The lowering's internals shared by its files: the emitter (source text with line tracking, the layout of
// each tile, value names) and the per-op emission functions.

#include "engine/triton/lower/lower.h"

#include <cstdint>
#include <functional>
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

    void region(const ir::Region& r);
    void op(const ir::Op& op);
};

// Per-op emission (lower_ops.cpp, lower_mem.cpp, lower_shape.cpp). Each returns false if it does not handle op.
bool emitElementwise(Emitter& em, const ir::Op& op);
bool emitMemory(Emitter& em, const ir::Op& op);
bool emitShape(Emitter& em, const ir::Op& op);
bool emitReduce(Emitter& em, const ir::Op& op);
bool emitDot(Emitter& em, const ir::Op& op);
bool emitControl(Emitter& em, const ir::Op& op);

/// A C literal of value `x` for element type e.
std::string literal(ir::Elem e, double x);
std::string literalInt(ir::Elem e, int64_t x);

} // namespace tkm::triton::lower
