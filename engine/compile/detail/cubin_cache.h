#pragma once
// On-disk CUBIN cache (internal to engine/compile): <dir>/<key>.cubin plus <key>.json (lowered name, log,
// diagnostics, resources). Entries are written atomically (temp file + rename); a damaged entry is a miss.

#include "engine/compile/compiler.h"

#include <filesystem>
#include <optional>

namespace tkm::compile::detail {

/// Loads an entry into a CompileResult (cubin, loweredName, log, diagnostics, resources); nullopt on a miss.
std::optional<CompileResult> loadCached(const std::filesystem::path& dir, const std::string& key);

/// Stores a successful result; failures to write are ignored (the cache is an optimisation).
void storeCached(const std::filesystem::path& dir, const std::string& key, const CompileResult& result);

} // namespace tkm::compile::detail
