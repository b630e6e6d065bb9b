#pragma once
// Binding a Triton kernel to an exercise (TRITON.md "What the learner writes"; docs/exercise-spec.md "Triton
// track"): runtime (non-constexpr) parameters bind to the spec's params by position, element types from the
// spec's dtypes (fp64 for floating buffers of the reference); tl.constexpr parameters bind by name to the
// track's meta (numbers, bools, strings, expressions over the case's sizes), then to the spec's meta (the job's
// values); NUM_WARPS / NUM_STAGES give num_warps / num_stages. One binding per case: a constexpr such as
// BLOCK_SIZE = pow2ceil(N) may differ between cases, and the kernel is specialised per distinct set, as
// Triton compiles one binary per constexpr set.

#include "engine/common/error.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/triton/check/checker.h"
#include "engine/triton/syntax/parser.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tkm::runner {

/// The Triton element type of a spec dtype (f16 → fp16, …, i64 → int64).
triton::ir::Elem tritonElem(engine::DType t);

/// A Triton kernel file parsed once.
struct TritonSource
{
    std::string name;           ///< file name shown in diagnostics ("solution.py")
    std::string text;           ///< the source
    triton::ParseResult parsed; ///< tree and syntax diagnostics
};

/// Parses `text`.
std::shared_ptr<TritonSource> parseTritonSource(std::string name, std::string text);

/// One binding of a kernel to one case.
struct TritonBinding
{
    triton::CheckInput input;      ///< for triton::check (module pointer set)
    std::vector<int> argIndex;     ///< per runtime parameter: index into ProblemInstance::args
    std::array<int64_t, 3> grid{1, 1, 1}; ///< programs per axis
    std::string key;               ///< the specialisation: entry, types and constexpr values as text
};

/// What to bind: the learner's kernel (track params and meta) or the track's reference.
struct BindTarget
{
    std::string entry;                               ///< @triton.jit function name
    std::vector<std::string> params;                 ///< spec params in order (empty: all)
    const std::map<std::string, problem::TritonMeta>* trackMeta = nullptr; ///< extra constexprs
    bool reference = false;                          ///< float buffers as fp64, grid from `grid`
    std::vector<std::string> grid;                   ///< reference: its grid expressions
};

/// Binds `src`'s `target.entry` to `inst`. A mismatch the learner can fix (no such function, a parameter count
/// that differs, a constexpr the exercise does not set) is returned as a diagnostic in `diagnostics` (and
/// no value); spec problems (a bad meta expression) are Errors.
engine::Expected<std::optional<TritonBinding>> bindTriton(const TritonSource& src, const BindTarget& target,
                                                          const problem::ExerciseSpec& spec,
                                                          const problem::ProblemInstance& inst,
                                                          std::vector<triton::Diagnostic>& diagnostics);

/// The learner's BindTarget of a spec's Triton track.
BindTarget learnerTarget(const problem::TritonTrack& track);

/// Indexes into spec.params of the params `target` binds, in the order of the kernel's runtime parameters
/// (`target.params`, or all of the spec's when empty).
std::vector<int> boundSpecParams(const problem::ExerciseSpec& spec, const BindTarget& target);
/// The names of `fn`'s runtime (not tl.constexpr) parameters, in order: they bind to boundSpecParams() one for one.
std::vector<std::string> runtimeParams(const triton::ast::FunctionDef& fn);
/// The reference's BindTarget.
BindTarget referenceTarget(const problem::TritonTrack& track);

} // namespace tkm::runner
