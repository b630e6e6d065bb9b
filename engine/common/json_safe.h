#pragma once
// JSON read and written without letting hostile text abort the program (issue 14, items 6, 7 and 10): every
// nlohmann exception becomes a value with a position, nesting is capped before any tree is built, duplicate
// object keys are reported, and dumps replace bytes that are not UTF-8 instead of throwing.

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tkm::engine {

/// Deepest nesting of objects and arrays parseJson() accepts by default (content files need fewer than 20).
inline constexpr int kMaxJsonDepth = 256;

/// Where and why a JSON text failed to parse.
struct JsonSyntaxError
{
    std::size_t offset = 0; ///< [0-based byte] the offending byte, counted after a skipped UTF-8 BOM
    int line = 1;           ///< [1-based]
    int column = 1;         ///< [1-based, UTF-8 code points]
    std::string message;    ///< "number overflow parsing '1e400'", "syntax error while parsing value - …"
};

/// An object key written twice in one object.
struct JsonDuplicateKey
{
    std::string key;     ///< the key as decoded
    std::string pointer; ///< JSON pointer of the repeated member ("/modules/0/id")
};

/// Result of parseJson(): `value` is meaningful only when `error` is empty.
struct JsonParseResult
{
    nlohmann::json value;                     ///< the document
    std::optional<JsonSyntaxError> error;     ///< set when the text is not valid JSON or nests too deeply
    std::vector<JsonDuplicateKey> duplicates; ///< repeated keys (nlohmann keeps the last value)
    bool bom = false;                         ///< the text started with a UTF-8 byte order mark (skipped)

    bool ok() const { return !error; } ///< parsed
};

/// Parses `text` (a leading UTF-8 BOM is skipped). Never throws for any input: numbers out of range, bad UTF-8,
/// nesting deeper than `maxDepth` and out-of-memory become `error`; nesting is checked before anything is built.
JsonParseResult parseJson(std::string_view text, int maxDepth = kMaxJsonDepth);

/// "line L, column C: message" for a syntax error.
std::string describe(const JsonSyntaxError& error);

/// Line and column of a byte offset of `text` ([1-based]; column in UTF-8 code points; clamped to the text).
void lineAndColumn(std::string_view text, std::size_t offset, int& line, int& column);

/// `text` without a leading UTF-8 byte order mark.
std::string_view withoutBom(std::string_view text);

/// value.dump(indent) that never throws: bytes that are not UTF-8 become U+FFFD (for --json outputs and exports).
std::string dumpJson(const nlohmann::json& value, int indent = -1);

/// `text` with every byte sequence that is not UTF-8 replaced by U+FFFD (for text read from unknown sources).
std::string toValidUtf8(std::string_view text);

/// Offset of the first byte of `text` that does not start a valid UTF-8 sequence, or nullopt when all is valid.
std::optional<std::size_t> firstInvalidUtf8(std::string_view text);

} // namespace tkm::engine
