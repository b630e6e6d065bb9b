#pragma once
// String-literal helpers of the tokenizer (lexer.cpp), internal to engine/triton/syntax/.

#include <cstdint>
#include <string>
#include <string_view>

namespace tkm::triton::syntax {

/// True when `id` is a string prefix (r, u, b, f, br, rb, fr, rf in any case); sets which flags it carries.
bool isStringPrefix(std::string_view id, bool& raw, bool& f, bool& b);

/// Appends code point `cp` to `out` as UTF-8.
void appendUtf8(std::string& out, uint32_t cp);

/// Decodes the backslash escapes of a (non-raw) string body as Python does; unknown escapes stay as written.
std::string decodeEscapes(std::string_view s);

} // namespace tkm::triton::syntax
