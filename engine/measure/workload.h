#pragma once
// What the measure phase times and profiles: a piece of GPU work that a caller enqueues on a stream
// (one learner kernel, or a baseline's sequence of kernels / a cuBLAS call), plus how to re-initialise its outputs.

#include "engine/common/error.h"

#include <cuda.h>

#include <functional>
#include <string>

namespace tkm::measure {

/// Enqueues asynchronous work on `stream`. Must not synchronise the host (no cuStreamSynchronize, no
/// synchronous copies): the measure phase relies on flush, events and launch being queued back to back.
using EnqueueFn = std::function<engine::Status(CUstream stream)>;

/// One measured workload.
struct Workload
{
    std::string label;            ///< shown in reports and logs, e.g. "vector_add" or "unfused (5 kernels)"
    EnqueueFn launch;             ///< the timed work (required)
    EnqueueFn resetOutputs;       ///< re-initialises outputs (cuMemsetD8Async or a copy) before every timed launch,
                                  ///< outside the timed events, so accumulating kernels cannot drift; may be empty
    double idealBytes = 0;        ///< spec's ideal_bytes for the performance case [bytes]; 0 when absent
    double flops = 0;             ///< spec's flops [FLOP]; 0 when absent
    double outputBytes = 0;       ///< bytes of the out/inout buffers [bytes]: picks the stored-bytes counter
    bool usesTensorCores = false; ///< roofline against the tensor-core peak instead of FP32
};

} // namespace tkm::measure
