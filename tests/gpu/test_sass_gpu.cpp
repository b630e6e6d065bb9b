// SASS of a course kernel (label gpu: it needs the CUDA toolkit's nvdisasm, which CI lacks; no GPU is used):
// the vector-add Triton solution is lowered and compiled by NVRTC to an sm_90 CUBIN with -lineinfo, disassembled
// with compile::disassemble(), and its tl.load / tl.store lines map to LDG / STG instructions.
// Without nvdisasm: "SKIPPED: …", exit 77.
#include "engine/compile/sass.h"
#include "engine/problem/instance.h"
#include "engine/runner/triton_gpu.h"
#include "tests/engine/test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

namespace {

std::string readFile(const std::filesystem::path& p)
{
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// 1-based line of `text` holding `needle` (the `nth` such line, from 1), 0 when none.
int lineOf(const std::string& text, const std::string& needle, int nth = 1)
{
    std::istringstream in(text);
    std::string row;
    for (int i = 1; std::getline(in, row); ++i) {
        if (row.find(needle) != std::string::npos && --nth == 0) {
            return i;
        }
    }
    return 0;
}

std::string rowsOf(const tkm::compile::SassListing& sass, const std::vector<int>& lines)
{
    std::istringstream in(sass.text);
    std::string row;
    std::string out;
    for (int i = 1; std::getline(in, row); ++i) {
        if (std::find(lines.begin(), lines.end(), i) != lines.end()) {
            out += row + "\n";
        }
    }
    return out;
}

} // namespace

TEST(SassGpu, VectorAddLoadsAndStoreMapToTheirTritonLines)
{
    auto spec = tkm::problem::loadSpec(tkm::test::vectorAddDir());
    ASSERT_TRUE(spec.ok()) << spec.error().message;
    auto meta = tkm::problem::resolveMeta(*spec, {});
    ASSERT_TRUE(meta.ok());
    tkm::runner::Job job;
    job.exercise = spec->dir;
    job.source = readFile(spec->path(spec->triton->solution));
    job.sourceName = "kernel.py";
    tkm::runner::detail::TritonGpuCompiler compiler(job, *spec, 90);
    auto inst = tkm::problem::instantiate(*spec, *spec->performance, *meta, -1);
    ASSERT_TRUE(inst.ok()) << inst.error().message;
    auto kernel = compiler.forCase(*inst);
    ASSERT_TRUE(kernel.ok()) << kernel.error().message;
    ASSERT_NE(*kernel, nullptr);
    ASSERT_TRUE((*kernel)->ok());
    const std::vector<char>& cubin = (*kernel)->compiled.cubin;
    ASSERT_FALSE(cubin.empty());

    auto sass = tkm::compile::disassemble(cubin, "kernel.py");
    ASSERT_TRUE(sass.ok()) << sass.error().message << " " << sass.error().detail;
    ASSERT_EQ(sass->sourceLineOf.size(), static_cast<size_t>(std::count(sass->text.begin(), sass->text.end(), '\n')));
    if (const char* dump = std::getenv("TKM_SASS_DUMP")) { // to read nvdisasm's format on the GPU machine
        std::ofstream(dump) << sass->text;
    }
    std::cout << "nvdisasm: " << tkm::compile::findNvdisasm() << ", " << sass->sourceLineOf.size()
              << " listing lines\n";

    const int loadX = lineOf(job.source, "tl.load(x_ptr");
    const int loadY = lineOf(job.source, "tl.load(y_ptr");
    const int store = lineOf(job.source, "tl.store(");
    ASSERT_GT(loadX, 0);
    for (const auto& [line, opcode] : {std::pair{loadX, "LDG"}, std::pair{loadY, "LDG"}, std::pair{store, "STG"}}) {
        const std::vector<int> rows = sass->instructionsFrom(line);
        const std::string text = rowsOf(*sass, rows);
        std::cout << "Triton line " << line << " -> " << rows.size() << " SASS instructions:\n" << text;
        EXPECT_FALSE(rows.empty()) << "no SASS instruction mapped to Triton line " << line;
        EXPECT_NE(text.find(opcode), std::string::npos) << "line " << line << " has no " << opcode << ":\n" << text;
    }
    // Every global load of the kernel comes from one of the two tl.load lines (the lowering adds none of its own).
    std::istringstream in(sass->text);
    std::string row;
    for (size_t i = 0; std::getline(in, row); ++i) {
        if (row.find("LDG.") != std::string::npos) {
            EXPECT_TRUE(sass->sourceLineOf[i] == loadX || sass->sourceLineOf[i] == loadY)
                << "listing line " << i + 1 << " maps to Triton line " << sass->sourceLineOf[i] << ": " << row;
        }
    }
}

int main(int argc, char** argv)
{
    if (tkm::compile::findNvdisasm().empty()) {
        std::cout << "SKIPPED: nvdisasm is not installed (not in the CUDA toolkit's bin, beside NVRTC, CUDA_HOME, "
                     "CUDA_PATH or PATH): the SASS mapping test needs the full CUDA toolkit\n";
        return 77;
    }
    if (std::getenv("TKM_CONTENT_DIR") == nullptr) {
        std::cout << "SKIPPED: TKM_CONTENT_DIR must be set (tkm_add_test sets it)\n";
        return 77;
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
