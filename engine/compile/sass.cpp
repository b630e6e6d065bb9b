// nvdisasm as a child process and the parsing of its `-g` line comments (engine/compile/sass.h).
#include "engine/compile/sass.h"

#include "engine/common/paths.h"
#include "engine/runner/subprocess.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

namespace tkm::compile {

namespace fs = std::filesystem;
using engine::ErrorKind;
using engine::makeError;

namespace {

bool isExecutable(const fs::path& p)
{
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// The folders whose bin/ may hold the toolkit's tools, in order of preference.
std::vector<fs::path> toolkitRoots()
{
    std::vector<fs::path> roots = {engine::cudaRoot()};
    // The toolkit NVRTC was loaded from: libnvrtc lives in <root>/lib64 or <root>/targets/<triple>/lib.
    Dl_info info{};
    if (void* sym = dlsym(RTLD_DEFAULT, "nvrtcVersion"); sym && dladdr(sym, &info) && info.dli_fname) {
        for (fs::path p = fs::path(info.dli_fname).parent_path(); !p.empty() && p != p.root_path();
             p = p.parent_path()) {
            roots.push_back(p);
        }
    }
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* v = std::getenv(var); v && *v) {
            roots.emplace_back(v);
        }
    }
    return roots;
}

// The Triton line of one `//## File "…", line N[ inlined at "…", line M]` comment, 0 when it names no line of
// `fileName`.
int frameLine(const std::smatch& m, std::string_view fileName)
{
    if (fs::path(m[1].str()).filename().string() == fileName) {
        return std::stoi(m[2].str());
    }
    if (m[3].matched && fs::path(m[3].str()).filename().string() == fileName) {
        return std::stoi(m[4].str());
    }
    return 0;
}

} // namespace

std::vector<int> SassListing::instructionsFrom(int sourceLine) const
{
    static const std::regex instruction(R"(^\s*/\*[0-9a-fA-F]{4,}\*/\s+\S)");
    std::vector<int> lines;
    std::istringstream in(text);
    std::string row;
    for (std::size_t i = 0; std::getline(in, row) && i < sourceLineOf.size(); ++i) {
        if (sourceLine > 0 && sourceLineOf[i] == sourceLine && std::regex_search(row, instruction)) {
            lines.push_back(static_cast<int>(i) + 1);
        }
    }
    return lines;
}

fs::path findNvdisasm()
{
    for (const fs::path& root : toolkitRoots()) {
        if (isExecutable(root / "bin" / "nvdisasm")) {
            return root / "bin" / "nvdisasm";
        }
    }
    if (const char* path = std::getenv("PATH")) {
        std::istringstream dirs(path);
        std::string dir;
        while (std::getline(dirs, dir, ':')) {
            if (!dir.empty() && isExecutable(fs::path(dir) / "nvdisasm")) {
                return fs::path(dir) / "nvdisasm";
            }
        }
    }
    return {};
}

SassListing mapSass(std::string_view output, std::string_view fileName)
{
    static const std::regex frame(
        R"re(//##\s*File\s+"([^"]*)",\s*line\s+(\d+)(?:\s+inlined at\s+"([^"]*)",\s*line\s+(\d+))?)re");
    SassListing out;
    out.text = std::string(output);
    std::istringstream in(out.text);
    std::string row;
    int current = 0; // the Triton line of the instructions that follow
    int block = -1;  // the line found in the run of `//## File` comments being read; -1: none open
    while (std::getline(in, row)) {
        std::smatch m;
        if (std::regex_search(row, m, frame)) {
            const int line = frameLine(m, fileName);
            block = std::max(block, 0);
            if (block == 0 && line > 0) {
                block = line; // the innermost frame in our file
                current = line;
            }
            // A block naming only other files (the tile runtime inlined, without its call site) keeps the line
            // of the statement around it: that is where the runtime was called from.
        } else {
            block = -1;
            if (row.find(".text.") != std::string::npos && row.find(':') != std::string::npos &&
                row.find("/*") == std::string::npos) {
                current = 0; // a new function's header
            }
        }
        out.sourceLineOf.push_back(current);
    }
    return out;
}

engine::Expected<SassListing> disassemble(const std::vector<char>& cubin, std::string_view fileName)
{
    const fs::path tool = findNvdisasm();
    if (tool.empty()) {
        return makeError(ErrorKind::Io, "SASS needs nvdisasm from the CUDA toolkit, which is not installed here "
                                        "(looked in " +
                                            (engine::cudaRoot() / "bin").string() +
                                            ", beside NVRTC's toolkit, CUDA_HOME, CUDA_PATH and PATH); the PTX "
                                            "needs no tool.");
    }
    std::error_code ec;
    const fs::path dir =
        fs::temp_directory_path(ec) / ("tkm-sass-" + std::to_string(::getpid()) + "-" +
                                       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::create_directories(dir, ec);
    const fs::path file = dir / "kernel.cubin";
    {
        std::ofstream f(file, std::ios::binary);
        f.write(cubin.data(), static_cast<std::streamsize>(cubin.size()));
        if (!f) {
            fs::remove_all(dir, ec);
            return makeError(ErrorKind::Io, "The CUBIN could not be written to " + file.string() + " for nvdisasm.");
        }
    }
    // -g as run on the H200 (CUDA 13.0); -gi would add `inlined at` call sites, which mapSass reads too.
    auto child = runner::Subprocess::spawn(tool, {"-g", "-c", file.string()}, false);
    if (!child) {
        fs::remove_all(dir, ec);
        return child.error();
    }
    child->closeStdin();
    std::string output;
    std::string line;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    runner::ReadResult r = runner::ReadResult::Line;
    while ((r = child->readLine(line, deadline)) == runner::ReadResult::Line) {
        output += line + "\n";
    }
    if (r == runner::ReadResult::Timeout) {
        child->kill();
    }
    const runner::ExitInfo exit = child->wait();
    fs::remove_all(dir, ec);
    if (r == runner::ReadResult::Timeout) {
        return makeError(ErrorKind::Internal, "nvdisasm ran past 20 s on a " + std::to_string(cubin.size()) +
                                                  "-byte CUBIN and was stopped.");
    }
    if (!exit.exited || exit.exitCode != 0) {
        return makeError(ErrorKind::Internal, "nvdisasm failed (" + exit.describe() + ") on the kernel's CUBIN.",
                         tool.string() + " -g -c " + file.string());
    }
    return mapSass(output, fileName);
}

} // namespace tkm::compile
