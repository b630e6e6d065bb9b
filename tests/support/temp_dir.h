#pragma once
// The one temporary-folder helper of the tests (engine, progress, packs): a fresh folder under the system temp
// folder, removed with everything in it when the object dies.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace tkm::test {

/// A fresh temporary folder, removed with everything in it on destruction.
class TempDir
{
public:
    /// Creates the folder (mkdtemp: unique even across parallel test processes); aborts when it cannot.
    TempDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "tkm-test-XXXXXX").string();
        if (!::mkdtemp(pattern.data())) {
            std::abort();
        }
        m_path = pattern;
    }
    /// Removes the folder and its contents.
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;            ///< owns a folder
    TempDir& operator=(const TempDir&) = delete; ///< owns a folder

    /// The folder.
    const std::filesystem::path& path() const { return m_path; }
    /// A path inside the folder.
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

private:
    std::filesystem::path m_path;
};

} // namespace tkm::test
