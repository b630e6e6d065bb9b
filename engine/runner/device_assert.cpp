#include "engine/runner/device_assert.h"

#include <charconv>

namespace tkm::runner {
namespace {

// Reads "[x,y,z]" at the start of `s` (spaces allowed) and removes it.
bool takeTriple(std::string_view& s, std::array<int64_t, 3>& out)
{
    if (s.empty() || s.front() != '[') {
        return false;
    }
    s.remove_prefix(1);
    for (int i = 0; i < 3; ++i) {
        while (!s.empty() && s.front() == ' ') {
            s.remove_prefix(1);
        }
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out[i]);
        if (ec != std::errc{}) {
            return false;
        }
        s.remove_prefix(static_cast<std::size_t>(end - s.data()));
        const char want = i < 2 ? ',' : ']';
        if (s.empty() || s.front() != want) {
            return false;
        }
        s.remove_prefix(1);
    }
    return true;
}

bool takeWord(std::string_view& s, std::string_view word)
{
    if (!s.starts_with(word)) {
        return false;
    }
    s.remove_prefix(word.size());
    return true;
}

} // namespace

std::optional<DeviceAssert> parseDeviceAssert(std::string_view line)
{
    // file:line: function: block: [..], thread: [..] Assertion `cond` failed.
    constexpr std::string_view kBlock = ": block: ";
    const std::size_t blockAt = line.rfind(kBlock);
    if (blockAt == std::string_view::npos) {
        return std::nullopt;
    }
    DeviceAssert a;
    // The file name may hold ':' only before the line number's ":<digits>: ".
    const std::string_view head = line.substr(0, blockAt);
    std::size_t colon = head.find(':');
    while (colon != std::string_view::npos) {
        std::size_t digits = colon + 1;
        while (digits < head.size() && head[digits] >= '0' && head[digits] <= '9') {
            ++digits;
        }
        if (digits > colon + 1 && head.substr(digits).starts_with(": ")) {
            a.file = std::string(head.substr(0, colon));
            std::from_chars(head.data() + colon + 1, head.data() + digits, a.line);
            a.function = std::string(head.substr(digits + 2));
            break;
        }
        colon = head.find(':', colon + 1);
    }
    if (a.line <= 0) {
        return std::nullopt;
    }
    std::string_view rest = line.substr(blockAt + kBlock.size());
    if (!takeTriple(rest, a.block) || !takeWord(rest, ", thread: ") || !takeTriple(rest, a.thread) ||
        !takeWord(rest, " Assertion `")) {
        return std::nullopt;
    }
    constexpr std::string_view kFailed = "` failed.";
    const std::size_t end = rest.rfind(kFailed);
    if (end == std::string_view::npos) {
        return std::nullopt;
    }
    a.condition = std::string(rest.substr(0, end));
    return a;
}

std::optional<DeviceAssert> findDeviceAssert(const std::vector<std::string>& printed)
{
    for (const std::string& line : printed) {
        if (auto a = parseDeviceAssert(line)) {
            return a;
        }
    }
    return std::nullopt;
}

} // namespace tkm::runner
