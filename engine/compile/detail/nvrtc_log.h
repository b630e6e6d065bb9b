#pragma once
// Parsing of NVRTC program logs: diagnostics and ptxas -v resource lines (internal to engine/compile).

#include "engine/compile/compiler.h"

#include <string>
#include <string_view>
#include <vector>

namespace tkm::compile::detail {

/// Parses "file(line): severity[ #n-D]: message" entries; the column comes from the caret line NVRTC prints
/// under the echoed source line (both indented by two spaces; tabs are copied, so columns count characters).
std::vector<Diagnostic> parseDiagnostics(std::string_view log);

/// Parses ptxas -v lines for the entry function `lowered` ("Compiling entry function '<lowered>'").
Resources parseResources(std::string_view log, std::string_view lowered);

} // namespace tkm::compile::detail
