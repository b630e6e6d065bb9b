#include "modules/course/detail/json_file.h"

#include "engine/common/json_safe.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace tkm::course::detail {

namespace {

bool isContinuationByte(char c)
{
    return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Walks a valid JSON text once, keeping line and column in step with the byte offset.
class Scanner
{
public:
    explicit Scanner(std::string_view text) : m_text(text) {}

    bool atEnd() const { return m_pos >= m_text.size(); }
    char peek() const { return m_text[m_pos]; }
    TextPosition here() const { return {m_line, m_column}; }
    std::size_t offset() const { return m_pos; }

    void advance()
    {
        const char c = m_text[m_pos++];
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else if (!isContinuationByte(c)) {
            ++m_column;
        }
    }
    void skipSpace()
    {
        while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
            advance();
        }
    }
    // Skips a string literal starting at '"'; returns its raw text including the quotes.
    std::string_view skipString()
    {
        const std::size_t start = m_pos;
        advance();
        while (!atEnd() && peek() != '"') {
            if (peek() == '\\') {
                advance();
            }
            if (!atEnd()) {
                advance();
            }
        }
        if (!atEnd()) {
            advance();
        }
        return m_text.substr(start, m_pos - start);
    }
    void skipScalar()
    {
        while (!atEnd()) {
            const char c = peek();
            if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                break;
            }
            advance();
        }
    }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_column = 1;
};

struct Frame
{
    bool isObject = false;
    std::string pointer;
    std::size_t index = 0;
    std::string key;
    bool expectKey = true;
};

} // namespace

TextPosition positionOfByte(std::string_view text, std::size_t byteOffset)
{
    TextPosition pos{1, 1};
    const std::size_t end = std::min(byteOffset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++pos.line;
            pos.column = 1;
        } else if (!isContinuationByte(text[i])) {
            ++pos.column;
        }
    }
    return pos;
}

std::string pointerAppend(const std::string& pointer, std::string_view token)
{
    std::string out = pointer + "/";
    for (const char c : token) {
        if (c == '~') {
            out += "~0";
        } else if (c == '/') {
            out += "~1";
        } else {
            out += c;
        }
    }
    return out;
}

std::string pointerAppend(const std::string& pointer, std::size_t index)
{
    return pointer + "/" + std::to_string(index);
}

JsonPositionIndex::JsonPositionIndex(std::string_view text)
{
    Scanner scan(text);
    std::vector<Frame> stack;
    auto valuePointer = [&stack]() -> std::string {
        if (stack.empty()) {
            return {};
        }
        const Frame& top = stack.back();
        return top.isObject ? pointerAppend(top.pointer, top.key) : pointerAppend(top.pointer, top.index);
    };
    while (true) {
        scan.skipSpace();
        if (scan.atEnd()) {
            break;
        }
        const char c = scan.peek();
        const TextPosition pos = scan.here();
        if (c == '{' || c == '[') {
            if (stack.size() >= static_cast<std::size_t>(engine::kMaxJsonDepth)) {
                break; // pointers grow with the depth: a deeper text would cost O(depth²); positions fall back
            }
            std::string pointer = valuePointer();
            m_values.emplace(pointer, pos);
            stack.push_back(Frame{c == '{', std::move(pointer)});
            scan.advance();
        } else if (c == '}' || c == ']') {
            if (!stack.empty()) {
                stack.pop_back();
            }
            scan.advance();
        } else if (c == ',') {
            if (!stack.empty()) {
                if (stack.back().isObject) {
                    stack.back().expectKey = true;
                } else {
                    ++stack.back().index;
                }
            }
            scan.advance();
        } else if (c == ':') {
            scan.advance();
        } else if (c == '"' && !stack.empty() && stack.back().isObject && stack.back().expectKey) {
            Frame& top = stack.back();
            const std::string_view raw = scan.skipString();
            // The text already parsed, so the literal is valid; nlohmann decodes its escapes.
            top.key = nlohmann::json::parse(raw).get<std::string>();
            top.expectKey = false;
            const std::string pointer = pointerAppend(top.pointer, top.key);
            if (!m_keys.emplace(pointer, pos).second) {
                m_duplicates.emplace_back(pointer, pos);
            }
        } else {
            m_values.emplace(valuePointer(), pos);
            if (c == '"') {
                scan.skipString();
            } else {
                scan.skipScalar();
            }
        }
    }
}

TextPosition JsonPositionIndex::value(const std::string& pointer) const
{
    std::string p = pointer;
    while (true) {
        if (auto it = m_values.find(p); it != m_values.end()) {
            return it->second;
        }
        if (p.empty()) {
            return {1, 1};
        }
        p.erase(p.rfind('/'));
    }
}

TextPosition JsonPositionIndex::key(const std::string& pointer) const
{
    if (auto it = m_keys.find(pointer); it != m_keys.end()) {
        return it->second;
    }
    return value(pointer);
}

std::string JsonPositionIndex::pointerAt(TextPosition pos) const
{
    auto before = [](TextPosition a, TextPosition b) {
        return a.line < b.line || (a.line == b.line && a.column < b.column);
    };
    std::string best;
    TextPosition bestPos{0, 0};
    bool exact = false;
    for (const auto* map : {&m_keys, &m_values}) {
        for (const auto& [pointer, at] : *map) {
            const bool hit = at.line == pos.line && at.column == pos.column;
            if (hit && (!exact || pointer.size() > best.size())) {
                best = pointer;
                exact = true;
            } else if (!exact && !before(pos, at) && (before(bestPos, at) || (!before(at, bestPos) &&
                                                                                  pointer.size() > best.size()))) {
                best = pointer;
                bestPos = at;
            }
        }
    }
    return best;
}

bool readTextFile(const std::filesystem::path& file, std::string& out)
{
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        return false;
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    out = buffer.str();
    return true;
}

JsonFile::JsonFile(std::filesystem::path file, std::vector<Diagnostic>& diagnostics)
    : m_file(std::move(file)), m_diagnostics(diagnostics)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(m_file, ec) || !readTextFile(m_file, m_text)) {
        m_diagnostics.push_back(
            {m_file, 0, 0, Severity::Error, "cannot read this file: it does not exist or is not readable"});
        return;
    }
    // A UTF-8 byte order mark is invisible in editors: drop it so that columns and the position index agree.
    if (const std::string_view body = engine::withoutBom(m_text); body.size() != m_text.size()) {
        m_text.erase(0, m_text.size() - body.size());
    }
    // Every nlohmann failure (a syntax error, a number like 1e400, too deep a nesting) is a diagnostic here.
    engine::JsonParseResult parsed = engine::parseJson(m_text);
    if (!parsed.ok()) {
        const engine::JsonSyntaxError& e = *parsed.error;
        m_diagnostics.push_back({m_file, e.line, e.column, Severity::Error,
                                 "JSON syntax error: " + e.message + " (check commas, quotes and brackets here)"});
        return;
    }
    m_root = std::move(parsed.value);
    m_index = JsonPositionIndex(m_text);
    m_ok = true;
    for (const auto& [pointer, pos] : m_index.duplicateKeys()) {
        m_diagnostics.push_back(
            {m_file, pos.line, pos.column, Severity::Error,
             "the key \"" + pointer.substr(pointer.rfind('/') + 1) + "\" appears twice in the same object; keep one"});
    }
}

TextPosition JsonFile::position(const std::string& pointer, bool atKey) const
{
    return atKey ? m_index.key(pointer) : m_index.value(pointer);
}

void Reporter::missing(const std::string& object, const std::string&, std::string message)
{
    add(object, Severity::Error, std::move(message));
}

void Reporter::error(const std::string& pointer, std::string message, bool atKey)
{
    add(pointer, Severity::Error, std::move(message), atKey);
}

void Reporter::warning(const std::string& pointer, std::string message)
{
    add(pointer, Severity::Warning, std::move(message));
}

void JsonFile::add(const std::string& pointer, Severity severity, std::string message, bool atKey)
{
    const TextPosition pos = position(pointer, atKey);
    m_diagnostics.push_back({m_file, pos.line, pos.column, severity, std::move(message)});
    if (severity == Severity::Error) {
        m_covered.push_back(pointer);
    }
}

void JsonFile::missing(const std::string& object, const std::string& field, std::string message)
{
    const TextPosition pos = position(object);
    m_diagnostics.push_back({m_file, pos.line, pos.column, Severity::Error, std::move(message)});
    m_covered.push_back(field);
}

bool JsonFile::covered(const std::string& pointer) const
{
    return std::any_of(m_covered.begin(), m_covered.end(), [&](const std::string& c) {
        return pointer.compare(0, c.size(), c) == 0 && (pointer.size() == c.size() || pointer[c.size()] == '/');
    });
}

std::string jsonTypeName(const nlohmann::json& value)
{
    switch (value.type()) {
    case nlohmann::json::value_t::null:
        return "null";
    case nlohmann::json::value_t::object:
        return "an object";
    case nlohmann::json::value_t::array:
        return "an array";
    case nlohmann::json::value_t::string:
        return "a string";
    case nlohmann::json::value_t::boolean:
        return "a boolean";
    case nlohmann::json::value_t::number_float:
        return "a number with a fraction";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
        return "an integer";
    default:
        return "an unsupported value";
    }
}

ObjectReader::ObjectReader(Reporter& file, const nlohmann::json& object, std::string pointer, std::string what)
    : m_file(file), m_pointer(std::move(pointer)), m_what(std::move(what))
{
    if (object.is_object()) {
        m_object = &object;
    } else {
        m_file.error(m_pointer, m_what + " must be a JSON object { … }, not " + jsonTypeName(object));
    }
}

std::string ObjectReader::fieldPointer(std::string_view key) const
{
    return pointerAppend(m_pointer, key);
}

const nlohmann::json* ObjectReader::lookup(const char* key, bool required)
{
    if (!m_object) {
        return nullptr;
    }
    m_known.emplace_back(key);
    const auto it = m_object->find(key);
    if (it == m_object->end()) {
        if (required) {
            m_file.missing(m_pointer, fieldPointer(key),
                           m_what + " is missing the required field \"" + std::string(key) + "\"");
        }
        return nullptr;
    }
    return &*it;
}

void ObjectReader::typeError(const char* key, const nlohmann::json& value, const char* expected)
{
    m_file.error(fieldPointer(key),
                 "\"" + std::string(key) + "\" in " + m_what + " must be " + expected + ", not " + jsonTypeName(value));
}

std::optional<std::string> ObjectReader::string(const char* key, bool required, bool nonEmpty)
{
    const nlohmann::json* v = lookup(key, required);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_string()) {
        typeError(key, *v, "a string");
        return std::nullopt;
    }
    std::string s = v->get<std::string>();
    if (nonEmpty && s.find_first_not_of(" \t\r\n") == std::string::npos) {
        m_file.error(fieldPointer(key), "\"" + std::string(key) + "\" in " + m_what + " must not be empty");
        return std::nullopt;
    }
    return s;
}

std::optional<long long> ObjectReader::integer(const char* key, bool required, long long minValue, long long maxValue)
{
    const nlohmann::json* v = lookup(key, required);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_number_integer()) {
        typeError(key, *v, "an integer");
        return std::nullopt;
    }
    const long long value =
        v->is_number_unsigned() && v->get<unsigned long long>() > (1ULL << 62) ? (1LL << 62) : v->get<long long>();
    if (value < minValue || value > maxValue) {
        m_file.error(fieldPointer(key), "\"" + std::string(key) + "\" in " + m_what + " is " + std::to_string(value) +
                                            "; it must lie between " + std::to_string(minValue) + " and " +
                                            std::to_string(maxValue));
        return std::nullopt;
    }
    return value;
}

std::optional<bool> ObjectReader::boolean(const char* key, bool required)
{
    const nlohmann::json* v = lookup(key, required);
    if (!v) {
        return std::nullopt;
    }
    if (!v->is_boolean()) {
        typeError(key, *v, "true or false");
        return std::nullopt;
    }
    return v->get<bool>();
}

const nlohmann::json* ObjectReader::array(const char* key, bool required, bool nonEmpty)
{
    const nlohmann::json* v = lookup(key, required);
    if (!v) {
        return nullptr;
    }
    if (!v->is_array()) {
        typeError(key, *v, "an array [ … ]");
        return nullptr;
    }
    if (nonEmpty && v->empty()) {
        m_file.error(fieldPointer(key), "\"" + std::string(key) + "\" in " + m_what + " must not be empty");
        return nullptr;
    }
    return v;
}

const nlohmann::json* ObjectReader::object(const char* key, bool required)
{
    const nlohmann::json* v = lookup(key, required);
    if (v && !v->is_object()) {
        typeError(key, *v, "an object { … }");
        return nullptr;
    }
    return v;
}

const nlohmann::json* ObjectReader::any(const char* key, bool required)
{
    return lookup(key, required);
}

bool ObjectReader::has(const char* key)
{
    if (!m_object) {
        return false;
    }
    m_known.emplace_back(key);
    return m_object->contains(key);
}

void ObjectReader::format()
{
    const nlohmann::json* v = lookup("format", true);
    if (v && !(v->is_number_integer() && v->get<long long>() == 1)) {
        m_file.error(fieldPointer("format"),
                     "\"format\" must be 1 (the only content format this version reads), not " + v->dump());
    }
}

void ObjectReader::finish()
{
    if (!m_object) {
        return;
    }
    for (const auto& [key, value] : m_object->items()) {
        if (std::find(m_known.begin(), m_known.end(), key) != m_known.end()) {
            continue;
        }
        std::string allowed;
        for (const std::string& k : m_known) {
            if (allowed.find("\"" + k + "\"") == std::string::npos) {
                allowed += (allowed.empty() ? "" : ", ") + ("\"" + k + "\"");
            }
        }
        m_file.error(fieldPointer(key),
                     "unknown field \"" + key + "\" in " + m_what + " (a typo?); allowed fields: " + allowed, true);
    }
}

} // namespace tkm::course::detail
