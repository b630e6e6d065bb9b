#include "engine/common/json_safe.h"

#include <new>
#include <type_traits>
#include <unordered_set>

namespace tkm::engine {
namespace {

using json = nlohmann::json;

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Offset of the first bracket that opens a level deeper than `maxDepth`, skipping string literals.
std::optional<std::size_t> tooDeepAt(std::string_view text, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\') {
                ++i;
            } else if (c == '"') {
                inString = false;
            }
        } else if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            if (++depth > maxDepth) {
                return i;
            }
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
    }
    return std::nullopt;
}

// "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error …" → "syntax error …".
std::string plainMessage(std::string what)
{
    if (const auto column = what.find("column "); column != std::string::npos) {
        if (const auto colon = what.find(": ", column); colon != std::string::npos) {
            return what.substr(colon + 2);
        }
    }
    if (const auto bracket = what.find("] "); bracket != std::string::npos) {
        return what.substr(bracket + 2);
    }
    return what;
}

std::string escapeToken(const std::string& token)
{
    std::string out;
    for (const char c : token) {
        out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    }
    return out;
}

// nlohmann's DOM builder with two additions: the error position of every failure (out_of_range has none in
// what()) and the keys repeated within one object.
class CheckingSax
{
public:
    using number_integer_t = json::number_integer_t;
    using number_unsigned_t = json::number_unsigned_t;
    using number_float_t = json::number_float_t;
    using string_t = json::string_t;
    using binary_t = json::binary_t;

    explicit CheckingSax(json& root) : m_dom(root, false) {}

    bool null() { return value(), m_dom.null(); }
    bool boolean(bool v) { return value(), m_dom.boolean(v); }
    bool number_integer(number_integer_t v) { return value(), m_dom.number_integer(v); }
    bool number_unsigned(number_unsigned_t v) { return value(), m_dom.number_unsigned(v); }
    bool number_float(number_float_t v, const string_t& s) { return value(), m_dom.number_float(v, s); }
    bool string(string_t& v) { return value(), m_dom.string(v); }
    bool binary(binary_t& v) { return value(), m_dom.binary(v); }
    bool start_object(std::size_t n)
    {
        value();
        m_stack.push_back(Frame{true});
        return m_dom.start_object(n);
    }
    bool key(string_t& k)
    {
        Frame& top = m_stack.back();
        top.key = k;
        if (!top.keys.insert(k).second) {
            m_duplicates.push_back({k, pointer()});
        }
        return m_dom.key(k);
    }
    bool end_object()
    {
        m_stack.pop_back();
        return m_dom.end_object();
    }
    bool start_array(std::size_t n)
    {
        value();
        m_stack.push_back(Frame{false});
        return m_dom.start_array(n);
    }
    bool end_array()
    {
        m_stack.pop_back();
        return m_dom.end_array();
    }
    template <class Exception> bool parse_error(std::size_t position, const std::string& token, const Exception& ex)
    {
        // Syntax errors point at the byte just read; a number out of range at the start of its token.
        const bool range = std::is_same_v<Exception, json::out_of_range>;
        std::size_t at = position > 0 ? position - 1 : 0;
        if (range && position >= token.size()) {
            at = position - token.size();
        }
        m_error = JsonSyntaxError{at, 1, 1, plainMessage(ex.what())};
        return false;
    }

    std::optional<JsonSyntaxError>& error() { return m_error; }
    std::vector<JsonDuplicateKey>& duplicates() { return m_duplicates; }

private:
    struct Frame
    {
        bool isObject = false;
        std::size_t count = 0; ///< arrays: values seen so far
        std::string key;       ///< objects: the current key
        std::unordered_set<std::string> keys;
    };

    void value()
    {
        if (!m_stack.empty() && !m_stack.back().isObject) {
            ++m_stack.back().count;
        }
    }
    std::string pointer() const
    {
        std::string p;
        for (const Frame& f : m_stack) {
            p += "/" + (f.isObject ? escapeToken(f.key) : std::to_string(f.count - 1));
        }
        return p;
    }

    nlohmann::detail::json_sax_dom_parser<json> m_dom;
    std::vector<Frame> m_stack;
    std::optional<JsonSyntaxError> m_error;
    std::vector<JsonDuplicateKey> m_duplicates;
};

// Length of the valid UTF-8 sequence starting at text[i], or 0 when it is not one.
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) {
        return 1;
    }
    std::size_t n = 0;
    unsigned int lo = 0x80;
    unsigned int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; // no overlong forms
        hi = c == 0xED ? 0x9F : 0xBF; // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; // nothing above U+10FFFF
    } else {
        return 0;
    }
    if (i + n > text.size() || b(i + 1) < lo || b(i + 1) > hi) {
        return 0;
    }
    for (std::size_t k = 2; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) {
            return 0;
        }
    }
    return n;
}

} // namespace

std::string_view withoutBom(std::string_view text)
{
    return text.starts_with(kBom) ? text.substr(kBom.size()) : text;
}

void lineAndColumn(std::string_view text, std::size_t offset, int& line, int& column)
{
    line = 1;
    column = 1;
    const std::size_t end = std::min(offset, text.size());
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
}

JsonParseResult parseJson(std::string_view text, int maxDepth)
{
    JsonParseResult result;
    result.bom = text.starts_with(kBom);
    const std::string_view body = withoutBom(text);
    auto fail = [&](std::size_t offset, std::string message) {
        JsonSyntaxError e{offset, 1, 1, std::move(message)};
        lineAndColumn(body, offset, e.line, e.column);
        result.error = std::move(e);
        result.value = nullptr;
        return std::move(result);
    };
    if (const auto deep = tooDeepAt(body, maxDepth)) {
        return fail(*deep, "objects and arrays nest deeper than " + std::to_string(maxDepth) +
                               " levels here; no file of this kind needs that many");
    }
    try {
        CheckingSax sax(result.value);
        const bool ok = json::sax_parse(body, &sax);
        if (sax.error()) {
            return fail(sax.error()->offset, sax.error()->message);
        }
        if (!ok) {
            return fail(body.size(), "the JSON text could not be read");
        }
        result.duplicates = std::move(sax.duplicates());
    } catch (const json::exception& e) {
        return fail(0, plainMessage(e.what()));
    } catch (const std::bad_alloc&) {
        return fail(0, "the JSON text needs more memory than is available");
    }
    return result;
}

std::string describe(const JsonSyntaxError& error)
{
    return "line " + std::to_string(error.line) + ", column " + std::to_string(error.column) + ": " + error.message;
}

std::string dumpJson(const nlohmann::json& value, int indent)
{
    try {
        return value.dump(indent, ' ', false, json::error_handler_t::replace);
    } catch (const json::exception& e) {
        return json(std::string("cannot write this value as JSON: ") + e.what()).dump();
    }
}

std::optional<std::size_t> firstInvalidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8Length(text, i);
        if (n == 0) {
            return i;
        }
        i += n;
    }
    return std::nullopt;
}

std::string toValidUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8Length(text, i);
        if (n == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(text.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace tkm::engine
