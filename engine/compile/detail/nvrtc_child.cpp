#include "engine/compile/detail/nvrtc_child.h"

#include <cstdio>

#include <nvrtc.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>

#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tkm::compile::detail {
namespace {

// The child's answer on the pipe: a tag byte, then length-prefixed fields (same order in writer and reader).
enum Tag : char { kDone = 'D', kApiFailed = 'F' };

void put(std::string& out, std::string_view bytes)
{
    const uint64_t n = bytes.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out.append(bytes);
}

bool take(std::string_view& in, std::string& field)
{
    uint64_t n = 0;
    if (in.size() < sizeof n) {
        return false;
    }
    std::memcpy(&n, in.data(), sizeof n);
    in.remove_prefix(sizeof n);
    if (in.size() < n) {
        return false;
    }
    field.assign(in.substr(0, n));
    in.remove_prefix(n);
    return true;
}

void writeAll(int fd, const std::string& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return;
        }
        done += static_cast<std::size_t>(n);
    }
}

// The address space this process maps now [bytes] (the first field of /proc/self/statm, in pages); 0 if unknown.
std::size_t addressSpaceBytes()
{
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (f == nullptr) {
        return 0;
    }
    unsigned long long pages = 0;
    const int n = std::fscanf(f, "%llu", &pages);
    std::fclose(f);
    return n == 1 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)) : 0;
}

// <assert.h> and <cassert> for device code. NVRTC has no C library headers, but its built-in
// crt/common_functions.h declares the device's __assertfail and defines `assert` under __CUDACC_RTC__; these
// headers only re-apply C's rule that every inclusion re-reads NDEBUG (ISO C 7.2), so `#define NDEBUG` before the
// include turns asserts off as it does under nvcc. A failed assert prints "file:line: function: block: [...],
// thread: [...] Assertion `e` failed." and the launch ends with CUDA_ERROR_ASSERT (CUDA Programming Guide,
// "Assertion").
constexpr const char* kAssertHeader = R"(/* engine-provided: the device assert of NVRTC, NDEBUG re-read */
#undef assert
#ifdef NDEBUG
#define assert(e) (static_cast<void>(0))
#else
#define assert(e) ((e) ? static_cast<void>(0) : __assertfail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__, sizeof(char)))
#endif
)";
constexpr const char* kAssertHeaderNames[] = {"assert.h", "cassert"};

// Runs in the child: NVRTC calls only, then the answer. Never returns. `memoryBytes` is the whole address-space
// limit (what the parent mapped plus the compile's allowance).
[[noreturn]] void childMain(int fd, const std::string& text, const std::string& name, const std::string& kernel,
                            const std::vector<std::string>& options, std::size_t memoryBytes)
{
    // The limit is on top of what the process already maps: a worker with a CUDA context has reserved tens of
    // GiB of address space, and a cap below that would make every allocation of NVRTC fail.
    rlimit limit{memoryBytes, memoryBytes};
    setrlimit(RLIMIT_AS, &limit);
    std::signal(SIGPIPE, SIG_IGN);
    std::string answer;
    auto failed = [&](const char* call, nvrtcResult r) {
        answer = std::string(1, kApiFailed);
        put(answer, call);
        put(answer, nvrtcGetErrorString(r));
        writeAll(fd, answer);
        _exit(0);
    };
    nvrtcProgram prog = nullptr;
    const char* headers[] = {kAssertHeader, kAssertHeader};
    if (const nvrtcResult r = nvrtcCreateProgram(&prog, text.c_str(), name.c_str(), 2, headers, kAssertHeaderNames);
        r != NVRTC_SUCCESS) {
        failed("nvrtcCreateProgram", r);
    }
    if (const nvrtcResult r = nvrtcAddNameExpression(prog, kernel.c_str()); r != NVRTC_SUCCESS) {
        failed("nvrtcAddNameExpression", r);
    }
    std::vector<const char*> argv;
    for (const auto& o : options) {
        argv.push_back(o.c_str());
    }
    const nvrtcResult compiled = nvrtcCompileProgram(prog, static_cast<int>(argv.size()), argv.data());
    std::size_t logSize = 0;
    nvrtcGetProgramLogSize(prog, &logSize);
    std::string log(logSize, '\0');
    if (logSize > 0) {
        nvrtcGetProgramLog(prog, log.data());
        log.resize(std::strlen(log.c_str()));
    }
    const bool cut = log.size() > kMaxLogBytes;
    if (cut) {
        log.resize(kMaxLogBytes);
    }
    std::string lowered;
    std::string cubin;
    if (compiled == NVRTC_SUCCESS) {
        const char* name2 = nullptr;
        if (nvrtcGetLoweredName(prog, kernel.c_str(), &name2) == NVRTC_SUCCESS && name2) {
            lowered = name2;
        }
        std::size_t size = 0;
        if (nvrtcGetCUBINSize(prog, &size) == NVRTC_SUCCESS && size > 0) {
            cubin.resize(size);
            if (nvrtcGetCUBIN(prog, cubin.data()) != NVRTC_SUCCESS) {
                cubin.clear();
            }
        } else if (nvrtcGetPTXSize(prog, &size) == NVRTC_SUCCESS && size > 1) {
            // A virtual target (-arch=compute_XX) gives PTX and no CUBIN; it travels in the same slot.
            cubin.resize(size);
            if (nvrtcGetPTX(prog, cubin.data()) != NVRTC_SUCCESS) {
                cubin.clear();
            } else {
                cubin.resize(size - 1); // the terminating NUL
            }
        }
    }
    answer = std::string(1, kDone);
    put(answer, std::to_string(static_cast<int>(compiled)));
    put(answer, cut ? "1" : "0");
    put(answer, log);
    put(answer, lowered);
    put(answer, cubin);
    writeAll(fd, answer);
    _exit(0);
}

NvrtcOutcome decode(const std::string& bytes)
{
    NvrtcOutcome out;
    std::string_view in(bytes);
    if (in.empty()) {
        out.failedMessage = "it ended without an answer";
        return out;
    }
    const char tag = in.front();
    in.remove_prefix(1);
    if (tag == kApiFailed && take(in, out.failedCall) && take(in, out.failedMessage)) {
        out.status = NvrtcOutcome::Status::ApiFailed;
        return out;
    }
    std::string code;
    std::string cut;
    std::string cubin;
    if (tag == kDone && take(in, code) && take(in, cut) && take(in, out.log) && take(in, out.lowered) &&
        take(in, cubin)) {
        out.status = NvrtcOutcome::Status::Done;
        out.compileResult = std::stoi(code);
        out.logCut = cut == "1";
        out.cubin.assign(cubin.begin(), cubin.end());
        return out;
    }
    out.failedMessage = "its answer was incomplete";
    return out;
}

} // namespace

NvrtcOutcome compileInChild(const std::string& text, const std::string& name, const std::string& kernel,
                            const std::vector<std::string>& options, std::chrono::milliseconds timeout,
                            std::size_t memoryBytes)
{
    NvrtcOutcome out;
    int fds[2];
    if (::pipe(fds) != 0) {
        out.failedMessage = std::string("no pipe: ") + std::strerror(errno);
        return out;
    }
    const std::size_t limitBytes = addressSpaceBytes() + memoryBytes;
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        out.failedMessage = std::string("fork failed: ") + std::strerror(errno);
        return out;
    }
    if (pid == 0) {
        ::close(fds[0]);
        childMain(fds[1], text, name, kernel, options, limitBytes);
    }
    ::close(fds[1]);
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string bytes;
    bool timedOut = false;
    char buf[1 << 16];
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1 << 30)));
        if (ready < 0 && errno == EINTR) {
            continue;
        }
        if (ready == 0) {
            continue; // the loop re-checks the deadline
        }
        const ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        bytes.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    if (timedOut) {
        ::kill(pid, SIGKILL);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut) {
        out.status = NvrtcOutcome::Status::Timeout;
        return out;
    }
    out = decode(bytes);
    if (out.status == NvrtcOutcome::Status::Crashed) {
        // NVRTC aborts (std::bad_alloc) or is killed when the address-space limit is reached.
        const bool memory = WIFSIGNALED(status) && (WTERMSIG(status) == SIGABRT || WTERMSIG(status) == SIGKILL);
        if (memory) {
            out.status = NvrtcOutcome::Status::Memory;
        }
        out.failedMessage += WIFSIGNALED(status) ? " (signal " + std::to_string(WTERMSIG(status)) + ")"
                                                 : " (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
    } else if (out.status == NvrtcOutcome::Status::Done && out.compileResult == NVRTC_ERROR_OUT_OF_MEMORY) {
        out.status = NvrtcOutcome::Status::Memory;
    }
    return out;
}

} // namespace tkm::compile::detail
