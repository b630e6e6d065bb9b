#pragma once
// Checks a learner's output buffer against the float64 reference over the logical elements:
//   pass(i) ⇔ got is not NaN, ref is not NaN, and
//             (got == ref exactly — this covers ±inf — or |got − ref| ≤ atol + rtol·|ref|).
// NaN never passes, on either side: a reference NaN counts as a mismatch (and in referenceNan) because a
// well-formed exercise never produces one; the exercise's own solution test catches that.
// Unwritten elements (exact poison bits, engine/common/dtype.h) are counted separately and are mismatches.
// Integer outputs compare exactly when the tolerance is 0/0.

#include "engine/common/dtype.h"
#include "engine/problem/instance.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tkm::check {

/// Byte pattern the runner writes into the canary zone before a buffer (repeated; little-endian 0xCA11AB1E).
inline constexpr uint32_t kCanaryWord = 0xCA11AB1Eu;
/// Most mismatches listed per output.
inline constexpr int kMaxListed = 10;

/// One listed mismatch.
struct Mismatch
{
    std::vector<int64_t> index; ///< logical coordinates, outermost first
    int64_t linear = 0;         ///< row-major logical index
    bool unwritten = false;     ///< got has the poison bits
    double got = 0;             ///< widened learner value (meaningless when unwritten)
    double expected = 0;        ///< reference value
};

/// Result of checking one output buffer in one case (run-report cases[i].outputs[j]).
struct OutputCheck
{
    std::string buffer;                    ///< parameter name
    int64_t checked = 0;                   ///< logical elements compared
    int64_t mismatches = 0;                ///< elements that fail (includes unwritten and NaN)
    int64_t unwritten = 0;                 ///< elements still holding poison
    int64_t firstUnwritten = -1;           ///< row-major logical index, −1 when none
    int64_t nan = 0;                       ///< learner NaNs (not poison)
    int64_t firstNan = -1;                 ///< row-major logical index, −1 when none
    int64_t inf = 0;                       ///< learner ±inf
    int64_t referenceNan = 0;              ///< reference NaNs (an exercise bug)
    double maxAbsError = 0;                ///< over written, finite, non-NaN elements
    double maxRelError = 0;                ///< |got − ref| / |ref| over the same, where ref ≠ 0
    double atol = 0;                       ///< effective (scaled) atol
    double rtol = 0;                       ///< rtol
    std::vector<Mismatch> firstMismatches; ///< first ≤ kMaxListed in row-major order
    int64_t canaryBeforeStart = 0;         ///< canary bytes changed before the buffer (0 when not checked)
    int64_t firstCanaryOffset = 0;         ///< of the damaged byte nearest the buffer: bytes before the start (≥ 1)

    /// No mismatches and no canary damage.
    bool pass() const { return mismatches == 0 && canaryBeforeStart == 0; }
};

/// Compares `got` (storage bytes in arg.dtype, ≥ arg.bytes) with `reference` (storage bytes in
/// referenceDType(arg.dtype), same strides). Only logical elements are read; padding is ignored.
OutputCheck compareOutput(const problem::ArgInstance& arg, std::span<const std::byte> got,
                          std::span<const std::byte> reference, const problem::Tolerance& tol);

/// Counts bytes of the canary zone (the bytes right before a buffer) that no longer hold the kCanaryWord
/// pattern. The pattern is aligned to the zone's end (the byte before the buffer is the last byte of a word).
/// Returns {damaged bytes, distance of the nearest damaged byte before the buffer start (0 when none)}.
std::pair<int64_t, int64_t> canaryDamage(std::span<const std::byte> zone);
/// Fills a canary zone with the pattern canaryDamage() expects.
void fillCanary(std::span<std::byte> zone);
/// Records canaryDamage(zone) in `check`.
void addCanaryDamage(OutputCheck& check, std::span<const std::byte> zone);

/// Bitwise comparison of two launches' output images over logical elements.
struct DeterminismCheck
{
    std::string buffer;               ///< parameter name
    int64_t differing = 0;            ///< logical elements whose bits differ
    int64_t firstIndex = -1;          ///< row-major logical index of the first, −1 when identical
    std::vector<int64_t> firstCoords; ///< its coordinates
    /// Both launches gave identical bits.
    bool identical() const { return differing == 0; }
};

/// Compares two output images of `arg` (storage bytes in arg.dtype) bit for bit over logical elements.
DeterminismCheck compareLaunches(const problem::ArgInstance& arg, std::span<const std::byte> first,
                                 std::span<const std::byte> second);

/// One sentence per problem found in a case, joined; "" when everything passes. E.g.
/// "1 of 1025 elements of `out` were never written (first at index 1024): does the last program cover the tail?"
std::string caseMessage(const problem::ProblemInstance& inst, const std::vector<OutputCheck>& outputs,
                        const std::vector<DeterminismCheck>& determinism = {});

/// Formats a coordinate list: "[3, 17]".
std::string formatIndex(const std::vector<int64_t>& index);

} // namespace tkm::check
