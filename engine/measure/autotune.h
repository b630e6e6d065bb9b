#pragma once
// Autotuning as @triton.autotune does it (docs/exercise-spec.md, field `autotune`; job option `configs`): every
// configuration (a set of meta-parameter values) is timed on every shape of the spec, and the fastest one is named
// per value of the key. Correctness of each configuration is the runner's job (the cases); this times them.

#include "engine/measure/measure.h"
#include "engine/problem/instance.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tkm::measure {

/// One configuration timed on one shape.
struct AutotuneSample
{
    problem::MetaValues config;           ///< meta-parameter values (resolved: defaults filled in)
    std::map<std::string, int64_t> shape; ///< the shape's sizes
    double medianMs = 0;                  ///< [ms]; 0 when it failed
    bool settled = false;                 ///< spread settled
    std::string error;                    ///< non-empty when the configuration could not be compiled or timed
};

/// The fastest configuration for one value of the key.
struct AutotuneWinner
{
    std::map<std::string, int64_t> key; ///< key sizes (e.g. {"M": 16384, "N": 2048})
    problem::MetaValues config;         ///< the winning configuration
    double medianMs = 0;                ///< its median [ms]
    double speedupOverSlowest = 0;      ///< slowest successful median / winner's median [1]
};

/// All samples and the winners per key value.
struct AutotuneResult
{
    std::vector<AutotuneSample> samples; ///< config-major order
    std::vector<AutotuneWinner> winners; ///< one per distinct key value, in order of first appearance
};

/// The fastest successful sample per distinct key value (the `key` sizes of each sample's shape); samples with an
/// error are ignored; ties keep the configuration listed first. Pure function.
std::vector<AutotuneWinner> pickWinners(const std::vector<AutotuneSample>& samples,
                                        const std::vector<std::string>& key);

/// Called before each (configuration, shape) is timed: `done` of `total` (1-based), and the sample's config/shape.
using AutotuneProgress = std::function<void(int done, int total, const AutotuneSample& sample)>;

/// Compiles `source` once per configuration (NVRTC for compute capability `cc`, major·10 + minor), times it on
/// every shape of spec.autotune (each shape's inputs generated once) and picks the winners. Errors: the spec has no `autotune`, fewer configurations
/// than its `min_configs`, or a configuration that names an unknown meta-parameter (BadInput, from resolveMeta).
/// A configuration that fails to compile or launch is recorded in its samples' `error`, not returned as an Error.
engine::Expected<AutotuneResult> autotune(Measurer& measurer, CUstream stream, const problem::ExerciseSpec& spec,
                                          const std::string& source, const std::vector<problem::MetaValues>& configs,
                                          int cc, const TimingOptions& timing = {},
                                          const AutotuneProgress& progress = {});

} // namespace tkm::measure
