// Triton's tutorial kernels end to end without a GPU: the files in tests/data/triton/tutorials (our own kernels
// covering every construct of tutorials 01, 02, 03, 05 and 06, with the imports and host code real files have)
// are parsed, checked with the constexprs a launch binds, run on the CPU interpreter over ragged shapes with
// seeded random inputs, and compared with float64 references computed here. fp16 inputs are rounded first and
// the references read the rounded values, so only the kernel's own arithmetic is under test.

#include "tests/triton/triton_test_util.h"

#include "engine/triton/interp/interpreter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using tkm::triton::CheckInput;
using tkm::triton::ConstexprValue;
using tkm::triton::ir::Elem;
using tkm::triton::ir::Type;
namespace interp = tkm::triton::interp;
namespace ast = tkm::triton::ast;

// ---- files ----

fs::path tutorialPath(const std::string& name)
{
    if (const char* d = std::getenv("TKM_TEST_DATA")) {
        return fs::path(d) / "triton" / "tutorials" / name;
    }
    return fs::path(TKM_SOURCE_DIR) / "tests" / "data" / "triton" / "tutorials" / name;
}

std::string readTutorial(const std::string& name)
{
    std::ifstream in(tutorialPath(name), std::ios::binary);
    EXPECT_TRUE(in.good()) << "cannot read " << tutorialPath(name);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// ---- fp16 on the host: round to nearest even, and the exact value of the bits ----

uint16_t floatToHalf(float f)
{
    uint32_t x = 0;
    std::memcpy(&x, &f, sizeof x);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int32_t biased = static_cast<int32_t>((x >> 23) & 0xffu);
    uint32_t mant = x & 0x7fffffu;
    if (biased == 0xff) {
        return static_cast<uint16_t>(sign | 0x7c00u | (mant != 0 ? 0x200u : 0u));
    }
    const int32_t e = biased - 127 + 15;
    if (e >= 31) {
        return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (e <= 0) { // subnormal half (or zero): units of 2^-24
        if (e < -10) {
            return static_cast<uint16_t>(sign);
        }
        mant |= 0x800000u;
        const int shift = 14 - e;
        uint32_t h = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1u);
        const uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) {
            ++h;
        }
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
        ++h; // a carry into the exponent is the right result (up to inf)
    }
    return static_cast<uint16_t>(sign | h);
}

double halfToDouble(uint16_t h)
{
    const double sign = (h & 0x8000u) ? -1.0 : 1.0;
    const int e = (h >> 10) & 0x1f;
    const int mant = h & 0x3ff;
    if (e == 0) {
        return sign * std::ldexp(mant, -24);
    }
    if (e == 31) {
        return mant != 0 ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
    }
    return sign * std::ldexp(1024 + mant, e - 25);
}

// ---- a launch: host buffers, runtime arguments in signature order, and their Triton types ----

struct Storage
{
    std::string name;
    Elem elem = Elem::F32;
    std::vector<std::byte> bytes;
    int64_t elements = 0;
};

class Launch
{
public:
    /// Adds a buffer holding `values` rounded to `elem` and passes a pointer to it; returns the buffer index.
    int buffer(const std::string& name, Elem elem, const std::vector<double>& values)
    {
        Storage s{name, elem, {}, static_cast<int64_t>(values.size())};
        s.bytes.resize(values.size() * static_cast<size_t>(tkm::triton::ir::elemBytes(elem)));
        for (size_t i = 0; i < values.size(); ++i) {
            write(s, i, values[i]);
        }
        m_storage.push_back(std::move(s));
        const int index = static_cast<int>(m_storage.size()) - 1;
        interp::ArgValue a;
        a.buffer = index;
        m_args.push_back(a);
        m_types.push_back(Type{Elem::Ptr, {}, elem});
        return index;
    }
    /// An output buffer of `n` elements, filled with NaN so that an element nobody wrote fails the compare.
    int output(const std::string& name, Elem elem, int64_t n)
    {
        return buffer(name, elem, std::vector<double>(static_cast<size_t>(n), std::nan("")));
    }
    void i32(int64_t v)
    {
        interp::ArgValue a;
        a.intValue = v;
        m_args.push_back(a);
        m_types.push_back(Type{Elem::I32, {}, Elem::F32});
    }
    void f32(double v)
    {
        interp::ArgValue a;
        a.floatValue = static_cast<double>(static_cast<float>(v));
        m_args.push_back(a);
        m_types.push_back(Type{Elem::F32, {}, Elem::F32});
    }
    /// Every element of buffer `index`, widened to double.
    std::vector<double> read(int index) const
    {
        const Storage& s = m_storage[static_cast<size_t>(index)];
        std::vector<double> out(static_cast<size_t>(s.elements));
        for (size_t i = 0; i < out.size(); ++i) {
            out[i] = readOne(s, i);
        }
        return out;
    }
    /// The values a kernel sees in buffer `index` (its inputs after rounding to the element type).
    std::vector<double> rounded(int index) const { return read(index); }

    const std::vector<Type>& types() const { return m_types; }
    const std::vector<interp::ArgValue>& args() const { return m_args; }
    std::vector<interp::HostBuffer> hostBuffers()
    {
        std::vector<interp::HostBuffer> out;
        for (Storage& s : m_storage) {
            out.push_back(interp::HostBuffer{s.name, s.elem, s.bytes.data(), s.elements});
        }
        return out;
    }

private:
    static void write(Storage& s, size_t i, double v)
    {
        std::byte* p = s.bytes.data() + i * static_cast<size_t>(tkm::triton::ir::elemBytes(s.elem));
        if (s.elem == Elem::F16) {
            const uint16_t h = floatToHalf(static_cast<float>(v));
            std::memcpy(p, &h, sizeof h);
        } else if (s.elem == Elem::F32) {
            const float f = static_cast<float>(v);
            std::memcpy(p, &f, sizeof f);
        } else if (s.elem == Elem::I32) {
            const int32_t n = static_cast<int32_t>(v);
            std::memcpy(p, &n, sizeof n);
        } else {
            std::memcpy(p, &v, sizeof v); // F64
        }
    }
    static double readOne(const Storage& s, size_t i)
    {
        const std::byte* p = s.bytes.data() + i * static_cast<size_t>(tkm::triton::ir::elemBytes(s.elem));
        if (s.elem == Elem::F16) {
            uint16_t h = 0;
            std::memcpy(&h, p, sizeof h);
            return halfToDouble(h);
        }
        if (s.elem == Elem::F32) {
            float f = 0;
            std::memcpy(&f, p, sizeof f);
            return f;
        }
        if (s.elem == Elem::I32) {
            int32_t n = 0;
            std::memcpy(&n, p, sizeof n);
            return n;
        }
        double d = 0;
        std::memcpy(&d, p, sizeof d);
        return d;
    }

    std::vector<Storage> m_storage;
    std::vector<interp::ArgValue> m_args;
    std::vector<Type> m_types;
};

/// What to compile: the file, its entry and the launch's constexprs and options.
struct KernelSpec
{
    std::string file;
    std::string entry;
    std::map<std::string, ConstexprValue> constexprs;
    int numWarps = 4;
    int numStages = 3;
};

/// Parses, checks and runs `k` over `grid` with `launch`'s arguments; fails the test on any diagnostic error or
/// fault, with the diagnostics or the fault's sentence.
void compileAndRun(const KernelSpec& k, Launch& launch, std::array<int64_t, 3> grid)
{
    CheckInput in;
    in.entry = k.entry;
    in.runtimeParamTypes = launch.types();
    in.constexprs = k.constexprs;
    in.numWarps = k.numWarps;
    in.numStages = k.numStages;
    const auto compiled = tkm::triton::test::compile(readTutorial(k.file), in);
    ASSERT_FALSE(tkm::triton::hasErrors(compiled.parsed.diagnostics)) << tkm::triton::test::diagnosticsText(compiled);
    ASSERT_TRUE(compiled.checked.function.has_value())
        << k.file << ": " << k.entry << "\n" << tkm::triton::test::diagnosticsText(compiled);
    const auto& f = *compiled.checked.function;
    ASSERT_EQ(f.params.size(), launch.args().size()) << "runtime parameters of " << k.entry;

    interp::RunOptions options;
    options.grid = grid;
    options.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    auto buffers = launch.hostBuffers();
    const auto result = interp::run(f, launch.args(), buffers, options);
    ASSERT_FALSE(result.fault.has_value()) << k.file << ": " << result.fault->message;
    EXPECT_EQ(result.programsRun, grid[0] * grid[1] * grid[2]);
}

/// Expects |got - want| <= atol + rtol * |want| everywhere (NaN never passes); reports the first few misses.
void expectClose(const std::vector<double>& got, const std::vector<double>& want, double atol, double rtol,
                 const std::string& what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    int64_t bad = 0;
    std::ostringstream first;
    for (size_t i = 0; i < got.size(); ++i) {
        const double err = std::abs(got[i] - want[i]);
        if (!(err <= atol + rtol * std::abs(want[i]))) {
            if (++bad <= 5) {
                first << "  [" << i << "] got " << got[i] << " want " << want[i] << "\n";
            }
        }
    }
    EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << got.size() << " elements out of tolerance\n"
                      << first.str();
}

std::vector<double> normal(size_t n, uint64_t seed, double mean = 0.0, double stddev = 1.0)
{
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> d(mean, stddev);
    std::vector<double> v(n);
    for (double& x : v) {
        x = d(rng);
    }
    return v;
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// ---- 01: vector add ----

class VectorAdd : public ::testing::TestWithParam<int64_t>
{
};

TEST_P(VectorAdd, RaggedSizesMatchTheSum)
{
    const int64_t n = GetParam();
    const int64_t block = 1024;
    Launch l;
    const int a = l.buffer("a", Elem::F32, normal(static_cast<size_t>(n), 1));
    const int b = l.buffer("b", Elem::F32, normal(static_cast<size_t>(n), 2, 0.0, 3.0));
    const int c = l.output("c", Elem::F32, n);
    l.i32(n);
    ASSERT_NO_FATAL_FAILURE(compileAndRun(
        {"01_vector_add.py", "vec_add_kernel", {{"BLOCK_SIZE", ConstexprValue::ofInt(block)}}}, l,
        {cdiv(n, block), 1, 1}));
    const auto av = l.rounded(a);
    const auto bv = l.rounded(b);
    std::vector<double> want(av.size());
    for (size_t i = 0; i < want.size(); ++i) {
        want[i] = av[i] + bv[i];
    }
    expectClose(l.read(c), want, 1e-6, 1e-6, "vector add n=" + std::to_string(n));
}

INSTANTIATE_TEST_SUITE_P(Tutorial01, VectorAdd, ::testing::Values(1, 1000, 4097));

// ---- 02: fused softmax, one row per program and persistent ----

std::vector<double> softmaxReference(const std::vector<double>& x, int64_t rows, int64_t cols, int64_t xStride,
                                     int64_t yStride)
{
    std::vector<double> y(static_cast<size_t>(rows * yStride), std::nan(""));
    for (int64_t r = 0; r < rows; ++r) {
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t c = 0; c < cols; ++c) {
            m = std::max(m, x[static_cast<size_t>(r * xStride + c)]);
        }
        double s = 0;
        for (int64_t c = 0; c < cols; ++c) {
            s += std::exp(x[static_cast<size_t>(r * xStride + c)] - m);
        }
        for (int64_t c = 0; c < cols; ++c) {
            y[static_cast<size_t>(r * yStride + c)] = std::exp(x[static_cast<size_t>(r * xStride + c)] - m) / s;
        }
    }
    return y;
}

/// Compares only the logical elements of a strided matrix (padding stays as the kernel left it).
void expectRowsClose(const std::vector<double>& got, const std::vector<double>& want, int64_t rows, int64_t cols,
                     int64_t stride, double atol, double rtol, const std::string& what)
{
    std::vector<double> g;
    std::vector<double> w;
    for (int64_t r = 0; r < rows; ++r) {
        for (int64_t c = 0; c < cols; ++c) {
            g.push_back(got[static_cast<size_t>(r * stride + c)]);
            w.push_back(want[static_cast<size_t>(r * stride + c)]);
        }
    }
    expectClose(g, w, atol, rtol, what);
}

TEST(Tutorial02, OneRowPerProgramOnAPaddedInput)
{
    const int64_t rows = 7, cols = 1000, xStride = 1003, yStride = 1000;
    Launch l;
    const int y = l.output("y", Elem::F32, rows * yStride);
    const int x = l.buffer("x", Elem::F32, normal(static_cast<size_t>(rows * xStride), 3, 0.0, 4.0));
    l.i32(xStride);
    l.i32(yStride);
    l.i32(cols);
    ASSERT_NO_FATAL_FAILURE(compileAndRun(
        {"02_fused_softmax.py", "softmax_one_row", {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)}}, 8}, l,
        {rows, 1, 1}));
    expectRowsClose(l.read(y), softmaxReference(l.rounded(x), rows, cols, xStride, yStride), rows, cols, yStride,
                    1e-6, 1e-5, "softmax 7x1000");
}

TEST(Tutorial02, PersistentProgramsStrideOverTheRows)
{
    // 3 programs for 7 rows: program 0 takes rows 0, 3, 6; program 1 rows 1, 4; program 2 rows 2, 5.
    const int64_t rows = 7, cols = 1000, stride = 1000;
    Launch l;
    const int y = l.output("y", Elem::F32, rows * stride);
    const int x = l.buffer("x", Elem::F32, normal(static_cast<size_t>(rows * stride), 4, -1.0, 5.0));
    l.i32(stride);
    l.i32(stride);
    l.i32(rows);
    l.i32(cols);
    ASSERT_NO_FATAL_FAILURE(compileAndRun({"02_fused_softmax.py",
                                           "softmax_persistent",
                                           {{"BLOCK_SIZE", ConstexprValue::ofInt(1024)},
                                            {"num_stages", ConstexprValue::ofInt(2)}},
                                           8},
                                          l, {3, 1, 1}));
    expectRowsClose(l.read(y), softmaxReference(l.rounded(x), rows, cols, stride, stride), rows, cols, stride, 1e-6,
                    1e-5, "persistent softmax 7x1000");
}

// ---- 03: matmul with the autotune decorator's configs ----

/// One triton.Config of the decorator: its meta dict and num_warps / num_stages.
struct TuneConfig
{
    std::map<std::string, int64_t> meta;
    int numWarps = 4;
    int numStages = 3;
};

/// Reads `configs=[triton.Config({...}, num_warps=…, num_stages=…), …]` of @triton.autotune from the tree.
std::vector<TuneConfig> autotuneConfigs(const ast::FunctionDef& fn)
{
    std::vector<TuneConfig> out;
    const ast::Decorator* d = fn.decorator("triton.autotune");
    if (d == nullptr || d->expr == nullptr || d->expr->kind != ast::ExprKind::Call) {
        return out;
    }
    for (const ast::Keyword& kw : d->expr->keywords) {
        if (kw.name != "configs" || kw.value == nullptr || kw.value->kind != ast::ExprKind::List) {
            continue;
        }
        for (const auto& call : kw.value->elts) {
            if (call->kind != ast::ExprKind::Call || call->args.empty() || call->args[0]->kind != ast::ExprKind::Dict) {
                continue;
            }
            TuneConfig c;
            const ast::Expr& dict = *call->args[0];
            for (size_t i = 0; i < dict.elts.size(); ++i) {
                c.meta[dict.elts[i]->constant.strValue] = dict.values[i]->constant.intValue;
            }
            for (const ast::Keyword& opt : call->keywords) {
                if (opt.name == "num_warps") {
                    c.numWarps = static_cast<int>(opt.value->constant.intValue);
                } else if (opt.name == "num_stages") {
                    c.numStages = static_cast<int>(opt.value->constant.intValue);
                }
            }
            out.push_back(c);
        }
    }
    return out;
}

class Matmul : public ::testing::TestWithParam<std::string>
{
};

TEST_P(Matmul, EveryAutotuneConfigOnARaggedProblem)
{
    const std::string activation = GetParam();
    const int64_t M = 70, N = 50, K = 45;
    const auto parsed = tkm::triton::parse(readTutorial("03_matmul.py"));
    ASSERT_FALSE(tkm::triton::hasErrors(parsed.diagnostics));
    const ast::FunctionDef* fn = parsed.module.function("matmul_kernel");
    ASSERT_NE(fn, nullptr);
    const auto configs = autotuneConfigs(*fn);
    ASSERT_EQ(configs.size(), 3u) << "the decorator's configs, read from the tree";

    for (const TuneConfig& cfg : configs) {
        Launch l;
        const int a = l.buffer("a", Elem::F16, normal(static_cast<size_t>(M * K), 5));
        const int b = l.buffer("b", Elem::F16, normal(static_cast<size_t>(K * N), 6, 0.0, 0.5));
        const int c = l.output("c", Elem::F16, M * N);
        for (int64_t v : {M, N, K, K, int64_t{1}, N, int64_t{1}, N, int64_t{1}}) {
            l.i32(v);
        }
        KernelSpec k{"03_matmul.py", "matmul_kernel", {}, cfg.numWarps, cfg.numStages};
        for (const auto& [name, value] : cfg.meta) {
            k.constexprs[name] = ConstexprValue::ofInt(value);
        }
        k.constexprs["ACTIVATION"] = ConstexprValue::ofStr(activation);
        const int64_t programs = cdiv(M, cfg.meta.at("BLOCK_SIZE_M")) * cdiv(N, cfg.meta.at("BLOCK_SIZE_N"));
        ASSERT_NO_FATAL_FAILURE(compileAndRun(k, l, {programs, 1, 1}));

        const auto av = l.rounded(a);
        const auto bv = l.rounded(b);
        std::vector<double> want(static_cast<size_t>(M * N));
        for (int64_t i = 0; i < M; ++i) {
            for (int64_t j = 0; j < N; ++j) {
                double s = 0;
                for (int64_t kk = 0; kk < K; ++kk) {
                    s += av[static_cast<size_t>(i * K + kk)] * bv[static_cast<size_t>(kk * N + j)];
                }
                if (activation == "leaky_relu" && s < 0) {
                    s *= 0.01;
                }
                want[static_cast<size_t>(i * N + j)] = s;
            }
        }
        // fp16 output: one rounding (2^-11 relative) on top of an fp32 sum of 45 exact fp16 products.
        expectClose(l.read(c), want, 2e-3, 2e-3,
                    "matmul 70x50x45 BLOCK_SIZE_M=" + std::to_string(cfg.meta.at("BLOCK_SIZE_M")) + " activation '" +
                        activation + "'");
    }
}

INSTANTIATE_TEST_SUITE_P(Tutorial03, Matmul, ::testing::Values(std::string(""), std::string("leaky_relu")));

// ---- 05: layer norm forward ----

TEST(Tutorial05, LayerNormForwardStoresYMeanAndRstd)
{
    const int64_t M = 9, N = 777, stride = 781;
    const double eps = 1e-5;
    Launch l;
    const int x = l.buffer("X", Elem::F16, normal(static_cast<size_t>(M * stride), 7, 0.5, 2.0));
    const int y = l.output("Y", Elem::F16, M * stride);
    const int w = l.buffer("W", Elem::F16, normal(static_cast<size_t>(N), 8, 1.0, 0.5));
    const int b = l.buffer("B", Elem::F16, normal(static_cast<size_t>(N), 9));
    const int mean = l.output("Mean", Elem::F32, M);
    const int rstd = l.output("Rstd", Elem::F32, M);
    l.i32(stride);
    l.i32(N);
    l.f32(eps);
    ASSERT_NO_FATAL_FAILURE(compileAndRun(
        {"05_layer_norm.py", "_layer_norm_fwd_fused", {{"BLOCK_SIZE", ConstexprValue::ofInt(256)}}, 1}, l,
        {M, 1, 1}));

    const auto xv = l.rounded(x);
    const auto wv = l.rounded(w);
    const auto bv = l.rounded(b);
    std::vector<double> wantY(static_cast<size_t>(M * stride), 0.0);
    std::vector<double> wantMean(static_cast<size_t>(M));
    std::vector<double> wantRstd(static_cast<size_t>(M));
    for (int64_t r = 0; r < M; ++r) {
        double s = 0;
        for (int64_t c = 0; c < N; ++c) {
            s += xv[static_cast<size_t>(r * stride + c)];
        }
        const double mu = s / static_cast<double>(N);
        double v = 0;
        for (int64_t c = 0; c < N; ++c) {
            const double d = xv[static_cast<size_t>(r * stride + c)] - mu;
            v += d * d;
        }
        const double rs = 1.0 / std::sqrt(v / static_cast<double>(N) + eps);
        wantMean[static_cast<size_t>(r)] = mu;
        wantRstd[static_cast<size_t>(r)] = rs;
        for (int64_t c = 0; c < N; ++c) {
            wantY[static_cast<size_t>(r * stride + c)] =
                (xv[static_cast<size_t>(r * stride + c)] - mu) * rs * wv[static_cast<size_t>(c)] +
                bv[static_cast<size_t>(c)];
        }
    }
    expectRowsClose(l.read(y), wantY, M, N, stride, 4e-3, 2e-3, "layer norm Y 9x777");
    expectClose(l.read(mean), wantMean, 1e-5, 1e-5, "layer norm Mean");
    expectClose(l.read(rstd), wantRstd, 1e-5, 1e-4, "layer norm Rstd");
}

// ---- 06: attention forward with block pointers ----

class Attention : public ::testing::TestWithParam<bool>
{
};

TEST_P(Attention, BlockPointersAndStagesOnARaggedContext)
{
    const bool causal = GetParam();
    const int64_t Z = 1, H = 2, N = 100, D = 64, blockM = 64, blockN = 32;
    const double smScale = 0.3;
    const int64_t numel = Z * H * N * D;
    Launch l;
    const int q = l.buffer("Q", Elem::F16, normal(static_cast<size_t>(numel), 10));
    const int k = l.buffer("K", Elem::F16, normal(static_cast<size_t>(numel), 11));
    const int v = l.buffer("V", Elem::F16, normal(static_cast<size_t>(numel), 12));
    l.f32(smScale);
    const int lse = l.output("M", Elem::F32, Z * H * N);
    const int o = l.output("Out", Elem::F16, numel);
    for (int t = 0; t < 4; ++t) { // Q, K, V, Out: [Z, H, N, D] contiguous
        for (int64_t s : {H * N * D, N * D, D, int64_t{1}}) {
            l.i32(s);
        }
    }
    l.i32(Z);
    l.i32(H);
    KernelSpec spec{"06_fused_attention.py",
                    "_attn_fwd",
                    {{"N_CTX", ConstexprValue::ofInt(N)},
                     {"HEAD_DIM", ConstexprValue::ofInt(D)},
                     {"BLOCK_M", ConstexprValue::ofInt(blockM)},
                     {"BLOCK_N", ConstexprValue::ofInt(blockN)},
                     {"STAGE", ConstexprValue::ofInt(causal ? 3 : 1)}},
                    4,
                    3};
    ASSERT_NO_FATAL_FAILURE(compileAndRun(spec, l, {cdiv(N, blockM), Z * H, 1}));

    const auto qv = l.rounded(q);
    const auto kv = l.rounded(k);
    const auto vv = l.rounded(v);
    std::vector<double> wantO(static_cast<size_t>(numel));
    std::vector<double> wantLse(static_cast<size_t>(Z * H * N));
    for (int64_t head = 0; head < Z * H; ++head) {
        const size_t base = static_cast<size_t>(head * N * D);
        for (int64_t i = 0; i < N; ++i) {
            const int64_t keys = causal ? i + 1 : N;
            std::vector<double> s(static_cast<size_t>(keys));
            double m = -std::numeric_limits<double>::infinity();
            for (int64_t j = 0; j < keys; ++j) {
                double dot = 0;
                for (int64_t d = 0; d < D; ++d) {
                    dot += qv[base + static_cast<size_t>(i * D + d)] * kv[base + static_cast<size_t>(j * D + d)];
                }
                s[static_cast<size_t>(j)] = dot * static_cast<double>(static_cast<float>(smScale));
                m = std::max(m, s[static_cast<size_t>(j)]);
            }
            double den = 0;
            for (double& sj : s) {
                sj = std::exp(sj - m);
                den += sj;
            }
            for (int64_t d = 0; d < D; ++d) {
                double acc = 0;
                for (int64_t j = 0; j < keys; ++j) {
                    acc += s[static_cast<size_t>(j)] * vv[base + static_cast<size_t>(j * D + d)];
                }
                wantO[base + static_cast<size_t>(i * D + d)] = acc / den;
            }
            // The kernel stores the log-sum-exp in base 2: log2(sum_j exp(s_j)).
            wantLse[static_cast<size_t>(head * N + i)] = (m + std::log(den)) / std::log(2.0);
        }
    }
    // P is rounded to fp16 before the P V dot (2^-11 relative per weight), then the output to fp16.
    const std::string what = causal ? "causal attention N=100" : "attention N=100";
    expectClose(l.read(o), wantO, 5e-3, 5e-3, what + " Out");
    expectClose(l.read(lse), wantLse, 1e-3, 1e-4, what + " M (log-sum-exp)");
}

INSTANTIATE_TEST_SUITE_P(Tutorial06, Attention, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "causal" : "full"; });

} // namespace
