#pragma once
// The calibration run behind the measured ceilings (issue 17, "true ceilings"): the best DRAM bandwidth of a few
// vectorised streaming kernels (grid-stride copy with four 16-byte vectors in flight, one-tile-per-block copy and
// vector add as Triton and torch compile them) at two sizes and several block shapes, and the tensor-core rate of
// a large cuBLAS fp16 GEMM. The Measurer runs it once per device and driver and caches the result (ceilings.h).

#include "engine/common/error.h"
#include "engine/measure/ceilings.h"
#include "engine/measure/timing.h"
#include "engine/measure/workload.h"

#include <cuda.h>

#include <functional>

namespace tkm::measure {

/// Times a workload with the measurer's L2 flush (Measurer::time).
using TimeFn = std::function<engine::Expected<TimingResult>(const Workload&, CUstream, const TimingOptions&)>;

/// The streaming kernels of detail::measureKernelsPtx().
struct StreamKernels
{
    CUfunction copy = nullptr;     ///< tkm_copy: grid-stride, one 16-byte vector per iteration
    CUfunction copy4 = nullptr;    ///< tkm_copy4: grid-stride, four vectors in flight
    CUfunction copyTile = nullptr; ///< tkm_copy_tile: a tile of 2 · blockDim.x vectors per block
    CUfunction addTile = nullptr;  ///< tkm_add_tile: out = x + y in the same tile shape
};

/// Measures every kernel × block shape at max(256 MiB, 4 × L2) and 4 times that per buffer (a size that does not
/// fit in memory is skipped) and keeps the fastest in GB/s of ideal bytes (copy: 2 per byte, add: 3).
/// Fills copyGbps, bytes, medianMs, kernel. Errors: no size could be allocated, or a CUDA launch failed.
engine::Expected<CopyCalibration> calibrateStreaming(const StreamKernels& kernels, int sms, long long l2Bytes,
                                                     CUstream stream, const TimeFn& time);

/// Times a cuBLAS fp16 GEMM (fp32 accumulate) of `size`³ and fills tensorGflops, tensorSize and tensorMedianMs
/// of `calibration`; without cuBLAS (or when it fails) it fills tensorNote instead. Never an error: the tensor
/// figure is optional.
void calibrateTensorCores(CopyCalibration& calibration, int size, CUstream stream, const TimeFn& time);

} // namespace tkm::measure
