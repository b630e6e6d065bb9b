#include "engine/common/paths.h"

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <unistd.h>

namespace tkm::engine {
namespace {

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

} // namespace

std::filesystem::path contentDir()
{
    const std::string e = env("TKM_CONTENT_DIR");
    if (!e.empty()) {
        return e;
    }
#ifdef TKM_CONTENT_DIR
    return TKM_CONTENT_DIR;
#else
    return "content";
#endif
}

std::filesystem::path cacheDir()
{
    if (const std::string e = env("TKM_CACHE_DIR"); !e.empty()) {
        return e;
    }
    if (const std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty()) {
        return std::filesystem::path(xdg) / "tkm";
    }
    if (const std::string home = env("HOME"); !home.empty()) {
        return std::filesystem::path(home) / ".cache" / "tkm";
    }
    return std::filesystem::temp_directory_path() / "tkm-cache";
}

std::filesystem::path cudaRoot()
{
    if (const std::string e = env("TKM_CUDA_ROOT"); !e.empty()) {
        return e;
    }
#ifdef TKM_CUDA_ROOT
    return TKM_CUDA_ROOT;
#else
    return "/usr/local/cuda";
#endif
}

Expected<std::string> readTextFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return makeError(ErrorKind::Io, "cannot read " + path.string() + ": " + std::strerror(errno));
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) {
        return makeError(ErrorKind::Io, "error while reading " + path.string());
    }
    return ss.str();
}

Status writeFileAtomic(const std::filesystem::path& path, std::string_view bytes)
{
    static std::atomic<unsigned> counter{0};
    std::error_code ec;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);
        if (ec) {
            return makeError(ErrorKind::Io,
                             "cannot create folder " + path.parent_path().string() + ": " + ec.message());
        }
    }
    const std::filesystem::path tmp =
        path.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) {
            return makeError(ErrorKind::Io, "cannot write " + tmp.string() + ": " + std::strerror(errno));
        }
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            out.close();
            std::filesystem::remove(tmp, ec);
            return makeError(ErrorKind::Io, "error while writing " + tmp.string() + " (disk full?)");
        }
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        return makeError(ErrorKind::Io, "cannot rename " + tmp.string() + " to " + path.string() + ": " + ec.message());
    }
    return {};
}

bool isSafeRelativePath(std::string_view rel)
{
    if (rel.empty()) {
        return false;
    }
    const std::filesystem::path p{std::string(rel)};
    if (p.is_absolute() || rel.front() == '/' || rel.front() == '\\') {
        return false;
    }
    for (const auto& part : p) {
        if (part == "..") {
            return false;
        }
    }
    return true;
}

} // namespace tkm::engine
