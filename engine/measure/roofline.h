#pragma once
// Places a kernel on the roofline (Williams, Waterman & Patterson, "Roofline: an insightful visual performance
// model for multicore architectures", CACM 2009): attainable = min(peak compute, intensity × bandwidth).

#include "engine/measure/ceilings.h"

#include <string_view>

namespace tkm::measure {

/// Which ceiling limits a kernel at its arithmetic intensity.
enum class Bound { Memory, Compute, Unknown };

/// "memory", "compute", "unknown".
std::string_view boundName(Bound bound);

/// A kernel's point on the roofline and the roofs above it.
struct RooflinePoint
{
    double intensityFlopPerByte = 0;        ///< spec FLOPs / ideal bytes [FLOP/byte]
    double achievedGflops = 0;              ///< spec FLOPs / median time [GFLOP/s]
    double attainableGflopsTheoretical = 0; ///< min(peak, intensity × theoretical bandwidth) [GFLOP/s]
    double attainableGflopsMeasured =
        0; ///< min(peak, intensity × measured bandwidth) [GFLOP/s], peak = the measured tensor rate for dot
           ///< kernels when calibrated; 0 without calibration
    double ridgeFlopPerByte = 0;  ///< peak / bandwidth (measured if known, else theoretical) [FLOP/byte]
    Bound bound = Bound::Unknown; ///< memory when intensity < ridge, compute otherwise
};

/// Attainable rate [GFLOP/s] = min(peakGflops, intensity [FLOP/B] × bandwidth [GB/s]); a zero peak means "no
/// compute roof known" and leaves only the memory roof.
double attainableGflops(double intensityFlopPerByte, double bandwidthGbps, double peakGflops);

/// The roofline point of a kernel doing `flops` [FLOP] while ideally moving `idealBytes` [bytes] in `medianMs` [ms].
/// `useTensorPeak` picks the tensor-core peak instead of FP32 (matrix exercises on f16/bf16).
/// Zero or negative bytes/time give a point with only the fields that can be computed (bound Unknown).
RooflinePoint placeOnRoofline(double flops, double idealBytes, double medianMs, const Ceilings& ceilings,
                              bool useTensorPeak = false);

} // namespace tkm::measure
