// String-literal helpers of the tokenizer: prefixes (r, b, f, u and their pairs) and escape decoding.
#include "engine/triton/syntax/lexer_text.h"

namespace tkm::triton::syntax {

namespace {

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

char lowerAscii(char c)
{
    return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

} // namespace

bool isStringPrefix(std::string_view id, bool& raw, bool& f, bool& b)
{
    if (id.empty() || id.size() > 2) {
        return false;
    }
    raw = f = b = false;
    bool u = false;
    for (char c : id) {
        switch (lowerAscii(c)) {
        case 'r':
            if (raw)
                return false;
            raw = true;
            break;
        case 'f':
            if (f)
                return false;
            f = true;
            break;
        case 'b':
            if (b)
                return false;
            b = true;
            break;
        case 'u':
            if (u)
                return false;
            u = true;
            break;
        default:
            return false;
        }
    }
    return !(u && (raw || f || b)) && !(f && b);
}

void appendUtf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | ((cp >> 18) & 0x07));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

/// Decodes the escapes of a (non-raw) string body.
std::string decodeEscapes(std::string_view s)
{
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '\\' || i + 1 >= s.size()) {
            out += s[i];
            continue;
        }
        char c = s[++i];
        switch (c) {
        case '\n':
            break;
        case '\r':
            if (i + 1 < s.size() && s[i + 1] == '\n')
                ++i;
            break;
        case 'n':
            out += '\n';
            break;
        case 't':
            out += '\t';
            break;
        case 'r':
            out += '\r';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 'f':
            out += '\f';
            break;
        case 'v':
            out += '\v';
            break;
        case '\\':
        case '\'':
        case '"':
            out += c;
            break;
        case 'x':
        case 'u':
        case 'U': {
            size_t n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
            uint32_t v = 0;
            size_t k = 0;
            for (; k < n && i + 1 + k < s.size() && isHexDigit(s[i + 1 + k]); ++k) {
                char h = lowerAscii(s[i + 1 + k]);
                v = v * 16 + static_cast<uint32_t>((h >= '0' && h <= '9') ? h - '0' : h - 'a' + 10);
            }
            if (k != n || v > 0x10FFFF) {
                out += '\\';
                out += c;
                break;
            }
            i += n;
            appendUtf8(out, v);
            break;
        }
        default:
            if (c >= '0' && c <= '7') {
                uint32_t v = static_cast<uint32_t>(c - '0');
                for (int k = 0; k < 2 && i + 1 < s.size() && s[i + 1] >= '0' && s[i + 1] <= '7'; ++k) {
                    v = v * 8 + static_cast<uint32_t>(s[++i] - '0');
                }
                appendUtf8(out, v);
            } else {
                out += '\\';
                out += c;
            }
        }
    }
    return out;
}

} // namespace tkm::triton::syntax
