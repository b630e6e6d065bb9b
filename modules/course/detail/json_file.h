#pragma once
// Internal: a JSON content file read with nlohmann plus a position index (JSON pointer → line/column of the key
// and of the value), built by a structural scan of the already-parsed text. Values are never decoded here
// except object keys, which nlohmann decodes.

#include "modules/course/loader.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tkm::course::detail {

/// A 1-based line and column [UTF-8 code points].
struct TextPosition
{
    int line = 0;   ///< [1-based]
    int column = 0; ///< [1-based, code points]
};

/// Line/column of a byte offset in `text` [0-based byte offset; clamped to the text].
TextPosition positionOfByte(std::string_view text, std::size_t byteOffset);

/// JSON pointer → position of each key and value of a syntactically valid JSON text.
class JsonPositionIndex
{
public:
    /// Scans `text`, which must already have parsed successfully.
    explicit JsonPositionIndex(std::string_view text);
    JsonPositionIndex() = default;

    /// Position of the value at `pointer`, falling back to the nearest ancestor that exists.
    TextPosition value(const std::string& pointer) const;
    /// Position of the key that names `pointer` (objects only), else as value().
    TextPosition key(const std::string& pointer) const;
    /// Pointers of object keys written twice in the same object, with the second key's position.
    const std::vector<std::pair<std::string, TextPosition>>& duplicateKeys() const { return m_duplicates; }
    /// The pointer whose key or value starts at `pos`; else the one that starts last before it ("" for none).
    std::string pointerAt(TextPosition pos) const;

private:
    std::unordered_map<std::string, TextPosition> m_values;
    std::unordered_map<std::string, TextPosition> m_keys;
    std::vector<std::pair<std::string, TextPosition>> m_duplicates;
};

/// Appends `token` to a JSON pointer, escaping '~' and '/'.
std::string pointerAppend(const std::string& pointer, std::string_view token);
/// Appends an array index to a JSON pointer.
std::string pointerAppend(const std::string& pointer, std::size_t index);

/// Reads a whole file into `out`; false when it cannot be opened.
bool readTextFile(const std::filesystem::path& file, std::string& out);

/// Where the problems of a JSON value go, located by JSON pointer: a content file (JsonFile maps pointers to
/// lines) or the model rules' list (validate.cpp, which keeps the pointers).
class Reporter
{
public:
    virtual ~Reporter() = default;
    /// Adds a problem at the value (or, with atKey, the key) of `pointer`.
    virtual void add(const std::string& pointer, Severity severity, std::string message, bool atKey = false) = 0;
    /// Adds the error that the required field `field` of the object at `object` is missing (located at the object).
    virtual void missing(const std::string& object, const std::string& field, std::string message);
    /// Adds an error (see add).
    void error(const std::string& pointer, std::string message, bool atKey = false);
    /// Adds a warning (see add).
    void warning(const std::string& pointer, std::string message);
};

/// One parsed JSON file and the diagnostics sink its problems go to.
class JsonFile : public Reporter
{
public:
    /// Reads and parses `file`; on failure adds a diagnostic (missing file, or syntax error with line/column)
    /// and ok() is false.
    JsonFile(std::filesystem::path file, std::vector<Diagnostic>& diagnostics);

    bool ok() const { return m_ok; }                             ///< parsed successfully
    const nlohmann::json& root() const { return m_root; }        ///< the document
    const std::filesystem::path& path() const { return m_file; } ///< the file
    const std::string& text() const { return m_text; }           ///< raw text

    /// Adds a diagnostic located at the value (or, with atKey, the key) of `pointer`; an error also covers it.
    void add(const std::string& pointer, Severity severity, std::string message, bool atKey = false) override;
    /// Reports a missing field at its object and covers the field (not the object).
    void missing(const std::string& object, const std::string& field, std::string message) override;
    /// Whether an error was already reported at `pointer` or at a value that holds it: the model rules
    /// (validate.cpp) stay quiet there, so one root cause gives one message.
    bool covered(const std::string& pointer) const;
    /// Makes covered() true for `pointer` and below without a message (a value that cannot be checked).
    void cover(const std::string& pointer) { m_covered.push_back(pointer); }
    /// Position of the value at `pointer` (nearest existing ancestor).
    TextPosition position(const std::string& pointer, bool atKey = false) const;
    /// The diagnostics sink.
    std::vector<Diagnostic>& diagnostics() { return m_diagnostics; }

private:
    std::filesystem::path m_file;
    std::vector<Diagnostic>& m_diagnostics;
    std::string m_text;
    nlohmann::json m_root;
    JsonPositionIndex m_index;
    std::vector<std::string> m_covered;
    bool m_ok = false;
};

/// Human name of a JSON value's type for messages ("a string", "a number", …).
std::string jsonTypeName(const nlohmann::json& value);

/// Reads the fields of one JSON object, checking types, and reports unknown fields on finish().
class ObjectReader
{
public:
    /// `what` names the object in messages ("module.json", "quiz question", …). Reports an error when the value
    /// at `pointer` is not an object (then every getter returns nothing).
    ObjectReader(Reporter& file, const nlohmann::json& object, std::string pointer, std::string what);

    bool valid() const { return m_object != nullptr; }       ///< the value is an object
    const std::string& pointer() const { return m_pointer; } ///< pointer of the object
    std::string fieldPointer(std::string_view key) const;    ///< pointer of one of its fields

    /// A string field; `nonEmpty` rejects "". Missing required fields are reported at the object.
    std::optional<std::string> string(const char* key, bool required, bool nonEmpty = true);
    /// An integral field in [minValue, maxValue].
    std::optional<long long> integer(const char* key, bool required, long long minValue = 0,
                                     long long maxValue = (1LL << 53));
    /// A boolean field.
    std::optional<bool> boolean(const char* key, bool required);
    /// An array field (returns the array).
    const nlohmann::json* array(const char* key, bool required, bool nonEmpty = true);
    /// An object field.
    const nlohmann::json* object(const char* key, bool required);
    /// Any value.
    const nlohmann::json* any(const char* key, bool required);
    /// Whether the field is present (marks it as known).
    bool has(const char* key);
    /// Checks `"format": 1` (required).
    void format();
    /// Reports every field that no getter asked for as unknown.
    void finish();

private:
    const nlohmann::json* lookup(const char* key, bool required);
    void typeError(const char* key, const nlohmann::json& value, const char* expected);

    Reporter& m_file;
    const nlohmann::json* m_object = nullptr;
    std::string m_pointer;
    std::string m_what;
    std::vector<std::string> m_known;
};

} // namespace tkm::course::detail
