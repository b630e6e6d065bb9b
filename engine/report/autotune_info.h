#pragma once
// The run report's `autotune` section (docs/run-report.md, "autotune"): what a tuning job (worker request field
// `configs`) found — each configuration's correctness verdict on the cases, its median time on every shape of the
// spec's `autotune` block, and the fastest configuration per key value, as @triton.autotune picks it.
// Part of schema "tkm-run-report/1" (an optional section: readers of older reports ignore it).

#include "engine/report/verdict.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tkm::report {

/// `autotune.configs[i]`: one configuration the learner listed, checked on the correctness cases.
struct AutotuneConfigInfo
{
    std::map<std::string, int64_t> meta; ///< meta-parameter values, defaults filled in
    ConfigVerdict verdict = ConfigVerdict::Skipped; ///< a run verdict, or skipped (after a fault)
    std::string summary;                 ///< sentence: "All 7 cases pass." or the first failure (absent when empty)
};

/// `autotune.samples[i]`: one passing configuration timed on one shape.
struct AutotuneSampleInfo
{
    int config = 0;                  ///< index into autotune.configs
    int shape = 0;                   ///< index into autotune.shapes
    std::optional<double> medianMs;  ///< [ms]; absent when it could not be timed
    bool settled = false;            ///< the spread of the samples settled (else the time budget ended sampling)
    std::string error;               ///< why it could not be timed (absent when empty)
};

/// `autotune.winners[i]`: the fastest configuration for one value of the key.
struct AutotuneWinnerInfo
{
    std::map<std::string, int64_t> key; ///< key sizes, e.g. {"M": 16384, "N": 2048}
    std::vector<int> shapes;            ///< indices of the shapes with this key value
    int config = 0;                     ///< index into autotune.configs
    double medianMs = 0;                ///< the winner's median [ms]
    double speedupOverSlowest = 0;      ///< slowest timed configuration's median / the winner's [1]
};

/// `autotune`
struct AutotuneInfo
{
    std::vector<std::string> key;                       ///< size names the winner is keyed on
    std::vector<std::map<std::string, int64_t>> shapes; ///< the spec's autotune shapes, in order
    std::vector<std::string> resetToZero;               ///< outputs the job declared (absent when empty)
    int launchesPerCheck = 0;                           ///< launches per case on the same buffers while checking
    std::vector<AutotuneConfigInfo> configs;            ///< in the order the learner listed them
    std::vector<AutotuneSampleInfo> samples;            ///< config-major; absent when nothing was timed
    std::vector<AutotuneWinnerInfo> winners;            ///< in order of first appearance of the key value
    std::string note;                                   ///< why timing did not happen (absent when empty)

    /// Shape `shape`'s winning configuration index, or -1 when no winner covers it.
    int winnerForShape(int shape) const;
    /// The configuration as "BLOCK_SIZE=256, NUM_WARPS=4" (spec order is not known here: name order).
    std::string configLabel(int config) const;
    /// The sample of (config, shape), or nullptr.
    const AutotuneSampleInfo* sample(int config, int shape) const;
};

/// The section as terminal text (tkm-run run --config): one line per configuration with its verdict, the table of
/// median times [ms] (configurations × shapes, the winner of each shape marked with *), and the winner per shape
/// with its speedup over the slowest configuration.
std::string formatAutotuneText(const AutotuneInfo& info);

void to_json(nlohmann::json& j, const AutotuneConfigInfo& v);   ///< JSON writer
void from_json(const nlohmann::json& j, AutotuneConfigInfo& v); ///< JSON reader
void to_json(nlohmann::json& j, const AutotuneSampleInfo& v);   ///< JSON writer
void from_json(const nlohmann::json& j, AutotuneSampleInfo& v); ///< JSON reader
void to_json(nlohmann::json& j, const AutotuneWinnerInfo& v);   ///< JSON writer
void from_json(const nlohmann::json& j, AutotuneWinnerInfo& v); ///< JSON reader
void to_json(nlohmann::json& j, const AutotuneInfo& v);         ///< JSON writer
void from_json(const nlohmann::json& j, AutotuneInfo& v);       ///< JSON reader

} // namespace tkm::report
