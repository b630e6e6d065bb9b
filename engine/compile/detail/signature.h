#pragma once
// Compile-time signature check (internal to engine/compile): a postlude after `#line 1 "<signature-check>"`
// instantiates incomplete templates when the kernel's arity or a parameter type is wrong; the resulting NVRTC
// errors name the actual arity/type, and mapSignatureDiagnostics() turns them into sentences on the kernel's
// declaration line in the learner's file.

#include "engine/compile/compiler.h"

#include <string>
#include <vector>

namespace tkm::compile::detail {

/// Pseudo file name of the postlude.
inline constexpr const char* kSignatureFile = "<signature-check>";

/// Postlude source (starts with a newline and the #line directive).
std::string signaturePostlude(const std::string& kernel, const std::vector<ExpectedParam>& params);

/// Replaces diagnostics from the postlude and from NVRTC's name map (__nv_name_map) with learner-facing ones:
/// arity, wrong parameter type, or a missing entry function. Name-map errors are dropped when the learner's own
/// code has errors (they are consequences).
std::vector<Diagnostic> mapSignatureDiagnostics(const std::vector<Diagnostic>& diagnostics, const CompileRequest& req);

/// "const float*" for a buffer of f32, "int" for an i32 scalar.
std::string expectedTypeText(const ExpectedParam& p);

/// Line and column (1-based) of the kernel's name in its declaration, {0, 0} when not found.
std::pair<int, int> findDeclaration(const std::string& source, const std::string& kernel);

} // namespace tkm::compile::detail
