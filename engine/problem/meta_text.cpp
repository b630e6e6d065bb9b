#include "engine/problem/meta_text.h"

#include <charconv>

namespace tkm::problem {
namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

} // namespace

engine::Expected<MetaValues> parseMetaAssignments(std::string_view text)
{
    const std::string quoted = "\"" + std::string(text) + "\"";
    auto bad = [&](const std::string& why) {
        return engine::makeError(engine::ErrorKind::BadInput,
                                 "Configuration " + quoted + ": " + why +
                                     "; write NAME=INTEGER items separated by commas, e.g. BLOCK_SIZE=256,NUM_WARPS=2.");
    };
    if (trim(text).empty())
        return bad("it is empty");
    MetaValues out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = text.find(',', start);
        const std::string_view item =
            trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
        start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos)
            return bad("\"" + std::string(item) + "\" has no \"=\"");
        const std::string name(trim(item.substr(0, eq)));
        const std::string_view value = trim(item.substr(eq + 1));
        if (name.empty())
            return bad("\"" + std::string(item) + "\" has no name before \"=\"");
        int64_t v = 0;
        const auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (value.empty() || ec != std::errc() || ptr != value.data() + value.size())
            return bad("the value of " + name + " (\"" + std::string(value) + "\") is not an integer");
        if (out.count(name) != 0)
            return bad(name + " is given twice");
        out[name] = v;
    }
    return out;
}

std::string formatMetaAssignments(const MetaValues& values)
{
    std::string out;
    for (const auto& [name, value] : values)
        out += (out.empty() ? "" : ",") + name + "=" + std::to_string(value);
    return out;
}

} // namespace tkm::problem
