#pragma once
// Internal to the runner and the probe: device buffers and kernel arguments for one launch of one case, and a
// launch that waits for the kernel and classifies how it ended.

#include "engine/cuda/context.h"
#include "engine/cuda/driver.h"
#include "engine/cuda/module.h"
#include "engine/memory/buffer_pool.h"
#include "engine/memory/guarded_buffer.h"
#include "engine/problem/generate.h"
#include "engine/problem/instance.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tkm::runner::detail {

/// Guard layout per buffer: `perBuffer` entries win, everything else gets `fallback`.
struct GuardPlan
{
    memory::GuardOptions fallback;                         ///< default layout
    std::map<std::string, memory::GuardOptions> perBuffer; ///< by parameter name
    /// The layout of buffer `name`.
    const memory::GuardOptions& forBuffer(const std::string& name) const;
};

/// Which images and element types a launch uses.
enum class Side {
    Learner,   ///< the learner's dtypes and images
    Reference, ///< float64 for floating buffers (problem::BufferImage::reference)
};

/// Buffers and packed arguments of one launch, in argument order (no buffer for scalars). With a pool, the
/// buffers go back to it when this is destroyed.
struct DeviceArgs
{
    std::vector<std::optional<memory::GuardedBuffer>> buffers; ///< per argument; nullopt for scalars
    cuda::KernelArgs args;                                     ///< packed for cuLaunchKernel
    memory::BufferPool* pool = nullptr;                        ///< where the buffers return (none: freed)

    DeviceArgs() = default;                            ///< no buffers
    ~DeviceArgs();                                     ///< returns the buffers to `pool`, or frees them
    DeviceArgs(DeviceArgs&& other) noexcept;           ///< moves the buffers
    DeviceArgs& operator=(DeviceArgs&& other) noexcept; ///< returns its own buffers, then moves
    DeviceArgs(const DeviceArgs&) = delete;            ///< owns device memory
    DeviceArgs& operator=(const DeviceArgs&) = delete; ///< owns device memory
};

/// Allocates guarded buffers for every buffer argument of `inst`, fills the canaries, uploads the generated
/// images (outputs: poison or zero as generated), and packs the arguments. Ordered on `stream`. With `pool` the
/// buffers come from it (same layouts as fresh ones) and go back to it.
engine::Expected<DeviceArgs> prepareArgs(const cuda::Context& ctx, const cuda::Stream& stream,
                                         const problem::ProblemInstance& inst, const problem::GeneratedInputs& images,
                                         Side side, const GuardPlan& plan, memory::BufferPool* pool = nullptr);

/// How a launch ended.
struct LaunchOutcome
{
    bool ok = false;                          ///< launched and finished without error
    std::optional<cuda::CudaFailure> failure; ///< the CUDA error, when there was one
    engine::Error error;                      ///< the error as a value (when !ok)
    std::vector<std::string> printed;         ///< device printf output of this launch (device_print.h)
    int64_t printedDropped = 0;               ///< further lines not kept
    /// The context is unusable (kernel fault).
    bool sticky() const { return failure && failure->sticky; }
};

/// Launches `kernel` with `dims` and waits for it on `stream`; collects what it printed (also when it failed).
LaunchOutcome launchAndWait(const cuda::Kernel& kernel, const problem::LaunchDims& dims, DeviceArgs& args,
                            const cuda::Stream& stream);

/// Downloads argument `index`'s buffer (its bytes() bytes).
engine::Expected<std::vector<std::byte>> download(const DeviceArgs& args, size_t index, const cuda::Stream& stream);

} // namespace tkm::runner::detail
