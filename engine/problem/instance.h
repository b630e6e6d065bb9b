#pragma once
// A concrete problem: one exercise spec + one case + meta-parameter values → shapes, strides, byte sizes,
// scalar values, launch dimensions, tolerances, ideal bytes and FLOPs, all as numbers.

#include "engine/problem/expr.h"
#include "engine/problem/spec.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tkm::problem {

/// Meta-parameter values by name.
using MetaValues = std::map<std::string, int64_t>;

/// Defaults of every meta-parameter, replaced by `overrides`. Errors (BadInput): an unknown name
/// ("BLOCK = 3: the exercise has no meta-parameter BLOCK (it has BLOCK_SIZE, NUM_WARPS)") or a value not allowed.
engine::Expected<MetaValues> resolveMeta(const ExerciseSpec& spec, const MetaValues& overrides = {});

/// One kernel argument of an instantiated problem, in the kernel's parameter order.
struct ArgInstance
{
    std::string name;                   ///< parameter name
    ParamKind kind = ParamKind::Buffer; ///< buffer or scalar
    DType dtype = DType::F32;           ///< element type (the learner's; see referenceDType() for the reference)
    // Buffers:
    Role role = Role::In;                       ///< role
    LayoutKind layout = LayoutKind::Contiguous; ///< storage layout in this case
    std::vector<int64_t> shape;                 ///< logical extents, outermost first
    std::vector<int64_t> strides;  ///< element strides per logical dim: element (i,j,…) at Σ index·stride
    int64_t numel = 0;             ///< logical elements (product of shape)
    int64_t storageElements = 0;   ///< elements of storage the strides span (1 + Σ (shape−1)·stride)
    int64_t bytes = 0;             ///< storageElements · dtypeBytes(dtype) [bytes]
    bool resetToZero = false;      ///< outputs: zeroed instead of poisoned before each launch
    std::optional<Generator> init; ///< in/inout: the generator used in this case
    uint64_t seed = 0;             ///< in/inout: seed of this buffer's generator
    // Scalars:
    int64_t intValue = 0;  ///< i32/i64 scalars (range-checked for i32)
    double floatValue = 0; ///< f32/f64 scalars (f32: rounded to float)
};

/// Concrete grid, block and dynamic shared memory.
struct LaunchDims
{
    std::array<int64_t, 3> grid{1, 1, 1};  ///< programs (thread blocks) per dimension, each ≥ 1
    std::array<int64_t, 3> block{1, 1, 1}; ///< threads per dimension; product ≤ 1024
    int64_t sharedBytes = 0;               ///< dynamic shared memory [bytes]
};

/// Everything a runner needs for one case, as numbers.
struct ProblemInstance
{
    std::string caseName;                 ///< the case's name
    std::map<std::string, int64_t> sizes; ///< size variables
    MetaValues meta;                      ///< meta-parameter values used
    uint64_t seed = 0;                    ///< the case seed (given or derived)
    std::vector<ArgInstance> args;        ///< kernel arguments in order
    LaunchDims launch;                    ///< learner's launch
    LaunchDims referenceLaunch;           ///< reference kernel's launch
    double idealBytes = 0;                ///< spec's ideal_bytes [bytes] (0 when absent)
    double flops = 0;                     ///< spec's flops [FLOP] (0 when absent)
    std::map<DType, Tolerance> tolerance; ///< per dtype, atol already multiplied by the scale, scale cleared
    Variables variables;                  ///< every variable that was in scope (sizes, meta, strides, numel)

    /// The argument named `name`, or nullptr.
    const ArgInstance* find(std::string_view name) const;
    /// Tolerance for an output of dtype t (exact 0/0 when the spec has none: integers compare exactly).
    Tolerance toleranceFor(DType t) const;
};

/// Instantiates `c` with meta values `meta` (use resolveMeta()). The case may be one of spec.cases, the
/// performance case or an autotune shape wrapped in a Case; `caseIndex` feeds the default seed (−1: performance).
/// Errors (BadSpec/Expression/BadInput) name the field: a size of 0, a non-integral or zero launch dimension,
/// more than 1024 threads per block, a missing size variable, an i32 scalar out of range.
engine::Expected<ProblemInstance> instantiate(const ExerciseSpec& spec, const Case& c, const MetaValues& meta,
                                              int caseIndex = 0);

/// Default seed of case `caseIndex` of exercise `id`: low 64 bits of FNV-1a-128("<id>/<caseIndex>").
uint64_t defaultCaseSeed(std::string_view id, int caseIndex);

} // namespace tkm::problem
