#pragma once
// Wall-clock stage timing shared by the runner and the measure phase.

#include <chrono>

namespace tkm::engine {

/// Steady clock of every stage time (`stages_ms` of the run report).
using Clock = std::chrono::steady_clock;

/// Milliseconds elapsed since `t0` [ms].
inline double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

} // namespace tkm::engine
