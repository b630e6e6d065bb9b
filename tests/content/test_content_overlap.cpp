// The built-in content is written fresh: ../shared/tools/overlap-check content reports 0 lines.
// Exits 77 ("SKIPPED") when the tool is not present (e.g. outside the development checkout).
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;

int main()
{
    const fs::path source = TKM_SOURCE_DIR;
    const char* env = std::getenv("TKM_OVERLAP_CHECK");
    const fs::path tool = env && *env ? fs::path(env) : source.parent_path() / "shared" / "tools" / "overlap-check";
    if (!fs::is_regular_file(tool)) {
        std::printf("SKIPPED: %s does not exist here, so the outline overlap cannot be checked\n", tool.c_str());
        return 77;
    }
    const std::string command = "cd '" + source.string() + "' && '" + tool.string() + "' content 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        std::printf("FAILED: cannot start %s\n", tool.c_str());
        return 1;
    }
    std::string output;
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        output += buffer;
    }
    const int status = pclose(pipe);
    std::printf("%s", output.c_str());
    if (status != 0) {
        std::printf("FAILED: overlap-check exited with status %d\n", status);
        return 1;
    }
    // The tool's last line is "<hits> line(s) repeat N+ consecutive words of the outline".
    const auto last = output.rfind(" line(s) repeat");
    if (last == std::string::npos) {
        std::printf("FAILED: unexpected overlap-check output\n");
        return 1;
    }
    const auto start = output.rfind('\n', last);
    const long hits = std::strtol(output.c_str() + (start == std::string::npos ? 0 : start + 1), nullptr, 10);
    if (hits != 0) {
        std::printf("FAILED: %ld line(s) of content/ repeat the course outline word for word; rewrite them\n", hits);
        return 1;
    }
    std::printf("OK: no content line repeats the outline\n");
    return 0;
}
