#pragma once
// Seeded input generation. Values are drawn in double with std::mt19937_64, rounded to the buffer's dtype,
// and written in storage order (padding elements get the dtype's poison). The reference sees the same rounded
// values widened to double. Deterministic: the same instance gives the same bytes on every machine.
//
// Seeds: buffer seed = mix64(caseSeed ^ FNV-1a-128(buffer name).low64()) (ArgInstance::seed).
// Logical elements are drawn in row-major logical order, so the values do not depend on the layout (except
// `arange`, which is start + storage offset · step, as docs/exercise-spec.md says).

#include "engine/problem/instance.h"

#include <cstddef>
#include <vector>

namespace tkm::problem {

/// Host images of one buffer argument.
struct BufferImage
{
    std::string name;                 ///< parameter name
    std::vector<std::byte> learner;   ///< storage bytes in the buffer's dtype (size ArgInstance::bytes)
    std::vector<std::byte> reference; ///< storage bytes in referenceDType(dtype) (f64 for floats); empty
                                      ///< unless asked for
};

/// Inputs of one instance: one image per buffer argument, in argument order (scalars are skipped).
/// in/inout: generated; out: poison (zero when resetToZero) — what must be in device memory before a launch.
struct GeneratedInputs
{
    std::vector<BufferImage> buffers; ///< in argument order of the buffer arguments
    /// The image of the buffer named `name`, or nullptr.
    const BufferImage* find(std::string_view name) const;
};

/// Generates the host images. `withReference`: also build the float64 images (skip for the performance case).
/// Errors (BadInput) when a buffer is too large for host memory (std::bad_alloc is caught).
engine::Expected<GeneratedInputs> generateInputs(const ProblemInstance& inst, bool withReference = true);

/// Logical elements per chunk of generatePerformanceInputs() [elements].
inline constexpr int64_t kPerformanceChunkElements = int64_t{1} << 20;

/// The images of a performance case (no float64 images), drawn in parallel: logical elements are cut into chunks
/// of kPerformanceChunkElements and chunk k is drawn from its own generator, seeded mix64(seed + k + 1), so the
/// bytes are the same on every machine and for any number of `threads` (0: every hardware thread), but differ from
/// generateInputs()'s single stream. Only for data that is timed, never checked (2^27 elements take seconds on
/// one thread). Errors: those of generateInputs().
engine::Expected<GeneratedInputs> generatePerformanceInputs(const ProblemInstance& inst, unsigned threads = 0);

/// The performance image of one buffer argument `arg` into `dst` (`arg.bytes` bytes, any prior contents): the
/// same bytes as its image in generatePerformanceInputs(), without a host vector (a caller's uninitialised or
/// pinned staging memory). `threads` as there.
void drawPerformanceInput(const ArgInstance& arg, std::byte* dst, unsigned threads = 0);

/// Fills `dst` (storage of `arg`, `arg.bytes` bytes) with the generated values; `ref` (optional, same storage
/// in f64/int) with the same values widened. Padding gets poison. Exposed for tests and streaming use.
void generateInto(const ArgInstance& arg, std::byte* dst, std::byte* ref);

/// Storage offset [elements] of logical element `linear` (row-major over arg.shape).
int64_t storageOffset(const ArgInstance& arg, int64_t linear);

/// Multi-dimensional index of logical element `linear` (row-major over arg.shape).
std::vector<int64_t> logicalIndex(const ArgInstance& arg, int64_t linear);

} // namespace tkm::problem
