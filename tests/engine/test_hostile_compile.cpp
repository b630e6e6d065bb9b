// Hostile kernel sources (issue 14, items 11, 13 and the \xff\xfe comment): #include of host files is refused
// before NVRTC with file:line (the file's text never reaches the log), an endless macro expansion is stopped at the
// deadline, a runaway one at the memory limit, an oversized or non-UTF-8 source is refused with one sentence.
#include "test_util.h"

#include "engine/common/paths.h"
#include "engine/compile/compiler.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace tkm;

namespace {

class HostileCompile : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto s = problem::loadSpec(test::vectorAddDir());
        ASSERT_TRUE(s.ok()) << s.error().message;
        spec = std::move(s).value();
        meta = *problem::resolveMeta(spec);
        solution = *engine::readTextFile(spec.path(spec.solution));
    }

    compile::CompileRequest request(const std::string& source)
    {
        auto req = compile::learnerRequest(spec, meta, source, "kernel.cu");
        req.cacheDir = cache.path();
        req.useCache = false;
        return req;
    }

    compile::CompileResult build(const compile::CompileRequest& req)
    {
        auto r = compile::compileKernel(req);
        EXPECT_TRUE(r.ok()) << r.error().message << "\n" << r.error().detail;
        return r.ok() ? std::move(r).value() : compile::CompileResult{};
    }

    static const compile::Diagnostic* firstError(const compile::CompileResult& r)
    {
        for (const auto& d : r.diagnostics) {
            if (d.severity == "error") {
                return &d;
            }
        }
        return nullptr;
    }

    problem::ExerciseSpec spec;
    problem::MetaValues meta;
    std::string solution;
    test::TempDir cache;
};

} // namespace

TEST_F(HostileCompile, IncludeOfAHostFileIsRefusedBeforeNvrtc)
{
    struct Case
    {
        std::string lines; // put in front of the solution
        int line;          // where the error must be
        int column;
        std::string text;
    };
    const std::vector<Case> cases = {
        {"#include \"/etc/passwd\"\n", 1, 1, "#include \"/etc/passwd\" is not allowed"},
        {"// ok\n  #  include </etc/passwd>\n", 2, 3, "#include </etc/passwd> is not allowed"},
        {"#include <stdio.h>\n", 1, 1, "#include <stdio.h> is not allowed"},
        {"#include <cuda/../../../../etc/passwd>\n", 1, 1, "is not allowed"},
        {"%:include \"/etc/passwd\"\n", 1, 1, "is not allowed"},
        {"/* a */ #include \"/etc/passwd\"\n", 1, 9, "is not allowed"},
        {"#inc\\\nlude \"/etc/passwd\"\n", 1, 1, "is not allowed"},
        {"#define F \"/etc/passwd\"\n#include F\n", 2, 1, "does not name a header"},
        {"#include_next <cuda_fp16.h>\n", 1, 1, "#include_next is not allowed"},
        {"#import <cuda_fp16.h>\n", 1, 1, "#import is not allowed"},
    };
    for (const Case& c : cases) {
        const auto start = std::chrono::steady_clock::now();
        const auto r = build(request(c.lines + solution));
        EXPECT_FALSE(r.ok) << c.lines;
        const compile::Diagnostic* d = firstError(r);
        ASSERT_NE(d, nullptr) << c.lines;
        EXPECT_EQ(d->file, "kernel.cu");
        EXPECT_EQ(d->line, c.line) << c.lines;
        EXPECT_EQ(d->column, c.column) << c.lines;
        EXPECT_NE(d->message.find(c.text), std::string::npos) << d->message;
        EXPECT_EQ(r.log.find("root:"), std::string::npos) << "the host file reached the log";
        EXPECT_TRUE(r.cubin.empty());
        // Refused before NVRTC: no compile time spent.
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(500)) << c.lines;
    }
}

TEST_F(HostileCompile, ToolkitHeadersAndLookalikesInCommentsAndStringsStillCompile)
{
    const std::string ok = "#include <cuda_fp16.h>\n"
                           "#include <cooperative_groups.h>\n"
                           "// #include \"/etc/passwd\"\n"
                           "/*\n#include \"/etc/passwd\"\n*/\n"
                           "__device__ const char* kText = R\"x(\n#include \"/etc/passwd\"\n)x\";\n"
                           "__device__ const char* kOther = \"#include </etc/passwd>\";\n";
    const auto r = build(request(ok + solution));
    EXPECT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(compile::checkSource(ok, "k.cu").empty());
}

TEST_F(HostileCompile, EndlessMacroExpansionIsStoppedAtTheDeadline)
{
    // Each level expands its argument twice: F40 needs 2^40 steps but almost no memory.
    std::string bomb = "#define F0(x) x\n";
    for (int i = 1; i <= 40; ++i) {
        bomb += "#define F" + std::to_string(i) + "(x) F" + std::to_string(i - 1) + "(F" + std::to_string(i - 1) +
                "(x))\n";
    }
    bomb += "__device__ int bomb = F40(1);\n";
    auto req = request(bomb + solution);
    req.timeoutS = 3;
    const auto start = std::chrono::steady_clock::now();
    const auto r = build(req);
    const auto took = std::chrono::steady_clock::now() - start;
    EXPECT_FALSE(r.ok);
    const compile::Diagnostic* d = firstError(r);
    ASSERT_NE(d, nullptr) << r.log;
    EXPECT_EQ(d->message, "compiling took longer than 3 s and was stopped; a macro or template that expands without "
                          "bound?");
    EXPECT_GE(took, std::chrono::milliseconds(2900));
    EXPECT_LT(took, std::chrono::seconds(8));
    // The engine is still usable afterwards.
    EXPECT_TRUE(build(request(solution)).ok);
}

TEST_F(HostileCompile, RunawayMacroExpansionIsStoppedAtTheMemoryLimit)
{
    // Each level doubles the token count: X40 is 2^40 tokens.
    std::string bomb = "#define X0 1,\n";
    for (int i = 1; i <= 40; ++i) {
        bomb += "#define X" + std::to_string(i) + " X" + std::to_string(i - 1) + " X" + std::to_string(i - 1) + "\n";
    }
    bomb += "__device__ int table[] = {X40 0};\n";
    auto req = request(bomb + solution);
    req.memoryLimitBytes = std::size_t(512) << 20;
    req.timeoutS = 60;
    const auto start = std::chrono::steady_clock::now();
    auto r = compile::compileKernel(req);
    ASSERT_TRUE(r.ok()) << r.error().message << " / " << r.error().detail;
    EXPECT_FALSE(r->ok);
    const compile::Diagnostic* d = firstError(*r);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->message, "compiling needed more than 512 MiB of memory and was stopped; a macro or template that "
                          "expands without bound?");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(60));
    // The same limit leaves room for a normal kernel.
    auto normal = request(solution);
    normal.memoryLimitBytes = req.memoryLimitBytes;
    EXPECT_TRUE(build(normal).ok);
}

TEST_F(HostileCompile, OversizedSourceIsRefused)
{
    const std::string big = solution + "\n// " + std::string(compile::kMaxSourceBytes, 'x') + "\n";
    const auto r = build(request(big));
    EXPECT_FALSE(r.ok);
    const compile::Diagnostic* d = firstError(r);
    ASSERT_NE(d, nullptr);
    EXPECT_NE(d->message.find("a kernel source may be at most 256 KiB"), std::string::npos) << d->message;
}

TEST_F(HostileCompile, NonUtf8CommentIsALocatedErrorNotAnEngineFailure)
{
    const auto r = build(request("// \xff\xfe note\n" + solution));
    EXPECT_FALSE(r.ok);
    const compile::Diagnostic* d = firstError(r);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->line, 1);
    EXPECT_EQ(d->column, 4);
    EXPECT_NE(d->message.find("not UTF-8"), std::string::npos) << d->message;
    // Valid UTF-8 outside ASCII is fine.
    EXPECT_TRUE(build(request("// größe – π\n" + solution)).ok);
}
