#include "tests/content/content_files.h"

#include "engine/common/paths.h"

#include <algorithm>

namespace tkm::test {

namespace fs = std::filesystem;

fs::path contentRoot()
{
    return engine::contentDir();
}

std::vector<fs::path> exerciseFolders(const fs::path& root)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (const fs::directory_entry& module : fs::directory_iterator(root, ec)) {
        const fs::path exercises = module.path() / "exercises";
        if (!module.is_directory() || !fs::is_directory(exercises)) {
            continue;
        }
        for (const fs::directory_entry& ex : fs::directory_iterator(exercises, ec)) {
            if (fs::is_regular_file(ex.path() / "exercise.json")) {
                out.push_back(ex.path());
            }
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string shortName(const fs::path& folder, const fs::path& root)
{
    return folder.lexically_relative(root).generic_string();
}

} // namespace tkm::test
