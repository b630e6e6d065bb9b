#include "engine/runner/device_print.h"

#include "engine/runner/device_assert.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <streambuf>

namespace tkm::runner {
namespace {

// A streambuf writing to a file descriptor (the real stdout once descriptor 1 is the capture file).
class FdBuf : public std::streambuf
{
public:
    explicit FdBuf(int fd) : m_fd(fd) { setp(m_buf, m_buf + sizeof m_buf); }
    ~FdBuf() override { sync(); }
    FdBuf(const FdBuf&) = delete;
    FdBuf& operator=(const FdBuf&) = delete;

protected:
    int_type overflow(int_type ch) override
    {
        if (!flushAll()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    int sync() override { return flushAll() ? 0 : -1; }

private:
    bool flushAll()
    {
        const char* p = pbase();
        while (p < pptr()) {
            const ssize_t n = ::write(m_fd, p, static_cast<size_t>(pptr() - p));
            if (n <= 0) {
                setp(m_buf, m_buf + sizeof m_buf);
                return false;
            }
            p += n;
        }
        setp(m_buf, m_buf + sizeof m_buf);
        return true;
    }
    int m_fd;
    char m_buf[8192];
};

struct Capture
{
    std::mutex mutex;
    bool installed = false;
    FdBuf* out = nullptr; // std::cout's buffer, writing to the real stdout; never freed (cout flushes at exit)
};

Capture& capture()
{
    static Capture c;
    return c;
}

} // namespace

bool captureDevicePrintf()
{
    Capture& c = capture();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (c.installed) {
        return true;
    }
    const int mem = ::memfd_create("tkm-device-printf", MFD_CLOEXEC);
    if (mem < 0) {
        return false;
    }
    std::cout.flush();
    std::fflush(stdout);
    const int real = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (real < 0 || ::dup2(mem, STDOUT_FILENO) < 0) {
        if (real >= 0) {
            ::close(real);
        }
        ::close(mem);
        return false;
    }
    ::close(mem);
    c.out = new FdBuf(real); // NOLINT(cppcoreguidelines-owning-memory): lives until the process ends
    std::cout.rdbuf(c.out);
    c.installed = true;
    return true;
}

bool devicePrintfCaptured()
{
    Capture& c = capture();
    std::lock_guard<std::mutex> lock(c.mutex);
    return c.installed;
}

std::vector<std::string> drainDevicePrintf(std::size_t keep, int64_t& dropped)
{
    dropped = 0;
    std::vector<std::string> lines;
    Capture& c = capture();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (!c.installed) {
        return lines;
    }
    std::fflush(stdout);
    const off_t end = ::lseek(STDOUT_FILENO, 0, SEEK_CUR);
    if (end <= 0) {
        return lines;
    }
    std::string text;
    constexpr off_t kReadCap = off_t{16} << 20; // a bound on what one drain reads; the rest is only counted
    text.resize(static_cast<size_t>(std::min(end, kReadCap)));
    const ssize_t got = ::pread(STDOUT_FILENO, text.data(), text.size(), 0);
    text.resize(got > 0 ? static_cast<size_t>(got) : 0);
    ::ftruncate(STDOUT_FILENO, 0);
    ::lseek(STDOUT_FILENO, 0, SEEK_SET);
    size_t pos = 0;
    while (pos < text.size()) {
        size_t nl = text.find('\n', pos);
        const size_t stop = nl == std::string::npos ? text.size() : nl;
        if (lines.size() < keep) {
            lines.push_back(text.substr(pos, stop - pos));
        } else {
            ++dropped;
        }
        pos = stop + 1;
    }
    return lines;
}

StderrWindow::StderrWindow()
{
    if (!devicePrintfCaptured()) {
        return;
    }
    m_mem = ::memfd_create("tkm-device-stderr", MFD_CLOEXEC);
    if (m_mem < 0) {
        return;
    }
    std::fflush(stderr);
    m_saved = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (m_saved < 0 || ::dup2(m_mem, STDERR_FILENO) < 0) {
        if (m_saved >= 0) {
            ::close(m_saved);
        }
        ::close(m_mem);
        m_saved = m_mem = -1;
    }
}

StderrWindow::~StderrWindow()
{
    (void)take();
}

std::vector<std::string> StderrWindow::take()
{
    std::vector<std::string> asserts;
    if (m_saved < 0) {
        return asserts;
    }
    std::fflush(stderr);
    ::dup2(m_saved, STDERR_FILENO);
    ::close(m_saved);
    m_saved = -1;
    constexpr off_t kReadCap = off_t{1} << 20; // the device's printf buffer is 1 MiB by default
    const off_t end = std::min(::lseek(m_mem, 0, SEEK_CUR), kReadCap);
    std::string text(static_cast<size_t>(std::max<off_t>(end, 0)), '\0');
    const ssize_t got = text.empty() ? 0 : ::pread(m_mem, text.data(), text.size(), 0);
    text.resize(got > 0 ? static_cast<size_t>(got) : 0);
    ::close(m_mem);
    m_mem = -1;
    std::string rest;
    size_t pos = 0;
    while (pos < text.size()) {
        const size_t nl = text.find('\n', pos);
        const size_t stop = nl == std::string::npos ? text.size() : nl;
        std::string line = text.substr(pos, stop - pos);
        if (parseDeviceAssert(line)) {
            asserts.push_back(std::move(line));
        } else {
            rest += line + "\n";
        }
        pos = stop + 1;
    }
    if (!rest.empty()) {
        std::fwrite(rest.data(), 1, rest.size(), stderr);
        std::fflush(stderr);
    }
    return asserts;
}

namespace detail {

void keepPrinted(report::RunReport& r, const std::vector<std::string>& lines, int64_t dropped)
{
    for (const auto& line : lines) {
        if (r.printed.size() < kPrintedKept) {
            r.printed.push_back(line);
        } else {
            ++r.printedDropped;
        }
    }
    r.printedDropped += dropped;
}

} // namespace detail

} // namespace tkm::runner
