#include "engine/measure/roofline.h"

#include <algorithm>

namespace tkm::measure {

std::string_view boundName(Bound bound)
{
    switch (bound) {
    case Bound::Memory:
        return "memory";
    case Bound::Compute:
        return "compute";
    case Bound::Unknown:
        return "unknown";
    }
    return "unknown";
}

double attainableGflops(double intensityFlopPerByte, double bandwidthGbps, double peakGflops)
{
    const double memoryRoof = intensityFlopPerByte * bandwidthGbps; // FLOP/B × 1e9 B/s = 1e9 FLOP/s
    return peakGflops > 0 ? std::min(peakGflops, memoryRoof) : memoryRoof;
}

RooflinePoint placeOnRoofline(double flops, double idealBytes, double medianMs, const Ceilings& ceilings,
                              bool useTensorPeak)
{
    RooflinePoint p;
    if (medianMs > 0)
        p.achievedGflops = flops / (medianMs * 1e-3) / 1e9;
    if (idealBytes <= 0)
        return p;
    p.intensityFlopPerByte = flops / idealBytes;
    const double peak = useTensorPeak ? ceilings.peakTensorGflops : ceilings.peakFp32Gflops;
    p.attainableGflopsTheoretical = attainableGflops(p.intensityFlopPerByte, ceilings.theoreticalGbps, peak);
    // Dot kernels sit under a measured roof too: the calibration's cuBLAS GEMM rate when there is one.
    const double measuredPeak =
        useTensorPeak && ceilings.measuredTensorGflops > 0 ? ceilings.measuredTensorGflops : peak;
    if (ceilings.measuredCopyGbps > 0)
        p.attainableGflopsMeasured = attainableGflops(p.intensityFlopPerByte, ceilings.measuredCopyGbps, measuredPeak);
    const double bandwidth = ceilings.measuredCopyGbps > 0 ? ceilings.measuredCopyGbps : ceilings.theoreticalGbps;
    if (peak > 0 && bandwidth > 0) {
        p.ridgeFlopPerByte = peak / bandwidth;
        p.bound = p.intensityFlopPerByte < p.ridgeFlopPerByte ? Bound::Memory : Bound::Compute;
    } else if (bandwidth > 0) {
        p.bound = Bound::Memory; // no compute roof known: only the memory roof limits
    }
    return p;
}

} // namespace tkm::measure
