#pragma once
// Where the test fixtures live: env TKM_TEST_DATA (set by CTest), else the source tree (TKM_SOURCE_DIR).

#include <cstdlib>
#include <filesystem>

namespace tkm::test {

/// tests/data of this checkout.
inline std::filesystem::path dataDir()
{
    if (const char* env = std::getenv("TKM_TEST_DATA"); env && *env) {
        return env;
    }
    return std::filesystem::path(TKM_SOURCE_DIR) / "tests" / "data";
}

} // namespace tkm::test
