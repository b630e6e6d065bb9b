#pragma once
// Where the engine finds content, the CUDA toolkit and its cache; small file helpers.

#include "engine/common/error.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace tkm::engine {

/// Built-in content folder: env TKM_CONTENT_DIR, else the compiled-in TKM_CONTENT_DIR.
std::filesystem::path contentDir();
/// Cache folder: env TKM_CACHE_DIR, else $XDG_CACHE_HOME/tkm, else ~/.cache/tkm (not created here).
std::filesystem::path cacheDir();
/// CUDA toolkit root: env TKM_CUDA_ROOT, else the compiled-in TKM_CUDA_ROOT (/usr/local/cuda).
std::filesystem::path cudaRoot();

/// Reads a whole file. Error kind Io names the path and the OS reason.
Expected<std::string> readTextFile(const std::filesystem::path& path);
/// Writes a file atomically (temp file in the same folder, then rename); creates missing parent folders.
Status writeFileAtomic(const std::filesystem::path& path, std::string_view bytes);

/// True when `rel` is a safe relative path: not absolute, no `..` component, not empty.
bool isSafeRelativePath(std::string_view rel);

} // namespace tkm::engine
