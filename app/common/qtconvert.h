#pragma once
// Conversions between the Qt-free course model (UTF-8 std::string, std::filesystem::path) and Qt strings.

#include <QString>

#include <filesystem>
#include <string>
#include <string_view>

namespace tkm::app {

/// UTF-8 std::string → QString.
inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
/// UTF-8 string view → QString.
inline QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}
/// Path → QString (UTF-8 on Linux).
inline QString qs(const std::filesystem::path& p)
{
    return QString::fromStdString(p.string());
}

} // namespace tkm::app
