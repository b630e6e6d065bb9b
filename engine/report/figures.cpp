#include "engine/report/figures.h"

namespace tkm::report {

namespace {

std::optional<double> real(const std::optional<int64_t>& v)
{
    return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
}

} // namespace

std::optional<double> dramEfficiency(std::optional<double> idealBytes, std::optional<double> dramReadBytes,
                                     std::optional<double> storedBytes)
{
    if (!idealBytes || !dramReadBytes || !storedBytes || *dramReadBytes + *storedBytes <= 0) {
        return std::nullopt;
    }
    return *idealBytes / (*dramReadBytes + *storedBytes);
}

std::optional<double> dramEfficiency(const TrafficInfo& t)
{
    if (t.efficiency) {
        return t.efficiency;
    }
    return dramEfficiency(t.idealBytes, real(t.dramReadBytes), real(t.storedBytes));
}

double bytesMoved(const TrafficInfo& t)
{
    return real(t.dramReadBytes).value_or(0) + real(t.storedBytes).value_or(0);
}

double bytesMoved(const BaselineInfo& b)
{
    return real(b.dramReadBytes).value_or(0) + real(b.storedBytes).value_or(0);
}

const CaseInfo* firstFailingCase(const RunReport& r)
{
    for (const CaseInfo& c : r.cases) {
        if (c.verdict == CaseVerdict::Fail) {
            return &c;
        }
    }
    return nullptr;
}

double timedFlops(const TimingInfo& t)
{
    return t.achievedGflops.value_or(0) * 1e9 * t.medianMs * 1e-3;
}

} // namespace tkm::report
