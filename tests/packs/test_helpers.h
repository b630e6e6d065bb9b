#pragma once
// Shared helpers of the pack tests: a temporary profile folder, file I/O, folder comparison.

#include "tests/support/data_dir.h"
#include "tests/support/temp_dir.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

namespace tkm::test {

inline std::string readAll(const std::filesystem::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline void writeAll(const std::filesystem::path& p, const std::string& text)
{
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

/// Relative path → contents of every regular file under `root`.
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& root)
{
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
        if (e.is_regular_file()) {
            out[std::filesystem::relative(e.path(), root).generic_string()] = readAll(e.path());
        }
    }
    return out;
}

/// Replaces the first occurrence of `from` in file `p` by `to`; false when absent.
inline bool replaceInFile(const std::filesystem::path& p, const std::string& from, const std::string& to)
{
    std::string s = readAll(p);
    const auto at = s.find(from);
    if (at == std::string::npos) {
        return false;
    }
    s.replace(at, from.size(), to);
    writeAll(p, s);
    return true;
}

} // namespace tkm::test
