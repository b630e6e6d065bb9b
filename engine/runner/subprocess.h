#pragma once
// A child process started with posix_spawn (fork + exec: no CUDA state is inherited, and it is safe in a
// multi-threaded parent), with pipes on its stdin and stdout, optionally in its own process group so that a
// kill reaches everything it started. Used by the worker client (tkm-run --serve) and the fault diagnosis
// (tkm-run --probe). SIGPIPE is ignored process-wide on first use, so writing to a dead child is an error value.

#include "engine/common/error.h"

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::runner {

/// Outcome of Subprocess::readLine().
enum class ReadResult {
    Line,    ///< a complete line was read (without the newline)
    Eof,     ///< the child closed its stdout (exited or crashed)
    Timeout, ///< the deadline passed first
    Woken,   ///< the wake file descriptor became readable (cancel)
};

/// How a child ended.
struct ExitInfo
{
    bool exited = false; ///< exited normally (exitCode valid)
    int exitCode = 0;    ///< exit status when exited
    int signal = 0;      ///< terminating signal when !exited
    /// "exit status 3" or "signal 11 (Segmentation fault)".
    std::string describe() const;
};

/// A running child process with pipes on stdin and stdout (stderr is inherited). Move-only; the destructor
/// kills the child (its group when it has one) and reaps it.
class Subprocess
{
public:
    /// Starts `exe` with `args` (argv[1…]). `ownGroup`: the child leads a new process group.
    /// Errors (Internal): pipes or posix_spawn failed, with the OS reason.
    static engine::Expected<Subprocess> spawn(const std::filesystem::path& exe, const std::vector<std::string>& args,
                                              bool ownGroup);

    Subprocess() = default;                             ///< empty
    ~Subprocess();                                      ///< kills and reaps a running child
    Subprocess(Subprocess&& other) noexcept;            ///< moves ownership
    Subprocess& operator=(Subprocess&& other) noexcept; ///< moves ownership
    Subprocess(const Subprocess&) = delete;             ///< owner: not copyable
    Subprocess& operator=(const Subprocess&) = delete;  ///< owner: not copyable

    /// Writes all of `data` to the child's stdin. Error (Internal) when the child is gone.
    engine::Status write(std::string_view data);
    /// Closes the child's stdin (it sees end of file).
    void closeStdin();
    /// Reads one line from the child's stdout, waiting at most until `deadline`; returns Woken as soon as
    /// `wakeFd` (if ≥ 0) becomes readable.
    ReadResult readLine(std::string& line, std::chrono::steady_clock::time_point deadline, int wakeFd = -1);
    /// Sends SIGKILL to the child (its whole group when it leads one).
    void kill();
    /// Waits for the child to end (after kill() or end of file) and returns how it ended.
    ExitInfo wait();
    /// Waits at most `timeout` for the child to end; false when it is still running.
    bool waitFor(std::chrono::milliseconds timeout, ExitInfo& info);
    /// Process id (0 when empty or reaped).
    pid_t pid() const { return m_pid; }
    /// True while a child is held and not yet reaped.
    bool running() const { return m_pid > 0; }

private:
    void closeAll();
    pid_t m_pid = 0;
    bool m_ownGroup = false;
    int m_stdin = -1;
    int m_stdout = -1;
    std::string m_buffer; // bytes read past the last returned line
};

/// The tkm-run executable: env TKM_RUN when set, else this process itself when it is tkm-run, else `tkm-run`
/// next to this process's executable.
std::filesystem::path defaultTkmRunPath();

} // namespace tkm::runner
