// The CUDA lowering (engine/triton/lower/) without a GPU: Triton's tutorial kernels, every course Triton
// solution and bug variant the checker accepts, and small kernels covering each op family are lowered and
// compiled by the engine's NVRTC for sm_90 with 0 errors; the #line source map, the fast paths (16-byte
// accesses tested once per chunk, shuffle reductions, row slices broadcast in place, Triton's fp32 division and
// exp) against the floor, the axis analysis and the internal-error path (an op the code generator refuses names
// the Triton line) are asserted.

#include "tests/triton/triton_test_util.h"

#include "engine/compile/compiler.h"
#include "engine/problem/instance.h"
#include "engine/problem/spec.h"
#include "engine/runner/triton_binding.h"
#include "engine/triton/lower/lower.h"
#include "engine/triton/lower/lower_impl.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace ir = tkm::triton::ir;
namespace lower = tkm::triton::lower;
using tkm::triton::CheckInput;
using tkm::triton::ConstexprValue;
using ir::Elem;
using ir::Type;

fs::path repoPath(const std::string& rel) { return fs::path(TKM_SOURCE_DIR) / rel; }

std::string readFile(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot read " << p;
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Type ptr(Elem e) { return Type{Elem::Ptr, {}, e}; }
Type scalar(Elem e) { return Type{e, {}, Elem::F32}; }

/// NVRTC's verdict on a lowered kernel.
tkm::compile::CompileResult nvrtc(const lower::Lowered& l, const std::string& kernel)
{
    tkm::compile::CompileRequest req;
    req.source = l.source;
    req.sourceName = "kernel.py.cu";
    req.kernel = kernel;
    req.computeCapability = 90;
    req.useCache = false;
    req.extraOptions = {"-lineinfo"};
    auto r = tkm::compile::compileKernel(req);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : tkm::compile::CompileResult{};
}

/// Lowers `f` and compiles it; fails the test on any lowering diagnostic or NVRTC error.
lower::Lowered lowerAndCompile(const ir::Function& f, const std::string& what)
{
    lower::LowerOptions o;
    o.kernelName = "tkm_kernel";
    const lower::Lowered l = lower::lower(f, o);
    EXPECT_TRUE(l.diagnostics.empty()) << what << ": " << (l.diagnostics.empty() ? "" : l.diagnostics[0].message);
    const auto r = nvrtc(l, o.kernelName);
    EXPECT_TRUE(r.ok) << what << ": " << r.firstError() << "\n" << r.log.substr(0, 4000);
    return l;
}

/// Parses and checks `source`, then lowers and compiles its entry.
lower::Lowered checkLowerCompile(const std::string& source, CheckInput in, const std::string& what)
{
    const auto c = tkm::triton::test::compile(source, in);
    EXPECT_TRUE(c.checked.function.has_value()) << what << "\n" << tkm::triton::test::diagnosticsText(c);
    if (!c.checked.function) {
        return {};
    }
    return lowerAndCompile(*c.checked.function, what);
}

CheckInput input(const std::string& entry, std::vector<Type> types, std::map<std::string, ConstexprValue> cx = {},
                 int numWarps = 4)
{
    CheckInput in;
    in.entry = entry;
    in.runtimeParamTypes = std::move(types);
    in.constexprs = std::move(cx);
    in.numWarps = numWarps;
    return in;
}

ConstexprValue I(int64_t v) { return ConstexprValue::ofInt(v); }

// ---- the tutorials ----

TEST(LowerTutorials, VectorAddCompilesWithAVectorPathAndLineMap)
{
    const std::string src = readFile(repoPath("tests/data/triton/tutorials/01_vector_add.py"));
    const auto l = checkLowerCompile(
        src, input("vec_add_kernel", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)},
                   {{"BLOCK_SIZE", I(1024)}}),
        "vec_add");
    EXPECT_NE(l.source.find("extern \"C\" __global__ void __launch_bounds__(128) tkm_kernel("), std::string::npos);
    EXPECT_NE(l.source.find("tkm::vload<4>("), std::string::npos) << "float4 load path";
    EXPECT_NE(l.source.find("tkm::vstore<4>("), std::string::npos) << "float4 store path";
    EXPECT_NE(l.layoutNotes.find("1024 int32s, 4 per thread, 128 threads, 2 repetitions"), std::string::npos)
        << l.layoutNotes;
    // the load line of the tutorial (a = tl.load(...)) has generated lines, each after a #line for it
    int loadLine = 0;
    {
        std::istringstream in(src);
        std::string s;
        for (int n = 1; std::getline(in, s); ++n) {
            if (s.find("tl.load") != std::string::npos && loadLine == 0) {
                loadLine = n;
            }
        }
    }
    ASSERT_GT(loadLine, 0);
    const auto it = std::find_if(l.lines.begin(), l.lines.end(), [&](const lower::LineMap& m) {
        return m.tritonLine == loadLine;
    });
    ASSERT_NE(it, l.lines.end());
    std::vector<std::string> cuda;
    {
        std::istringstream in(l.source);
        std::string s;
        while (std::getline(in, s)) {
            cuda.push_back(s);
        }
    }
    ASSERT_LE(it->lastCudaLine, static_cast<int>(cuda.size()));
    EXPECT_EQ(cuda[static_cast<size_t>(it->firstCudaLine - 2)], "#line " + std::to_string(loadLine));
    EXPECT_NE(cuda[static_cast<size_t>(it->firstCudaLine - 1)].find("v"), std::string::npos);
}

TEST(LowerTutorials, SoftmaxMatmulLayerNormAttentionCompile)
{
    const auto softmax = readFile(repoPath("tests/data/triton/tutorials/02_fused_softmax.py"));
    checkLowerCompile(softmax,
                      input("softmax_one_row",
                            {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32), scalar(Elem::I32)},
                            {{"BLOCK_SIZE", I(1024)}}, 8),
                      "softmax_one_row");
    checkLowerCompile(softmax,
                      input("softmax_persistent",
                            {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32), scalar(Elem::I32),
                             scalar(Elem::I32)},
                            {{"BLOCK_SIZE", I(1024)}, {"num_stages", I(2)}}),
                      "softmax_persistent");
    std::vector<Type> mm = {ptr(Elem::F16), ptr(Elem::F16), ptr(Elem::F16)};
    for (int k = 0; k < 9; ++k) {
        mm.push_back(scalar(Elem::I32));
    }
    for (const char* act : {"", "leaky_relu"}) {
        checkLowerCompile(readFile(repoPath("tests/data/triton/tutorials/03_matmul.py")),
                          input("matmul_kernel", mm,
                                {{"BLOCK_SIZE_M", I(64)}, {"BLOCK_SIZE_N", I(64)}, {"BLOCK_SIZE_K", I(32)},
                                 {"GROUP_SIZE_M", I(8)}, {"ACTIVATION", ConstexprValue::ofStr(act)}}),
                          std::string("matmul ") + act);
    }
    std::vector<Type> ln(6, ptr(Elem::F32));
    ln.push_back(scalar(Elem::I32));
    ln.push_back(scalar(Elem::I32));
    ln.push_back(scalar(Elem::F32));
    checkLowerCompile(readFile(repoPath("tests/data/triton/tutorials/05_layer_norm.py")),
                      input("_layer_norm_fwd_fused", ln, {{"BLOCK_SIZE", I(256)}}, 1), "layer norm");
    std::vector<Type> at = {ptr(Elem::F16), ptr(Elem::F16), ptr(Elem::F16), scalar(Elem::F32), ptr(Elem::F32),
                            ptr(Elem::F16)};
    for (int k = 0; k < 18; ++k) {
        at.push_back(scalar(Elem::I32));
    }
    for (int stage : {1, 3}) {
        checkLowerCompile(readFile(repoPath("tests/data/triton/tutorials/06_fused_attention.py")),
                          input("_attn_fwd", at,
                                {{"N_CTX", I(100)}, {"HEAD_DIM", I(64)}, {"BLOCK_M", I(64)}, {"BLOCK_N", I(32)},
                                 {"STAGE", I(stage)}}),
                          "attention stage " + std::to_string(stage));
    }
}

// ---- the course: every Triton solution and bug variant the checker accepts ----

fs::path contentDir()
{
    if (const char* d = std::getenv("TKM_CONTENT_DIR")) {
        return d;
    }
    return repoPath("content");
}

TEST(LowerCourse, EverySolutionAndBugTheCheckerAcceptsCompiles)
{
    int lowered = 0;
    for (const auto& mod : fs::directory_iterator(contentDir())) {
        const fs::path exercises = mod.path() / "exercises";
        if (!fs::is_directory(exercises)) {
            continue;
        }
        for (const auto& ex : fs::directory_iterator(exercises)) {
            if (!fs::exists(ex.path() / "exercise.json")) {
                continue;
            }
            auto spec = tkm::problem::loadSpec(ex.path());
            ASSERT_TRUE(spec.ok()) << ex.path() << ": " << spec.error().message;
            if (!spec->triton || spec->cases.empty()) {
                continue;
            }
            auto meta = tkm::problem::resolveMeta(*spec);
            ASSERT_TRUE(meta.ok()) << meta.error().message;
            auto inst = tkm::problem::instantiate(*spec, spec->cases[0], *meta, 0);
            ASSERT_TRUE(inst.ok()) << inst.error().message;
            std::vector<std::string> files = {spec->triton->solution};
            for (const auto& b : spec->triton->bugs) {
                files.push_back(b.file);
            }
            for (const std::string& file : files) {
                if (file.empty() || !file.ends_with(".py")) {
                    continue;
                }
                const std::string what = ex.path().filename().string() + "/" + file;
                auto src = tkm::runner::parseTritonSource(file, readFile(ex.path() / file));
                std::vector<tkm::triton::Diagnostic> diags;
                auto b = tkm::runner::bindTriton(*src, tkm::runner::learnerTarget(*spec->triton), *spec, *inst, diags);
                if (!b.ok() || !b->has_value()) {
                    continue; // a bug variant the binding refuses is the checker's and runner's business
                }
                const auto checked = tkm::triton::check((*b)->input);
                if (!checked.function) {
                    continue;
                }
                SCOPED_TRACE(what);
                lowerAndCompile(*checked.function, what);
                ++lowered;
            }
        }
    }
    EXPECT_GE(lowered, 20);
}

// ---- op families ----

struct Case
{
    const char* name;
    const char* source;
    std::vector<Type> types;
    std::map<std::string, ConstexprValue> cx;
};

TEST(LowerOps, EveryFamilyCompiles)
{
    const Type f32 = ptr(Elem::F32), f16 = ptr(Elem::F16), bf = ptr(Elem::BF16), i32p = ptr(Elem::I32);
    const Type n = scalar(Elem::I32);
    const std::vector<Case> cases = {
        {"reduce2d", R"(
import triton
import triton.language as tl
@triton.jit
def k(x, y, z, w, n, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    t = tl.load(x + r * C + c, mask=(r < n) & (c < C), other=0.0)
    tl.store(y + tl.arange(0, R), tl.sum(t, axis=1))
    tl.store(y + R + tl.arange(0, C), tl.max(t, axis=0))
    tl.store(z + tl.arange(0, R), tl.argmax(t, axis=1))
    tl.store(w, tl.sum(t))
)", {f32, f32, i32p, f32, n}, {{"R", I(32)}, {"C", I(64)}}},
        {"shapes", R"(
import triton
import triton.language as tl
@triton.jit
def k(x, y, n, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    t = tl.load(x + r * C + c)
    tl.store(y + tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :], tl.trans(t))
    u = tl.reshape(t, (R * C,))
    tl.store(y + tl.arange(0, R * C), tl.cumsum(u, axis=0))
    j = tl.join(u, u)
    tl.store(y + tl.arange(0, R * C)[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    v = tl.where(t > 0, t, -t)
    tl.store(y + r * C + c, v, mask=r < n)
)", {f32, f32, n}, {{"R", I(16)}, {"C", I(32)}}},
        {"halves", R"(
import triton
import triton.language as tl
@triton.jit
def k(x, y, z, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    m = o < n
    a = tl.load(x + o, mask=m, other=0.0)
    b = tl.load(y + o, mask=m)
    s = a * 2.0 + tl.exp(a.to(tl.float32)).to(tl.float16)
    tl.store(x + o, s, mask=m)
    tl.store(y + o, (b.to(tl.float32) * 0.5).to(tl.bfloat16), mask=m)
    tl.store(z + o, tl.sqrt(tl.abs(a.to(tl.float32))) + tl.sigmoid(b.to(tl.float32)), mask=m)
)", {f16, bf, f32, n}, {{"B", I(512)}}},
        {"ints", R"(
import triton
import triton.language as tl
@triton.jit
def k(x, y, n, B: tl.constexpr):
    o = tl.program_id(0) * B + tl.arange(0, B)
    m = o < n
    a = tl.load(x + o, mask=m, other=0)
    b = (a * 3) // 2 + a % 5 - (a >> 1) + (a << 2) ^ 7
    tl.store(y + o, tl.minimum(b, 100) | tl.maximum(a, -4), mask=m)
    tl.atomic_add(y + o % 4, a, mask=m)
    tl.atomic_max(y + 4 + o * 0, a, mask=m)
    old = tl.atomic_cas(y + 5, 0, 1)
    tl.store(y + 6, old)
)", {i32p, i32p, n}, {{"B", I(256)}}},
        {"loops", R"(
import triton
import triton.language as tl
@triton.jit
def k(x, y, n, B: tl.constexpr):
    acc = tl.zeros((B,), dtype=tl.float32)
    for i in range(0, n, B):
        o = i + tl.arange(0, B)
        acc += tl.load(x + o, mask=o < n, other=0.0)
    j = 0
    while j < 3:
        acc = acc * 0.5
        j += 1
    if n > 10:
        acc = acc + 1.0
    tl.store(y + tl.arange(0, B), acc)
    tl.atomic_add(y + B, tl.sum(acc, axis=0))
    tl.device_print("acc", acc)
    tl.device_assert(n > 0, "n must be positive")
)", {f32, f32, n}, {{"B", I(128)}}},
        {"dot", R"(
import triton
import triton.language as tl
@triton.jit
def k(a, b, c, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    nn = tl.arange(0, N)[None, :]
    kk = tl.arange(0, K)
    x = tl.load(a + m * K + kk[None, :])
    w = tl.load(b + kk[:, None] * N + nn)
    acc = tl.dot(x, w)
    acc = tl.dot(x, w, acc, input_precision="ieee")
    tl.store(c + m * N + nn, acc)
)", {f32, f32, f32}, {{"M", I(32)}, {"N", I(64)}, {"K", I(128)}}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        checkLowerCompile(c.source, input("k", c.types, c.cx), c.name);
    }
}

// ---- the fast paths: what the generated code must contain (and the floor must not) ----

/// Lowers `source`'s entry with the fast paths on or off and compiles it; the generated source.
std::string lowered(const std::string& source, const CheckInput& in, bool fast)
{
    const auto c = tkm::triton::test::compile(source, in);
    EXPECT_TRUE(c.checked.function.has_value()) << tkm::triton::test::diagnosticsText(c);
    if (!c.checked.function) {
        return {};
    }
    lower::LowerOptions o;
    o.kernelName = "tkm_kernel";
    o.fastPaths = fast;
    const lower::Lowered l = lower::lower(*c.checked.function, o);
    EXPECT_TRUE(l.diagnostics.empty());
    const auto r = nvrtc(l, o.kernelName);
    EXPECT_TRUE(r.ok) << r.firstError();
    return l.source;
}

const char* kRowSoftmax = R"(import triton
import triton.language as tl
@triton.jit
def k(x, y, nr, nc, R: tl.constexpr, C: tl.constexpr):
    r = tl.program_id(0) * R + tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    m = (r < nr) & (c < nc)
    t = tl.load(x + r * nc + c, mask=m, other=-float("inf"))
    z = t - tl.max(t, axis=1)[:, None]
    e = tl.exp(z)
    tl.store(y + r * nc + c, e / tl.sum(e, axis=1)[:, None], mask=m)
)";

TEST(LowerFastPaths, VectorAddTestsOneMaskSlotPerChunkAndNoContiguity)
{
    const std::string src = readFile(repoPath("content/02-vector-add/exercises/vector-add/solution.py"));
    const auto in = input("vector_add", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)},
                          {{"BLOCK_SIZE", I(1024)}});
    const std::string fast = lowered(src, in, true);
    EXPECT_NE(fast.find("tkm::vload<4>("), std::string::npos) << "16-byte loads";
    EXPECT_NE(fast.find("tkm::vstore<4>("), std::string::npos) << "16-byte stores";
    // offsets = pid * B + arange are contiguous: no per-element pointer comparison; `offsets < n` is decided
    // by the chunk's last lane
    EXPECT_EQ(fast.find("[j + q] == "), std::string::npos);
    EXPECT_NE(fast.find("fast = fast && v"), std::string::npos);
    EXPECT_NE(fast.find("[j + 3];"), std::string::npos);
    EXPECT_EQ(fast.find("[j + 0];"), std::string::npos);
    EXPECT_NE(fast.find("tkm::flat_exact<4, 128>("), std::string::npos) << "no wrap-around in the index math";
    const std::string floor = lowered(src, in, false);
    EXPECT_NE(floor.find("[j + q] == "), std::string::npos) << "the floor tests every element";
}

TEST(LowerFastPaths, SoftmaxReducesByShuffleAndDividesAsTriton)
{
    const std::string src = readFile(repoPath("content/04-fused-softmax/exercises/fused-softmax/solution.py"));
    const auto in = input("softmax_kernel", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32),
                                             scalar(Elem::I32), scalar(Elem::I32)},
                          {{"BLOCK_SIZE", I(4096)}}, 8);
    const std::string fast = lowered(src, in, true);
    EXPECT_NE(fast.find("__shfl_xor_sync(0xffffffffu, acc, off)"), std::string::npos) << "row max / sum butterfly";
    EXPECT_NE(fast.find("tkm::div_full("), std::string::npos) << "fp32 / as div.full.f32";
    EXPECT_NE(fast.find("div.full.f32 %0, %1, %2;"), std::string::npos);
    EXPECT_NE(fast.find("ex2.approx.f32"), std::string::npos) << "tl.exp as ex2.approx of x·log2e";
    const std::string floor = lowered(src, in, false);
    EXPECT_EQ(floor.find("tkm::div_full("), std::string::npos) << "the floor divides with IEEE rounding";
}

TEST(LowerFastPaths, RowReductionStaysInTheRowsThreadsAndItsBroadcastMovesNoData)
{
    for (int nw : {1, 8}) {
        for (const auto& [R, C] : std::vector<std::pair<int, int>>{{4, 256}, {16, 64}, {2, 2048}, {64, 16}}) {
            SCOPED_TRACE("R " + std::to_string(R) + " C " + std::to_string(C) + " num_warps " + std::to_string(nw));
            const auto in = input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32)},
                                  {{"R", I(R)}, {"C", I(C)}}, nw);
            const std::string fast = lowered(kRowSoftmax, in, true);
            EXPECT_NE(fast.find("float rowpart"), std::string::npos) << "per-thread row partials";
            EXPECT_NE(fast.find("= tkm::cast<float>(rowpart"), std::string::npos) << "x[:, None] read in place";
            EXPECT_EQ(fast.find("const int base = "), std::string::npos) << "no generic reducer";
            if (C / 4 > 1) {
                EXPECT_NE(fast.find("__shfl_xor_sync(0xffffffffu, rowpart"), std::string::npos);
            }
        }
    }
    const auto in = input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32)},
                          {{"R", I(4)}, {"C", I(256)}}, 4);
    EXPECT_NE(lowered(kRowSoftmax, in, false).find("const int base = "), std::string::npos) << "the floor";
}

TEST(LowerFastPaths, WideRowNormsAndOnlineSoftmaxStayOffTheFloor)
{
    // The module 04 and 08 kernels at their performance sizes: loops over column chunks with 8- or 16-byte loads,
    // each row statistic a full reduction by butterfly + one shared-memory word per warp, its broadcast a scalar;
    // no generic reducer and no staged exchange.
    const Type f = ptr(Elem::F32), i = scalar(Elem::I32), s = scalar(Elem::F32);
    const std::vector<std::pair<std::string, CheckInput>> cases = {
        {"content/04-fused-softmax/exercises/layer-norm/solution.py",
         input("layer_norm_fwd", {f, f, f, f, f, f, i, i, i, s}, {{"BLOCK_SIZE", I(256)}})},
        {"content/04-fused-softmax/exercises/online-softmax/solution.py",
         input("softmax_online", {f, f, i, i, i, i}, {{"BLOCK_SIZE", I(1024)}})},
        {"content/08-pytorch-integration/exercises/rmsnorm-forward/solution.py",
         input("rmsnorm_fwd", {f, f, f, f, i, i, i, s}, {{"BLOCK_SIZE", I(4096)}})},
        {"content/08-pytorch-integration/exercises/rmsnorm-backward/solution.py",
         input("rmsnorm_bwd", {f, f, f, f, f, f, i, i, i}, {{"BLOCK_SIZE", I(4096)}, {"ROWS_PER_PROGRAM", I(4)}})}};
    for (const auto& [file, in] : cases) {
        SCOPED_TRACE(file);
        const std::string fast = lowered(readFile(repoPath(file)), in, true);
        EXPECT_NE(fast.find("__shfl_xor_sync(0xffffffffu, acc, off)"), std::string::npos) << "butterfly";
        EXPECT_NE(fast.find("tkm::vload<"), std::string::npos) << "vector loads";
        EXPECT_EQ(fast.find("const int base = "), std::string::npos) << "no generic reducer";
        EXPECT_EQ(fast.find("e >= c && e < c + "), std::string::npos) << "no staged exchange";
        EXPECT_EQ(fast.find("[j + q] == "), std::string::npos) << "contiguous chunks need no element test";
    }
    const std::string floor = lowered(readFile(repoPath(cases[0].first)), cases[0].second, false);
    EXPECT_NE(floor.find("[j + q] == "), std::string::npos) << "the floor tests every element of a chunk";
}

TEST(LowerFastPaths, AxisAnalysisSeesContiguousOffsetsAndUniformBounds)
{
    const std::string src = readFile(repoPath("content/02-vector-add/exercises/vector-add/solution.py"));
    const auto c = tkm::triton::test::compile(
        src, input("vector_add", {ptr(Elem::F32), ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)},
                   {{"BLOCK_SIZE", I(1024)}}));
    ASSERT_TRUE(c.checked.function.has_value());
    const ir::Function& f = *c.checked.function;
    const auto axes = lower::analyseAxes(f);
    bool sawOffsets = false, sawPointers = false;
    for (const ir::Op& o : f.body.ops) {
        if (o.results.empty()) {
            continue;
        }
        const lower::AxisInfo& a = axes[static_cast<size_t>(o.results[0])];
        if (o.kind == ir::OpKind::Arange) {
            EXPECT_EQ(a.contig, 1024);
            EXPECT_EQ(a.constancy, 1);
        } else if (o.kind == ir::OpKind::Add && f.typeOf(o.results[0]).elem == Elem::I32 &&
                   f.typeOf(o.results[0]).shape == std::vector<int64_t>{1024}) {
            sawOffsets = true;
            EXPECT_EQ(a.contig, 1024) << "pid * BLOCK_SIZE + arange";
            EXPECT_EQ(a.divis, 1024);
        } else if (o.kind == ir::OpKind::AddPtr) {
            sawPointers = true;
            EXPECT_EQ(a.contig, 1024);
        } else if (o.kind == ir::OpKind::Splat) {
            EXPECT_EQ(a.constancy, 1024);
        }
    }
    EXPECT_TRUE(sawOffsets);
    EXPECT_TRUE(sawPointers);
}

TEST(LowerFastPaths, SpecialisedColumnLoopTakesWholeChunkAccessesAndUnrolls)
{
    // Layer norm at its performance size with Triton's jit specialisation (pointers 16-byte aligned, strides and
    // N divisible by 16): the loop index is divisible by BLOCK_SIZE, `cols < N` is constant over each 2-float
    // chunk, so every load and store is one vector access under one predicate (no alignment test, no scalar
    // path), and the dot-free column loops are left to the compiler to unroll (loads of several iterations in
    // flight). Unspecialised, the alignment is still tested at run time; the floor keeps its loops rolled.
    const Type f = ptr(Elem::F32), i = scalar(Elem::I32), s = scalar(Elem::F32);
    CheckInput in = input("layer_norm_fwd", {f, f, f, f, f, f, i, i, i, s}, {{"BLOCK_SIZE", I(256)}});
    const std::string src = readFile(repoPath("content/04-fused-softmax/exercises/layer-norm/solution.py"));
    const std::string plain = lowered(src, in, true);
    for (const char* p : {"x_ptr", "y_ptr", "w_ptr", "b_ptr", "mean_ptr", "rstd_ptr", "stride_x", "stride_y", "N"}) {
        in.specialisation[p] = "16";
    }
    const std::string fast = lowered(src, in, true);
    EXPECT_EQ(fast.find("bool fast"), std::string::npos) << "whole-chunk accesses only";
    EXPECT_NE(fast.find("tkm::vload<2>"), std::string::npos);
    EXPECT_NE(fast.find(") tkm::vstore<2>("), std::string::npos) << "one predicated vector store";
    EXPECT_EQ(fast.find("#pragma unroll 1"), std::string::npos) << "column loops unrolled";
    EXPECT_EQ(plain.find("#pragma unroll 1"), std::string::npos);
    EXPECT_NE(plain.find("bool fast = ((size_t)"), std::string::npos) << "alignment tested without the hint";
    EXPECT_NE(lowered(src, in, false).find("#pragma unroll 1"), std::string::npos) << "the floor";

    const auto c = tkm::triton::test::compile(src, in);
    ASSERT_TRUE(c.checked.function.has_value());
    const auto axes = lower::analyseAxes(*c.checked.function);
    int masks = 0;
    for (const ir::Op& o : c.checked.function->body.ops) {
        if (o.kind == ir::OpKind::For) {
            EXPECT_EQ(axes[static_cast<size_t>(o.regions[0]->args[0])].divis, 256) << "range(0, N, 256)";
            for (const ir::Op& b : o.regions[0]->ops) {
                if (b.kind == ir::OpKind::Lt) {
                    ++masks;
                    EXPECT_EQ(axes[static_cast<size_t>(b.results[0])].constancy, 16) << "gcd(256, 256, 16)";
                }
            }
        }
    }
    EXPECT_EQ(masks, 3);
}

TEST(LowerFastPaths, DotLoopStaysRolled)
{
    const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                            "def k(a_ptr, c_ptr, K):\n"
                            "    offs = tl.arange(0, 16)\n"
                            "    acc = tl.zeros([16, 16], dtype=tl.float32)\n"
                            "    for k0 in range(0, K, 16):\n"
                            "        a = tl.load(a_ptr + k0 + offs[:, None] * 16 + offs[None, :])\n"
                            "        acc += tl.dot(a, a)\n"
                            "    tl.store(c_ptr + offs[:, None] * 16 + offs[None, :], acc)\n";
    const auto in = input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32)});
    EXPECT_NE(lowered(src, in, true).find("#pragma unroll 1"), std::string::npos);
}

TEST(LowerFastPaths, RowTimesUnhintedWidthIsNotProvenAligned)
{
    // x + r * nc + c: r = pid * R + arange(R)[:, None] holds consecutive rows, so r * nc is a multiple of 16 only
    // when nc is (Triton's rules for [:, None] and `*`); without that hint each chunk's alignment is tested at run
    // time (an H200 run of test_triton_gpu faulted on a misaligned vector load before this rule).
    const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\n"
                            "def k(x, y, nr, nc, R: tl.constexpr, C: tl.constexpr):\n"
                            "    r = tl.program_id(0) * R + tl.arange(0, R)[:, None]\n"
                            "    c = tl.arange(0, C)[None, :]\n"
                            "    t = tl.load(x + r * nc + c, mask=(r < nr) & (c < nc), other=0.0)\n"
                            "    cc = tl.arange(0, C)\n"
                            "    tl.store(y + tl.program_id(0) * C + cc, tl.sum(t, axis=0), mask=cc < nc)\n";
    CheckInput in = input("k", {ptr(Elem::F32), ptr(Elem::F32), scalar(Elem::I32), scalar(Elem::I32)},
                          {{"R", I(16)}, {"C", I(128)}});
    in.specialisation = {{"x", "16"}, {"y", "16"}};
    const std::string unhinted = lowered(src, in, true);
    EXPECT_NE(unhinted.find("bool fast = ((size_t)"), std::string::npos) << "the load's alignment is tested";
    in.specialisation["nc"] = "16";
    const std::string hinted = lowered(src, in, true);
    EXPECT_EQ(hinted.find("bool fast"), std::string::npos) << "rows 16-aligned, mask constant over 16: one access";
    EXPECT_NE(hinted.find("tkm::vload<4>"), std::string::npos);
}

// ---- internal errors name the Triton line ----

TEST(LowerErrors, AnOpTheCodeGeneratorRefusesNamesTheTritonLineInNvrtcsMessage)
{
    ir::Function f;
    f.name = "bad";
    ir::KernelParam p;
    p.name = "x";
    p.type = ptr(Elem::I32);
    p.value = f.addValue(p.type, "x");
    f.params.push_back(p);
    const ir::ValueId one = f.addValue(scalar(Elem::I32), "one");
    ir::Op c;
    c.kind = ir::OpKind::Constant;
    c.results = {one};
    c.ints = {1};
    c.range.begin.line = 4;
    f.body.ops.push_back(std::move(c));
    const ir::ValueId old = f.addValue(scalar(Elem::I32), "old");
    ir::Op a;
    a.kind = ir::OpKind::AtomicRMW;
    a.operands = {p.value, one};
    a.results = {old};
    a.text = "nand"; // no such atomic in CUDA or in our runtime
    a.range.begin.line = 7;
    a.range.begin.column = 5;
    f.body.ops.push_back(std::move(a));

    lower::LowerOptions o;
    o.kernelName = "bad";
    const lower::Lowered l = lower::lower(f, o);
    ASSERT_EQ(l.diagnostics.size(), 1u);
    EXPECT_EQ(l.diagnostics[0].range.begin.line, 7);
    EXPECT_NE(l.diagnostics[0].message.find("internal error"), std::string::npos);
    const auto r = nvrtc(l, "bad");
    EXPECT_FALSE(r.ok);
    ASSERT_FALSE(r.diagnostics.empty()) << r.log;
    EXPECT_EQ(r.diagnostics[0].file, "kernel.py") << r.log;
    EXPECT_EQ(r.diagnostics[0].line, 7) << r.log;
    EXPECT_NE(r.diagnostics[0].message.find("internal error of the Triton compiler"), std::string::npos) << r.log;
}

} // namespace
