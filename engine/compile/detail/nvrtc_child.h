#pragma once
// One NVRTC compilation in a child process with a time and memory bound (internal to engine/compile).
//
// NVRTC cannot be interrupted: a call that expands a macro bomb or a runaway template runs for minutes and may
// take gigabytes. A thread could not be stopped either, so the compile runs in a fork()ed child that does only
// NVRTC calls, writes what they returned to a pipe and _exit()s; the parent waits with a deadline and kills it.

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace tkm::compile::detail {

/// What the child's NVRTC calls returned.
struct NvrtcOutcome
{
    enum class Status {
        Done,      ///< nvrtcCompileProgram ran; see `compileResult`
        ApiFailed, ///< an NVRTC call other than the compile failed (`failedCall`, `failedMessage`)
        Timeout,   ///< the deadline passed; the child was killed
        Memory,    ///< the child hit its memory limit
        Crashed,   ///< the child ended without a complete answer (`failedMessage` says how)
    };
    Status status = Status::Crashed;
    int compileResult = 0;        ///< nvrtcResult of nvrtcCompileProgram (Done)
    std::string log;              ///< program log (cut at kMaxLogBytes)
    std::string lowered;          ///< lowered name of the kernel (empty when NVRTC gave none)
    std::vector<char> cubin;      ///< CUBIN when the compile succeeded (PTX text for a compute_XX target)
    std::string failedCall;       ///< ApiFailed: the call
    std::string failedMessage;    ///< ApiFailed: nvrtcGetErrorString; Crashed: the signal or exit status
    bool logCut = false;          ///< the log was longer than kMaxLogBytes
};

/// Longest program log passed back [bytes]; a longer one is cut (a macro bomb can print megabytes of errors).
inline constexpr std::size_t kMaxLogBytes = 1 << 20;
/// Compiles `text` (named `name`, entry `kernel`) with `options`, in a child, within `timeout` and an address
/// space of `memoryBytes`.
NvrtcOutcome compileInChild(const std::string& text, const std::string& name, const std::string& kernel,
                            const std::vector<std::string>& options, std::chrono::milliseconds timeout,
                            std::size_t memoryBytes);

} // namespace tkm::compile::detail
