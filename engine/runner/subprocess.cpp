#include "engine/runner/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <utility>

extern char** environ;

namespace tkm::runner {
namespace {

void ignoreSigpipe()
{
    static std::once_flag once;
    std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

engine::Error osError(const char* what)
{
    return engine::makeError(engine::ErrorKind::Internal, fmt::format("{} failed: {}", what, std::strerror(errno)));
}

} // namespace

std::string ExitInfo::describe() const
{
    if (exited) {
        return fmt::format("exit status {}", exitCode);
    }
    return fmt::format("signal {} ({})", signal, strsignal(signal));
}

engine::Expected<Subprocess> Subprocess::spawn(const std::filesystem::path& exe, const std::vector<std::string>& args,
                                               bool ownGroup)
{
    ignoreSigpipe();
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    if (::pipe2(in, O_CLOEXEC) != 0) {
        return osError("pipe2");
    }
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]);
        ::close(in[1]);
        return osError("pipe2");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // dup2 clears close-on-exec on the targets, so only the child's stdin/stdout ends survive the exec.
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    short flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK;
    if (ownGroup) {
        flags |= POSIX_SPAWN_SETPGROUP;
        posix_spawnattr_setpgroup(&attr, 0);
    }
    posix_spawnattr_setflags(&attr, flags);
    sigset_t def;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &def);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);

    const std::string path = exe.string();
    std::vector<std::string> argStore;
    argStore.push_back(path);
    argStore.insert(argStore.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argStore) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);

    pid_t pid = 0;
    const int rc = posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(in[0]);
    ::close(out[1]);
    if (rc != 0) {
        ::close(in[1]);
        ::close(out[0]);
        return engine::makeError(engine::ErrorKind::Internal,
                                 fmt::format("could not start {}: {}", path, std::strerror(rc)));
    }
    Subprocess p;
    p.m_pid = pid;
    p.m_ownGroup = ownGroup;
    p.m_stdin = in[1];
    p.m_stdout = out[0];
    return p;
}

Subprocess::~Subprocess()
{
    if (m_pid > 0) {
        kill();
        wait();
    }
    closeAll();
}

Subprocess::Subprocess(Subprocess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, 0)), m_ownGroup(other.m_ownGroup), m_stdin(std::exchange(other.m_stdin, -1)),
      m_stdout(std::exchange(other.m_stdout, -1)), m_buffer(std::move(other.m_buffer))
{
}

Subprocess& Subprocess::operator=(Subprocess&& other) noexcept
{
    if (this != &other) {
        if (m_pid > 0) {
            kill();
            wait();
        }
        closeAll();
        m_pid = std::exchange(other.m_pid, 0);
        m_ownGroup = other.m_ownGroup;
        m_stdin = std::exchange(other.m_stdin, -1);
        m_stdout = std::exchange(other.m_stdout, -1);
        m_buffer = std::move(other.m_buffer);
    }
    return *this;
}

void Subprocess::closeAll()
{
    closeStdin();
    if (m_stdout >= 0) {
        ::close(m_stdout);
        m_stdout = -1;
    }
}

engine::Status Subprocess::write(std::string_view data)
{
    if (m_stdin < 0) {
        return engine::makeError(engine::ErrorKind::Internal, "the child's stdin is closed");
    }
    while (!data.empty()) {
        const ssize_t n = ::write(m_stdin, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return osError("write to child");
        }
        data.remove_prefix(static_cast<size_t>(n));
    }
    return {};
}

void Subprocess::closeStdin()
{
    if (m_stdin >= 0) {
        ::close(m_stdin);
        m_stdin = -1;
    }
}

ReadResult Subprocess::readLine(std::string& line, std::chrono::steady_clock::time_point deadline, int wakeFd)
{
    for (;;) {
        if (const auto nl = m_buffer.find('\n'); nl != std::string::npos) {
            line = m_buffer.substr(0, nl);
            m_buffer.erase(0, nl + 1);
            return ReadResult::Line;
        }
        if (m_stdout < 0) {
            return ReadResult::Eof;
        }
        const auto now = std::chrono::steady_clock::now();
        if (now >= deadline) {
            return ReadResult::Timeout;
        }
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
        pollfd fds[2] = {{m_stdout, POLLIN, 0}, {wakeFd, POLLIN, 0}};
        const int rc = ::poll(fds, wakeFd >= 0 ? 2 : 1, static_cast<int>(std::min<long long>(left + 1, 1 << 30)));
        if (rc < 0) {
            if (errno == EINTR) {
                continue;
            }
            return ReadResult::Eof;
        }
        if (wakeFd >= 0 && (fds[1].revents & POLLIN) != 0) {
            return ReadResult::Woken;
        }
        if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
            char chunk[65536];
            const ssize_t n = ::read(m_stdout, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                ::close(m_stdout);
                m_stdout = -1;
                if (!m_buffer.empty()) {
                    // A last line without a newline still counts.
                    line = std::exchange(m_buffer, {});
                    return ReadResult::Line;
                }
                return ReadResult::Eof;
            }
            m_buffer.append(chunk, static_cast<size_t>(n));
        }
    }
}

void Subprocess::kill()
{
    if (m_pid <= 0) {
        return;
    }
    if (m_ownGroup) {
        ::kill(-m_pid, SIGKILL);
    }
    ::kill(m_pid, SIGKILL);
}

ExitInfo Subprocess::wait()
{
    ExitInfo info;
    if (m_pid <= 0) {
        return info;
    }
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_pid = 0;
    if (WIFEXITED(status)) {
        info.exited = true;
        info.exitCode = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        info.signal = WTERMSIG(status);
    }
    closeAll();
    return info;
}

bool Subprocess::waitFor(std::chrono::milliseconds timeout, ExitInfo& info)
{
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (m_pid > 0) {
        int status = 0;
        const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == m_pid) {
            m_pid = 0;
            info = {};
            if (WIFEXITED(status)) {
                info.exited = true;
                info.exitCode = WEXITSTATUS(status);
            } else if (WIFSIGNALED(status)) {
                info.signal = WTERMSIG(status);
            }
            closeAll();
            return true;
        }
        if (std::chrono::steady_clock::now() >= end) {
            return false;
        }
        ::usleep(2000);
    }
    return true;
}

std::filesystem::path defaultTkmRunPath()
{
    if (const char* env = std::getenv("TKM_RUN"); env != nullptr && *env != '\0') {
        return env;
    }
    std::error_code ec;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) {
        return "tkm-run";
    }
    if (self.filename() == "tkm-run") {
        return self;
    }
    return self.parent_path() / "tkm-run";
}

} // namespace tkm::runner
