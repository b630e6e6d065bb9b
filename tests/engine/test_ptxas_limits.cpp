// engine/compile: ptxas resource errors (issue 14 item 4). NVRTC's log holds no error line when ptxas refuses a
// kernel for its shared or constant memory; the compiler must say which limit in one sentence, on the line that
// declares the array. NVRTC only, no GPU.

#include "test_util.h"

#include "engine/compile/compiler.h"
#include "engine/compile/detail/ptxas_limits.h"

#include <gtest/gtest.h>

using namespace tkm;

namespace {

class PtxasLimits : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto s = problem::loadSpec(test::vectorAddDir());
        ASSERT_TRUE(s.ok()) << s.error().message;
        spec = std::move(s).value();
        meta = *problem::resolveMeta(spec);
    }

    compile::CompileResult build(const std::string& source, int cc = 90)
    {
        auto req = compile::learnerRequest(spec, meta, source, "kernel.cu", cc);
        req.cacheDir = cache.path();
        auto r = compile::compileKernel(req);
        EXPECT_TRUE(r.ok()) << r.error().message << "\n" << r.error().detail;
        return r.ok() ? std::move(r).value() : compile::CompileResult{};
    }

    test::TempDir cache;
    problem::ExerciseSpec spec;
    problem::MetaValues meta;
};

// Static shared memory of `floats` elements, declared on line 3.
std::string sharedKernel(int floats)
{
    return "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, int n)\n"
           "{\n"
           "    __shared__ float tile[" +
           std::to_string(floats) +
           "];\n"
           "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "    tile[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
           "    __syncthreads();\n"
           "    if (i < n) out[i] = tile[(threadIdx.x + 1) % blockDim.x] + y[i];\n"
           "}\n";
}

} // namespace

TEST_F(PtxasLimits, TooMuchSharedMemoryIsOneSentenceOnTheDeclaration)
{
    const auto r = build(sharedKernel(65536)); // 256 KiB
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const compile::Diagnostic& d = r.diagnostics.front();
    EXPECT_EQ(d.severity, "error");
    EXPECT_EQ(d.message, "the kernel asks for 256 KiB of shared memory; an sm_90 block may have at most 227 KiB");
    EXPECT_EQ(d.line, 3);
    EXPECT_EQ(d.column, 22); // `tile`
    EXPECT_EQ(d.file, "kernel.cu");
    EXPECT_EQ(r.firstError().find("ptxas info"), std::string::npos) << r.firstError();
}

TEST_F(PtxasLimits, StaticSharedPast48KiBNamesDynamicSharedMemory)
{
    const auto r = build(sharedKernel(16384)); // 64 KiB: under sm_90's 227 KiB, over the static 48 KiB
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const compile::Diagnostic& d = r.diagnostics.front();
    EXPECT_EQ(d.line, 3);
    EXPECT_NE(d.message.find("64 KiB of static shared memory"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("extern __shared__"), std::string::npos) << d.message;
}

TEST_F(PtxasLimits, TheArchitectureSetsTheBlockLimit)
{
    const auto r = build(sharedKernel(32768), 86); // 128 KiB on sm_86 (99 KiB per block)
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    EXPECT_EQ(r.diagnostics.front().message,
              "the kernel asks for 128 KiB of shared memory; an sm_86 block may have at most 99 KiB");
}

TEST_F(PtxasLimits, TooMuchConstantMemoryIsOneSentenceOnTheDeclaration)
{
    const std::string src = "// a lookup table\n"
                            "__constant__ float table[20000];\n"
                            "\n"
                            "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, "
                            "int n)\n"
                            "{\n"
                            "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                            "    if (i < n) out[i] = x[i] + y[i] + table[i % 20000];\n"
                            "}\n";
    const auto r = build(src);
    ASSERT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const compile::Diagnostic& d = r.diagnostics.front();
    EXPECT_EQ(d.line, 2);
    EXPECT_EQ(d.column, 20);
    EXPECT_NE(d.message.find("78.1 KiB of constant memory"), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("at most 64 KiB"), std::string::npos) << d.message;
}

TEST_F(PtxasLimits, AKernelUnderTheLimitsCompiles)
{
    const auto r = build(sharedKernel(1024));
    EXPECT_TRUE(r.ok) << r.firstError();
}

TEST(PtxVariables, SharedAndConstantDeclarationsAreSummed)
{
    const auto vars = compile::detail::staticVariables(".shared .align 4 .b8 _ZZ10vector_addE3big[262144];\n"
                                                       ".extern .shared .align 16 .b8 dyn[];\n"
                                                       ".const .align 4 .f32 table[100][3];\n"
                                                       ".global .align 4 .u32 counter;\n"
                                                       ".shared .align 8 .f64 _ZN2ns5scaleE;\n");
    ASSERT_EQ(vars.size(), 3u);
    EXPECT_EQ(vars[0].source, "big");
    EXPECT_EQ(vars[0].bytes, 262144);
    EXPECT_TRUE(vars[0].shared);
    EXPECT_EQ(vars[1].source, "table");
    EXPECT_EQ(vars[1].bytes, 1200);
    EXPECT_FALSE(vars[1].shared);
    EXPECT_EQ(vars[2].source, "scale");
    EXPECT_EQ(vars[2].bytes, 8);
}
