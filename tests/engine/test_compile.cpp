// engine/compile: NVRTC compilation without a GPU: CUBIN, diagnostics on the learner's lines and columns,
// the signature check, meta-parameter defines, ptxas resources, the CUBIN cache, the exercise's own sources;
// the SASS line map of nvdisasm -g output (the disassembly itself is test_sass_gpu: CI has no nvdisasm).

#include "test_util.h"

#include "engine/common/paths.h"
#include "engine/compile/compiler.h"
#include "engine/compile/sass.h"
#include "tests/support/data_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>

using namespace tkm;
using nlohmann::json;

namespace {

class Compile : public ::testing::Test
{
protected:
    void SetUp() override
    {
        auto s = problem::loadSpec(test::vectorAddDir());
        ASSERT_TRUE(s.ok()) << s.error().message;
        spec = std::move(s).value();
        meta = *problem::resolveMeta(spec);
    }

    compile::CompileResult build(const std::string& source, problem::MetaValues m = {})
    {
        auto req = compile::learnerRequest(spec, m.empty() ? meta : m, source, "kernel.cu");
        req.cacheDir = cache.path();
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

    test::TempDir cache;
    problem::ExerciseSpec spec;
    problem::MetaValues meta;
};

const char* kGood = R"(extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + y[i];
    }
}
)";

} // namespace

TEST_F(Compile, SolutionCompilesToCubin)
{
    auto source = engine::readTextFile(spec.path(spec.solution));
    ASSERT_TRUE(source.ok());
    const auto r = build(*source);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.arch, "sm_90");
    EXPECT_FALSE(r.nvrtcVersion.empty());
    EXPECT_FALSE(r.cached);
    EXPECT_GT(r.compileMs, 0.0);
    EXPECT_EQ(r.loweredName, "vector_add");
    ASSERT_GT(r.cubin.size(), 4u);
    EXPECT_EQ(std::string(r.cubin.data() + 1, 3), "ELF");
    EXPECT_EQ(r.options.at(0), "-arch=sm_90");
    EXPECT_NE(std::find(r.options.begin(), r.options.end(), "-lineinfo"), r.options.end());
    EXPECT_NE(std::find(r.options.begin(), r.options.end(), "-DBLOCK_SIZE=1024"), r.options.end());
    EXPECT_NE(std::find(r.options.begin(), r.options.end(), "-DNUM_WARPS=4"), r.options.end());
    EXPECT_TRUE(r.resources.known) << r.log;
    EXPECT_GT(r.resources.registers, 0);
    EXPECT_EQ(r.resources.spillStoresBytes, 0);
    EXPECT_EQ(r.firstError(), "");
}

TEST_F(Compile, OtherArchitecture)
{
    auto req = compile::learnerRequest(spec, meta, kGood, "kernel.cu", 80);
    req.cacheDir = cache.path();
    auto r = compile::compileKernel(req);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->ok);
    EXPECT_EQ(r->arch, "sm_80");
}

TEST_F(Compile, SyntaxErrorOnTheLearnersLineAndColumn)
{
    // Line 4 lacks its semicolon; NVRTC reports it where the next token starts (line 5, column 5).
    const std::string src =
        "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, int n)\n"
        "{\n"
        "    const long long i = blockIdx.x * BLOCK_SIZE + threadIdx.x;\n"
        "    float v = x[i] + y[i]\n"
        "    if (i < n) out[i] = v;\n"
        "}\n";
    const auto r = build(src);
    EXPECT_FALSE(r.ok);
    const auto* e = firstError(r);
    ASSERT_NE(e, nullptr) << r.log;
    EXPECT_EQ(e->file, "kernel.cu");
    EXPECT_EQ(e->line, 5);
    EXPECT_EQ(e->column, 5);
    EXPECT_EQ(e->message, "expected a \";\"");
    EXPECT_EQ(r.firstError(), "kernel.cu:5:5: error: expected a \";\"");
    // The signature-check postlude says nothing while the learner's own code is broken.
    for (const auto& d : r.diagnostics) {
        EXPECT_EQ(d.file, "kernel.cu") << d.message;
    }
    EXPECT_EQ(r.log.find("<signature-check>"), std::string::npos);
}

TEST_F(Compile, UnknownIdentifierWithTabs)
{
    const std::string src =
        "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, int n)\n"
        "{\n"
        "\tconst long long i = blockIdx.x * BLOCK_SIZE + threadIdx.x;\n"
        "\tif (msk) out[i] = x[i] + y[i];\n"
        "}\n";
    const auto r = build(src);
    EXPECT_FALSE(r.ok);
    const auto* e = firstError(r);
    ASSERT_NE(e, nullptr) << r.log;
    EXPECT_EQ(e->line, 4);
    EXPECT_EQ(e->column, 6); // the tab counts as one character
    EXPECT_EQ(e->message, "identifier \"msk\" is undefined");
}

TEST_F(Compile, WrongArity)
{
    const std::string src = "// vector_add(x, y) is what this file is about\n"
                            "extern \"C\" __global__ void vector_add(const float* x, float* out, int n)\n"
                            "{\n"
                            "    out[0] = x[0];\n"
                            "}\n";
    const auto r = build(src);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    const auto& d = r.diagnostics[0];
    EXPECT_EQ(d.message, "vector_add takes 3 parameters, the exercise passes 4: x, y, out, n");
    EXPECT_EQ(d.file, "kernel.cu");
    EXPECT_EQ(d.line, 2); // the declaration, not the comment above it
    EXPECT_EQ(d.column, 28);
    EXPECT_EQ(r.log.find("tkm_sig"), std::string::npos) << r.log;
}

TEST_F(Compile, WrongPointerAndScalarTypes)
{
    const std::string src = "extern \"C\" __global__ void vector_add(const float* x, int* y, float* out, float n)\n"
                            "{\n"
                            "    out[0] = x[0] + y[0] + n;\n"
                            "}\n";
    const auto r = build(src);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 2u) << r.log;
    EXPECT_EQ(r.diagnostics[0].message, "parameter 2 `y` must be `const float*` (a buffer of f32), not `int*`");
    EXPECT_EQ(r.diagnostics[0].line, 1);
    EXPECT_EQ(r.diagnostics[1].message, "parameter 4 `n` must be `int` (a scalar of i32), not `float`");
    const std::string out =
        "extern \"C\" __global__ void vector_add(const float* x, const float* y, const double* out, int n) {}\n";
    const auto r2 = build(out);
    ASSERT_EQ(r2.diagnostics.size(), 1u) << r2.log;
    EXPECT_EQ(r2.diagnostics[0].message, "parameter 3 `out` must be `float*` (a buffer of f32), not `const double*`");
}

TEST_F(Compile, MissingKernel)
{
    const std::string src =
        "// a helper only\n"
        "extern \"C\" __global__ void vec_add(const float* x, const float* y, float* out, int n) {}\n";
    const auto r = build(src);
    EXPECT_FALSE(r.ok);
    ASSERT_EQ(r.diagnostics.size(), 1u) << r.log;
    EXPECT_EQ(r.diagnostics[0].message,
              "no kernel named vector_add: declare extern \"C\" __global__ void vector_add(x, y, out, n)");
    EXPECT_EQ(r.diagnostics[0].line, 2); // the kernel that was written instead
}

TEST_F(Compile, CppLinkageKernelIsFound)
{
    const std::string src = "__global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,\n"
                            "                           float* __restrict__ out, int n)\n"
                            "{ if (threadIdx.x < n) out[threadIdx.x] = x[threadIdx.x] + y[threadIdx.x]; }\n";
    const auto r = build(src);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.loweredName, "_Z10vector_addPKfS0_Pfi");
}

TEST_F(Compile, MetaDefinesReachTheCode)
{
    const std::string src = std::string("static_assert(BLOCK_SIZE == 256 && NUM_WARPS == 8, \"meta\");\n") + kGood;
    EXPECT_TRUE(build(src, {{"BLOCK_SIZE", 256}, {"NUM_WARPS", 8}}).ok);
    const auto r = build(src, {{"BLOCK_SIZE", 512}, {"NUM_WARPS", 8}});
    EXPECT_FALSE(r.ok);
    const auto* e = firstError(r);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->line, 1);
    EXPECT_NE(e->message.find("meta"), std::string::npos) << e->message;
}

TEST_F(Compile, ResourceUsageIsCaptured)
{
    const std::string src =
        "extern \"C\" __global__ void vector_add(const float* x, const float* y, float* out, int n)\n"
        "{\n"
        "    __shared__ float tile[512];\n"
        "    tile[threadIdx.x] = x[threadIdx.x];\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x < n) out[threadIdx.x] = tile[511 - threadIdx.x] + y[threadIdx.x];\n"
        "}\n";
    const auto r = build(src);
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_TRUE(r.resources.known);
    EXPECT_EQ(r.resources.sharedBytes, 2048);
    EXPECT_GT(r.resources.registers, 0);
    EXPECT_EQ(r.resources.localBytes, 0);
}

TEST_F(Compile, CacheHitOnSecondCompile)
{
    const auto first = build(kGood);
    ASSERT_TRUE(first.ok);
    EXPECT_FALSE(first.cached);
    const auto second = build(kGood);
    ASSERT_TRUE(second.ok);
    EXPECT_TRUE(second.cached);
    EXPECT_EQ(second.cubin, first.cubin);
    EXPECT_EQ(second.loweredName, first.loweredName);
    EXPECT_EQ(second.resources.registers, first.resources.registers);
    EXPECT_EQ(second.cacheKey, first.cacheKey);
    EXPECT_LT(second.compileMs, first.compileMs);
    // Another meta-parameter value is another CUBIN.
    const auto third = build(kGood, {{"BLOCK_SIZE", 256}, {"NUM_WARPS", 4}});
    EXPECT_FALSE(third.cached);
    EXPECT_NE(third.cacheKey, first.cacheKey);
    // A damaged entry is a miss, not an error.
    std::filesystem::resize_file(cache.path() / (first.cacheKey + ".cubin"), 10);
    const auto fourth = build(kGood);
    EXPECT_TRUE(fourth.ok);
    EXPECT_FALSE(fourth.cached);
}

TEST_F(Compile, ReferenceAndEveryExerciseSource)
{
    auto ref = compile::referenceRequest(spec);
    ASSERT_TRUE(ref.ok()) << ref.error().message;
    EXPECT_TRUE(ref->defines.empty());
    ref->cacheDir = cache.path();
    auto r = compile::compileKernel(*ref);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->ok) << r->log;
    EXPECT_EQ(r->loweredName, "vector_add_ref");
    std::vector<std::string> files = {spec.starter, spec.solution};
    for (const auto& b : spec.bugs) {
        files.push_back(b.file);
    }
    for (const auto& f : files) {
        auto source = engine::readTextFile(spec.path(f));
        ASSERT_TRUE(source.ok());
        const auto c = build(*source);
        EXPECT_TRUE(c.ok) << f << ": " << c.firstError();
    }
}

TEST_F(Compile, HalfBuffersGetTheirHeader)
{
    json j = test::vectorAddJson();
    for (int i = 0; i < 3; ++i) {
        j["params"][i]["dtype"] = "f16";
    }
    j["tolerance"] = {{"f16", {{"atol", 1e-3}, {"rtol", 1e-3}}}};
    auto s = test::parseIn(j);
    ASSERT_TRUE(s.ok()) << s.error().message;
    const std::string half =
        "extern \"C\" __global__ void vector_add(const __half* x, const __half* y, __half* out, int n)\n"
        "{ int i = threadIdx.x; if (i < n) out[i] = __hadd(x[i], y[i]); }\n";
    auto req = compile::learnerRequest(*s, meta, half, "kernel.cu");
    req.cacheDir = cache.path();
    EXPECT_TRUE(req.includeFp16);
    auto r = compile::compileKernel(req);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r->ok) << r->log;
    // The reference of an f16 exercise takes double*.
    const auto refSig = compile::referenceSignatureFor(*s);
    EXPECT_EQ(refSig[0].dtype, engine::DType::F64);
    EXPECT_EQ(refSig[3].dtype, engine::DType::I32);
    req.source = kGood;
    auto wrong = compile::compileKernel(req);
    ASSERT_TRUE(wrong.ok());
    EXPECT_FALSE(wrong->ok);
    ASSERT_FALSE(wrong->diagnostics.empty());
    EXPECT_EQ(wrong->diagnostics[0].message,
              "parameter 1 `x` must be `const __half*` (a buffer of f16), not `const float*`");
}

// nvdisasm -g output as the toolkit writes it: a block of `//## File` comments per source line, innermost frame
// first, a frame of another file naming its call site with `inlined at`.
TEST(Sass, LineCommentsMapInstructionsToTheKernelFile)
{
    const std::string listing = "\t.text.tkm_kernel:\n"
                                "\t//## File \"/tmp/x/kernel.py\", line 7\n"
                                "        /*0000*/                   S2R R0, SR_CTAID.X ;\n"
                                "\t//## File \"kernel.py.cu\", line 310 inlined at \"/tmp/x/kernel.py\", line 14\n"
                                "\t//## File \"/tmp/x/kernel.py\", line 14\n"
                                "        /*0010*/              @!P0 LDG.E.128 R4, desc[UR4][R2.64] ;\n"
                                "\t//## File \"runtime.cuh\", line 20\n"
                                "        /*0020*/                   EXIT ;\n"
                                ".text.other:\n"
                                "        /*0000*/                   BRA 0x0 ;\n";
    const compile::SassListing sass = compile::mapSass(listing, "kernel.py");
    ASSERT_EQ(sass.sourceLineOf.size(), 10u);
    EXPECT_EQ(sass.sourceLineOf[0], 0);
    EXPECT_EQ(sass.sourceLineOf[1], 7);
    EXPECT_EQ(sass.sourceLineOf[2], 7);
    EXPECT_EQ(sass.sourceLineOf[5], 14); // the inlined runtime frame names its call site in kernel.py
    EXPECT_EQ(sass.sourceLineOf[7], 14); // a frame of another file only: the statement around it
    EXPECT_EQ(sass.sourceLineOf[9], 0);  // a new function starts unmapped
    EXPECT_EQ(sass.instructionsFrom(14), (std::vector<int>{6, 8})); // the load and the runtime's EXIT after it
    EXPECT_EQ(sass.instructionsFrom(7), std::vector<int>{3});
    EXPECT_TRUE(sass.instructionsFrom(99).empty());
}

// The listing nvdisasm -g gave on the H200 for the vector-add Triton solution (tests/data/sass/README.md): the
// vector loads (LDG.E.128) name only the tile runtime's header, and still map to the tl.load lines (15: x, 16: y);
// every store maps to the tl.store line (18).
TEST(Sass, RealListingMapsEveryGlobalLoadAndStore)
{
    std::ifstream in(test::dataDir() / "sass" / "h200-vector-add.sass");
    ASSERT_TRUE(in.good());
    const std::string listing{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const compile::SassListing sass = compile::mapSass(listing, "kernel.py");
    std::istringstream rows(listing);
    std::string row;
    int loads = 0, vectorLoads = 0, stores = 0;
    for (size_t i = 0; std::getline(rows, row); ++i) {
        ASSERT_LT(i, sass.sourceLineOf.size());
        if (row.find("LDG.") != std::string::npos) {
            ++loads;
            vectorLoads += row.find("LDG.E.128") != std::string::npos ? 1 : 0;
            EXPECT_TRUE(sass.sourceLineOf[i] == 15 || sass.sourceLineOf[i] == 16) << i + 1 << ": " << row;
        }
        if (row.find("STG.") != std::string::npos) {
            ++stores;
            EXPECT_EQ(sass.sourceLineOf[i], 18) << i + 1 << ": " << row;
        }
    }
    EXPECT_EQ(vectorLoads, 4);
    EXPECT_GE(loads, 20);
    EXPECT_GE(stores, 8);
    EXPECT_EQ(sass.sourceLineOf[0], 0); // the header before the first line comment
    EXPECT_FALSE(sass.instructionsFrom(15).empty());
    EXPECT_FALSE(sass.instructionsFrom(16).empty());
}

TEST(Sass, MissingToolIsASentence)
{
    if (!compile::findNvdisasm().empty()) {
        GTEST_SKIP() << "nvdisasm is installed here: test_sass_gpu covers it";
    }
    const auto r = compile::disassemble({'x'}, "kernel.py");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("nvdisasm"), std::string::npos);
    EXPECT_NE(r.error().message.find("PTX"), std::string::npos);
}
