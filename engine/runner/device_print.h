#pragma once
// Device printf capture. CUDA's printf (and the lowering of tl.device_print) writes the device's printf FIFO to
// the process's stdout (file descriptor 1) when the host synchronises; in the worker that is the protocol
// channel. captureDevicePrintf() moves the real stdout to another descriptor (std::cout then writes there) and
// points descriptor 1 at an anonymous in-memory file, which the runner drains after each synchronised launch:
// the report keeps the first kPrintedKept lines (`printed`) and counts the rest (`printed_dropped`). Without the
// capture installed (a test calling the Runner directly) nothing is collected and output goes where it went.

#include "engine/report/run_report.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tkm::runner {

/// Lines of device output a report keeps; further lines are only counted.
inline constexpr std::size_t kPrintedKept = 200;

/// Installs the capture (once per process; later calls do nothing). Returns false, with nothing changed, when
/// the in-memory file or the descriptor moves fail.
bool captureDevicePrintf();

/// Whether captureDevicePrintf() is in place.
bool devicePrintfCaptured();

/// Device output written since the last drain, split into lines (a last line without a newline kept too),
/// at most `keep` of them; `dropped` counts the others. Empties the capture file. Call after a synchronise.
std::vector<std::string> drainDevicePrintf(std::size_t keep, int64_t& dropped);

/// While alive, descriptor 2 (stderr) points at an in-memory file: CUDA writes the report of a failed device
/// assert ("kernel.cu:9: …: block: [0,0,0], thread: [5,0,0] Assertion `…` failed.", device_assert.h) to stderr,
/// not stdout, when the host synchronises (seen on the H200, CUDA 13.0). take() restores descriptor 2 and returns
/// those assert lines; every other line caught is written on to the real stderr. Does nothing (take() returns
/// nothing) unless captureDevicePrintf() is in place. Wrap one synchronise in it.
class StderrWindow
{
public:
    StderrWindow();
    ~StderrWindow(); ///< restores descriptor 2 if take() was not called
    StderrWindow(const StderrWindow&) = delete;
    StderrWindow& operator=(const StderrWindow&) = delete;

    /// Restores descriptor 2; the assert report lines written meanwhile, in order.
    std::vector<std::string> take();

private:
    int m_saved = -1; // the real stderr while the window is open
    int m_mem = -1;   // the in-memory file
};

namespace detail {

/// Appends `lines` to the report's `printed` up to kPrintedKept lines in all; the rest and `dropped` go to
/// `printed_dropped`.
void keepPrinted(report::RunReport& r, const std::vector<std::string>& lines, int64_t dropped);

} // namespace detail

} // namespace tkm::runner
