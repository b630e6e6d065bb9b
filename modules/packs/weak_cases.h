#pragma once
// Weak-case warnings of an exercise spec (docs/exercise-spec.md, "Weak cases"): cases that let a wrong kernel pass.
// Each warning names the field it concerns by JSON pointer, so an editor can put it on that field and a command line
// can print exercise.json:line:column. Qt-free; no GPU is needed for these (the "bug variant passes" warning comes
// from the GPU verdicts, exercise_check.h).

#include "engine/problem/spec.h"

#include <string>
#include <vector>

namespace tkm::packs {

/// What a weak-case warning is about.
enum class WeakKind {
    NoRaggedCase,    ///< every case size is a whole number of tiles: a missing mask goes unnoticed
    NoNegativeInput, ///< no floating-point input is ever negative: a fill value of 0 for a max goes unnoticed
    LooseTolerance,  ///< atol or rtol looser than the output dtype needs: wrong precision goes unnoticed
    BugPasses,       ///< a bug variant passed every case on the GPU: the cases do not catch it
};

/// "no-ragged-case", "no-negative-input", "loose-tolerance", "bug-passes" (the JSON and CLI name).
std::string weakKindName(WeakKind kind);

/// One weak-case warning.
struct SpecWarning
{
    WeakKind kind = WeakKind::NoRaggedCase; ///< what it is about
    std::string pointer;                    ///< JSON pointer of the field, e.g. "/tolerance/f32/atol", "/cases"
    std::string message;                    ///< one sentence: what is weak and what to add or change
};

/// Loosest atol and rtol that an output of dtype `t` may declare before LooseTolerance fires (atol before its
/// `scale`). f64 1e-8, f32 1e-4, f16 1e-2, bf16 8e-2, integers 0; sources and reasons in docs/exercise-spec.md.
double toleranceLimit(engine::DType t);

/// The warnings that need no GPU: NoRaggedCase, NoNegativeInput, LooseTolerance, in that order. `spec` must be a
/// parsed spec (parseSpec); the correctness cases are examined, not the performance case.
///
/// NoRaggedCase: a tile is each meta-parameter that the launch `block` does not use (those count threads) and that
/// the launch grid names or whose name starts with BLOCK or TILE (Triton's BLOCK_SIZE, BLOCK_M, …; not GROUP_SIZE_M),
/// at each allowed value > 1 (the default when no list is given); with no such meta-parameter, the threads per
/// block. A tile
/// covers the sizes that `cdiv(size, TILE)` pairs with it in the launch grid, else the sizes of the grid dimension
/// that names it, else (a program loops over them) the sizes the grid does not name, else every size. It fires
/// when no case has a covered size that is not a multiple of the tile.
/// NoNegativeInput: fires when the spec has floating-point inputs and no case's generator for any of them can draw
/// a negative value (normal: mean < 3·std; uniform, int: low < 0; negative, large: always; arange: start or step
/// < 0). Integer inputs are left out: they are mostly indices and bin numbers.
/// LooseTolerance: atol or rtol of a dtype above toleranceLimit().
std::vector<SpecWarning> weakCaseWarnings(const problem::ExerciseSpec& spec);

} // namespace tkm::packs
