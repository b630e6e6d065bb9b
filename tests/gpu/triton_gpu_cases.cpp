// The kernels of the GPU differential test: see triton_gpu_cases.h.

#include "tests/gpu/triton_gpu_cases.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tkm::triton::gputest {

using tkm::triton::ConstexprValue;

// ---- host fp16 / bf16 ----

uint16_t toHalf(float f)
{
    uint32_t x = 0;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int32_t e = static_cast<int32_t>((x >> 23) & 0xffu) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (e >= 31) {
        return static_cast<uint16_t>(sign | 0x7c00u);
    }
    if (e <= 0) {
        if (e < -10) {
            return static_cast<uint16_t>(sign);
        }
        mant |= 0x800000u;
        const int shift = 14 - e;
        uint32_t h = mant >> shift;
        const uint32_t rem = mant & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u))) {
            ++h;
        }
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
    const uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) {
        ++h;
    }
    return static_cast<uint16_t>(sign | h);
}

double fromHalf(uint16_t h)
{
    const int e = (h >> 10) & 0x1f;
    const int m = h & 0x3ff;
    const double s = (h & 0x8000) ? -1.0 : 1.0;
    if (e == 0) {
        return s * std::ldexp(m, -24);
    }
    if (e == 31) {
        return m ? NAN : s * INFINITY;
    }
    return s * std::ldexp(1024 + m, e - 25);
}

uint16_t toBf16(float f)
{
    uint32_t x = 0;
    std::memcpy(&x, &f, 4);
    x += 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>(x >> 16);
}

double fromBf16(uint16_t b)
{
    const uint32_t x = static_cast<uint32_t>(b) << 16;
    float f = 0;
    std::memcpy(&f, &x, 4);
    return f;
}

void Buf::fill(std::mt19937& rng, bool ints)
{
    bytes.assign(static_cast<size_t>(n * ir::elemBytes(elem)), std::byte{0});
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_int_distribution<int> id(-50, 50);
    for (int64_t i = 0; i < n; ++i) {
        std::byte* p = bytes.data() + i * ir::elemBytes(elem);
        const float v = ints ? static_cast<float>(id(rng)) : nd(rng);
        if (elem == Elem::F16) {
            const uint16_t h = toHalf(v);
            std::memcpy(p, &h, 2);
        } else if (elem == Elem::BF16) {
            const uint16_t h = toBf16(v);
            std::memcpy(p, &h, 2);
        } else if (elem == Elem::I32) {
            const int32_t k = static_cast<int32_t>(v);
            std::memcpy(p, &k, 4);
        } else {
            std::memcpy(p, &v, 4);
        }
    }
}
double Buf::at(int64_t i) const
{
    const std::byte* p = bytes.data() + i * ir::elemBytes(elem);
    uint16_t h = 0;
    int32_t k = 0;
    float f = 0;
    switch (elem) {
    case Elem::F16: std::memcpy(&h, p, 2); return fromHalf(h);
    case Elem::BF16: std::memcpy(&h, p, 2); return fromBf16(h);
    case Elem::I32: std::memcpy(&k, p, 4); return k;
    default: std::memcpy(&f, p, 4); return f;
    }
}

namespace {

const char* dtypeName(Elem e)
{
    switch (e) {
    case Elem::F16: return "tl.float16";
    case Elem::BF16: return "tl.bfloat16";
    case Elem::I32: return "tl.int32";
    default: return "tl.float32";
    }
}

void tolerances(Kernel& k, Elem e, bool reduce)
{
    k.rtol = e == Elem::F16 ? 2e-3 : e == Elem::BF16 ? 1.6e-2 : e == Elem::I32 ? 0 : (reduce ? 1e-4 : 1e-5);
    k.atol = e == Elem::I32 ? 0 : (reduce ? 1e-3 : 1e-5) * (e == Elem::F32 ? 1 : 50);
}

} // namespace

Kernel elementwise(std::mt19937& rng, int id)
{
    static const Elem dts[] = {Elem::F32, Elem::F16, Elem::BF16, Elem::I32};
    const Elem e = dts[rng() % 4];
    const bool fl = e != Elem::I32;
    const int64_t block = int64_t{32} << (rng() % 7);
    const int64_t n = 1 + static_cast<int64_t>(rng() % 5000);
    static const char* fexprs[] = {"a + b", "a * b - a", "tl.maximum(a, b)", "tl.where(a > b, a, b * 2)",
                                   "(tl.exp(a.to(tl.float32)) + tl.sqrt(tl.abs(b.to(tl.float32)))).to(DT)",
                                   "(a.to(tl.float32) / (tl.abs(b.to(tl.float32)) + 1.0)).to(DT)",
                                   "tl.minimum(a, b) - a * 0.5"};
    static const char* iexprs[] = {"a + b", "a * b - a", "tl.maximum(a, b)", "tl.where(a > b, a, b * 2)",
                                   "(a // 3) + (b % 7)", "(a << 2) ^ b", "a >> 1 | b & 12"};
    std::string expr = fl ? fexprs[rng() % 7] : iexprs[rng() % 7];
    for (size_t p; (p = expr.find("DT")) != std::string::npos;) {
        expr.replace(p, 2, dtypeName(e));
    }
    Kernel k;
    k.name = "elementwise#" + std::to_string(id) + " " + ir::elemName(e) + " B=" + std::to_string(block) +
             " n=" + std::to_string(n) + ": " + expr;
    k.source = "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x, y, z, n, B: tl.constexpr):\n"
               "    o = tl.program_id(0) * B + tl.arange(0, B)\n    m = o < n\n"
               "    a = tl.load(x + o, mask=m, other=0)\n    b = tl.load(y + o, mask=m, other=1)\n"
               "    r = " + expr + "\n    tl.store(z + o, r.to(" + dtypeName(e) + "), mask=m)\n";
    k.cx["B"] = ConstexprValue::ofInt(block);
    k.numWarps = 1 << (rng() % 4);
    k.grid = {(n + block - 1) / block, 1, 1};
    for (int b = 0; b < 3; ++b) {
        Buf buf;
        buf.elem = e;
        buf.n = n;
        buf.fill(rng, !fl);
        k.bufs.push_back(std::move(buf));
    }
    k.ints = {n};
    tolerances(k, e, false);
    return k;
}

Kernel reduction(std::mt19937& rng, int id, bool broadcast)
{
    static const Elem dts[] = {Elem::F32, Elem::F16, Elem::BF16, Elem::I32};
    const Elem e = dts[rng() % 4];
    const int64_t R = int64_t{1} << (rng() % 5), C = int64_t{16} << (rng() % 5);
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 40), cols = 1 + static_cast<int64_t>(rng() % (C + 8));
    static const char* ops[] = {"tl.sum", "tl.max", "tl.min"};
    const std::string op = ops[rng() % 3];
    const int axis = static_cast<int>(rng() % 3); // 2: the whole tile to a scalar
    Kernel k;
    k.name = std::string(broadcast ? "broadcast#" : "reduction#") + std::to_string(id) + " " + ir::elemName(e) +
             " [" + std::to_string(R) + "x" + std::to_string(C) + "] over " + std::to_string(rows) + "x" +
             std::to_string(cols) + " " + op + " axis " + std::to_string(axis);
    std::string s = "import triton\nimport triton.language as tl\n@triton.jit\n"
                    "def k(x, v, y, nr, nc, R: tl.constexpr, C: tl.constexpr):\n"
                    "    r = tl.program_id(0) * R + tl.arange(0, R)[:, None]\n"
                    "    c = tl.arange(0, C)[None, :]\n"
                    "    m = (r < nr) & (c < nc)\n"
                    "    t = tl.load(x + r * nc + c, mask=m, other=0)\n";
    if (broadcast) {
        s += "    w = tl.load(v + c, mask=c < nc, other=0)\n    t = tl.where(m, t * 2 + w, 0)\n"
             "    tl.store(x + r * nc + c, t, mask=m)\n";
    }
    if (axis == 2) {
        s += "    s = " + op + "(t)\n    tl.store(y + tl.program_id(0), s.to(" + dtypeName(e) + "))\n";
    } else if (axis == 1) {
        s += "    s = " + op + "(t, axis=1)\n    rr = tl.program_id(0) * R + tl.arange(0, R)\n"
             "    tl.store(y + rr, s.to(" + dtypeName(e) + "), mask=rr < nr)\n";
    } else {
        s += "    s = " + op + "(t, axis=0)\n    cc = tl.arange(0, C)\n"
             "    tl.store(y + tl.program_id(0) * C + cc, s.to(" + dtypeName(e) + "), mask=cc < nc)\n";
    }
    k.source = s;
    k.cx["R"] = ConstexprValue::ofInt(R);
    k.cx["C"] = ConstexprValue::ofInt(C);
    k.numWarps = 1 << (rng() % 4);
    const int64_t progs = (rows + R - 1) / R;
    k.grid = {progs, 1, 1};
    const int64_t sizes[] = {rows * cols, cols, axis == 1 ? progs * R : progs * C};
    for (int64_t sz : sizes) {
        Buf b;
        b.elem = e;
        b.n = sz;
        b.fill(rng, e == Elem::I32);
        k.bufs.push_back(std::move(b));
    }
    k.ints = {rows, cols};
    tolerances(k, e, true);
    return k;
}

Kernel vectorAdd(int64_t n)
{
    Kernel k;
    std::ifstream in(std::filesystem::path(std::getenv("TKM_TEST_DATA")) / "triton/tutorials/01_vector_add.py");
    k.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    k.name = "tutorial 01 vector add n=" + std::to_string(n);
    k.entry = "vec_add_kernel";
    k.cx["BLOCK_SIZE"] = ConstexprValue::ofInt(1024);
    k.grid = {(n + 1023) / 1024, 1, 1};
    std::mt19937 rng(7);
    for (int b = 0; b < 3; ++b) {
        Buf buf;
        buf.n = n;
        buf.fill(rng, false);
        k.bufs.push_back(std::move(buf));
    }
    k.ints = {n};
    return k;
}

Kernel softmax(int64_t rows, int64_t cols)
{
    Kernel k;
    std::ifstream in(std::filesystem::path(std::getenv("TKM_TEST_DATA")) / "triton/tutorials/02_fused_softmax.py");
    k.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    k.name = "tutorial 02 softmax " + std::to_string(rows) + "x" + std::to_string(cols);
    k.entry = "softmax_one_row";
    k.cx["BLOCK_SIZE"] = ConstexprValue::ofInt(1024);
    k.numWarps = 8;
    k.grid = {rows, 1, 1};
    std::mt19937 rng(8);
    for (int b = 0; b < 2; ++b) {
        Buf buf;
        buf.n = rows * cols;
        buf.fill(rng, false);
        k.bufs.push_back(std::move(buf));
    }
    k.ints = {cols, cols, cols};
    k.rtol = 1e-4;
    k.atol = 1e-6;
    return k;
}

Kernel matmul(int64_t M, int64_t N, int64_t K, const char* activation)
{
    Kernel k;
    std::ifstream in(std::filesystem::path(std::getenv("TKM_TEST_DATA")) / "triton/tutorials/03_matmul.py");
    k.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    k.name = std::string("tutorial 03 matmul fp16 ") + activation;
    k.entry = "matmul_kernel";
    k.cx = {{"BLOCK_SIZE_M", ConstexprValue::ofInt(64)}, {"BLOCK_SIZE_N", ConstexprValue::ofInt(64)},
            {"BLOCK_SIZE_K", ConstexprValue::ofInt(32)}, {"GROUP_SIZE_M", ConstexprValue::ofInt(8)},
            {"ACTIVATION", ConstexprValue::ofStr(activation)}};
    k.grid = {((M + 63) / 64) * ((N + 63) / 64), 1, 1};
    std::mt19937 rng(9);
    for (int64_t n : {M * K, K * N, M * N}) {
        Buf buf;
        buf.elem = Elem::F16;
        buf.n = n;
        buf.fill(rng, false);
        k.bufs.push_back(std::move(buf));
    }
    k.ints = {M, N, K, K, 1, N, 1, N, 1};
    k.rtol = 3e-3;
    k.atol = 2e-3;
    return k;
}

namespace {

/// A fixed kernel over f32 buffers of the given sizes and i32 scalars.
Kernel fixed(const std::string& name, const std::string& body, std::vector<int64_t> sizes, std::vector<int64_t> ints,
             std::map<std::string, ConstexprValue> cx, int numWarps, double rtol)
{
    Kernel k;
    k.name = name;
    k.source = "import triton\nimport triton.language as tl\n@triton.jit\n" + body;
    k.cx = std::move(cx);
    k.numWarps = numWarps;
    std::mt19937 rng(static_cast<unsigned>(sizes.size() * 31 + ints.size()));
    for (int64_t n : sizes) {
        Buf b;
        b.n = n;
        b.fill(rng, false);
        k.bufs.push_back(std::move(b));
    }
    k.ints = std::move(ints);
    k.rtol = rtol;
    k.atol = 1e-4;
    return k;
}

} // namespace

void fixedKernels(std::vector<Kernel>& ks)
{
    const char* shapes = R"(def k(x, y, n, R: tl.constexpr, C: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    t = tl.load(x + r * C + c)
    tl.store(y + tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :], tl.trans(t))
    u = tl.reshape(t, (R * C,))
    tl.store(y + R * C + tl.arange(0, R * C), tl.cumsum(u, axis=0))
    j = tl.join(u, u * 2)
    tl.store(y + 2 * R * C + tl.arange(0, R * C)[:, None] * 2 + tl.arange(0, 2)[None, :], j)
    v = tl.where(t > 0, t, -t)
    tl.store(y + r * C + c, v, mask=r < n)
)";
    for (int nw : {1, 4}) {
        ks.push_back(fixed("shapes nw=" + std::to_string(nw), shapes, {16 * 32, 4 * 16 * 32}, {11},
                           {{"R", ConstexprValue::ofInt(16)}, {"C", ConstexprValue::ofInt(32)}}, nw, 1e-4));
    }
    const char* dot = R"(def k(a, b, c, d, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    m = tl.arange(0, M)[:, None]
    nn = tl.arange(0, N)[None, :]
    kk = tl.arange(0, K)
    x = tl.load(a + m * K + kk[None, :])
    w = tl.load(b + kk[:, None] * N + nn)
    tl.store(c + m * N + nn, tl.dot(x, w))
    tl.store(d + m * N + nn, tl.dot(x, w, input_precision="ieee"))
)";
    ks.push_back(fixed("dot 32x64x128", dot, {32 * 128, 128 * 64, 32 * 64, 32 * 64}, {},
                       {{"M", ConstexprValue::ofInt(32)}, {"N", ConstexprValue::ofInt(64)},
                        {"K", ConstexprValue::ofInt(128)}}, 4, 1e-4));
}

Kernel softmax2d(std::mt19937& rng, int id)
{
    static const Elem dts[] = {Elem::F32, Elem::F16, Elem::BF16};
    const Elem e = dts[rng() % 3];
    const int64_t R = int64_t{1} << (rng() % 5), C = int64_t{16} << (rng() % 6);
    const int64_t rows = 1 + static_cast<int64_t>(rng() % 40), cols = 1 + static_cast<int64_t>(rng() % (C + 4));
    const bool keep = rng() % 2 == 0;
    Kernel k;
    k.name = "softmax2d#" + std::to_string(id) + " " + ir::elemName(e) + " [" + std::to_string(R) + "x" +
             std::to_string(C) + "] over " + std::to_string(rows) + "x" + std::to_string(cols) +
             (keep ? " keep_dims" : "");
    k.source = std::string("import triton\nimport triton.language as tl\n@triton.jit\n"
                           "def k(x, y, s, nr, nc, R: tl.constexpr, C: tl.constexpr):\n"
                           "    rr = tl.program_id(0) * R + tl.arange(0, R)\n"
                           "    r = rr[:, None]\n"
                           "    c = tl.arange(0, C)[None, :]\n"
                           "    m = (r < nr) & (c < nc)\n"
                           "    t = tl.load(x + r * nc + c, mask=m, other=-float('inf')).to(tl.float32)\n") +
               (keep ? "    z = t - tl.max(t, axis=1, keep_dims=True)\n" : "    z = t - tl.max(t, axis=1)[:, None]\n") +
               "    num = tl.exp(z)\n"
               "    den = tl.sum(num, axis=1)\n"
               "    tl.store(y + r * nc + c, (num / den[:, None]).to(" + dtypeName(e) + "), mask=m)\n"
               "    tl.store(s + rr, den.to(" + dtypeName(e) + "), mask=rr < nr)\n";
    k.cx["R"] = ConstexprValue::ofInt(R);
    k.cx["C"] = ConstexprValue::ofInt(C);
    k.numWarps = 1 << (rng() % 4);
    const int64_t progs = (rows + R - 1) / R;
    k.grid = {progs, 1, 1};
    for (int64_t sz : {rows * cols, rows * cols, progs * R}) {
        Buf b;
        b.elem = e;
        b.n = sz;
        b.fill(rng, false);
        k.bufs.push_back(std::move(b));
    }
    k.ints = {rows, cols};
    tolerances(k, e, true);
    return k;
}

namespace {

/// One course kernel file with its launch: `sizes` of the f32 buffers (i32 for `intBufs`, or `elems` per buffer),
/// scalars in order, a 1-D grid or (grid, grid1), buffers that start zeroed (atomic outputs) and tolerances.
struct CourseCase
{
    const char* file;   ///< under content/
    const char* entry;
    const char* order;  ///< 'p' buffer, 'i' int, 'f' float
    std::vector<int64_t> bufSizes;
    std::vector<int64_t> ints;
    std::vector<double> floats;
    std::map<std::string, int64_t> cx;
    int numWarps;
    int64_t grid;
    bool intBufs = false;
    std::map<std::string, std::string> spec;
    std::vector<Elem> elems = {};   ///< per buffer; empty: all F32 (I32 for intBufs)
    int64_t grid1 = 1;
    std::vector<size_t> zeroed = {};
    double rtol = 1e-4, atol = 1e-5;
};

using CourseCases = std::vector<std::pair<std::string, CourseCase>>;

/// Appends one case per file of `files` (under content/`dir`), all with the launch `c`.
void addCases(CourseCases& cases, const std::string& dir, std::initializer_list<const char*> files, const CourseCase& c)
{
    for (const char* f : files) {
        cases.emplace_back(dir + f, c);
    }
}

/// The exercises of modules 04, 06, 07 and 08 added after the first set (ragged sizes, wrong-result bugs only:
/// faults cannot be compared and the racy store-not-atomic variant has no single right answer).
void newCourseCases(CourseCases& cases)
{
    const int64_t M = 37, N = 781, NW = 2500, NA = 200, D = 64;
    addCases(cases, "04-fused-softmax/exercises/layer-norm/",
             {"solution.py", "bugs/one-pass-variance.py", "bugs/padding-in-variance.py", "bugs/mean-over-block.py",
              "bugs/no-eps.py"},
             {"",
              "layer_norm_fwd",
              "ppppppiiif",
              {M * N, M * N, N, N, M, M},
              {N, N, N},
              {1e-5},
              {{"BLOCK_SIZE", 256}},
              4,
              M});
    addCases(cases, "04-fused-softmax/exercises/online-softmax/",
             {"solution.py", "bugs/no-rescale.py", "bugs/first-chunk-max.py", "bugs/fill-zero.py",
              "bugs/chunk-denominator.py"},
             {"", "softmax_online", "ppiiii", {M * NW, M * NW}, {M, NW, NW, NW}, {}, {{"BLOCK_SIZE", 1024}}, 4, M});
    const std::vector<Elem> f16x3(3, Elem::F16), f16x4(4, Elem::F16);
    const int64_t bm = 70, bn = 50, bk = 45;
    addCases(cases, "06-blocked-matmul/exercises/matmul-block-ptr/",
             {"solution.py", "bugs/advance-wrong-axis.py", "bugs/padding-nan.py"},
             {"",
              "matmul_bp",
              "pppiiiiiiiii",
              {bm * bk, bk * bn, bm * bn},
              {bm, bn, bk, bk, 1, bn, 1, bn, 1},
              {},
              {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"BLOCK_K", 32}},
              4,
              2,
              false,
              {},
              f16x3,
              1,
              {},
              2e-3,
              2e-2});
    for (int64_t causal : {0, 1}) {
        addCases(cases, "07-flash-attention/exercises/attention-fp16-causal/",
                 {"solution.py", "bugs/causal-strict.py", "bugs/diagonal-skipped.py", "bugs/no-diagonal-mask.py",
                  "bugs/no-rescale.py"},
                 {"",
                  "attention_fp16",
                  "ppppifiiii",
                  {NA * D, NA * D, NA * D, NA * D},
                  {NA, D, D, D, D},
                  {0.125},
                  {{"BLOCK_M", 64}, {"BLOCK_N", 64}, {"HEAD_DIM", D}, {"IS_CAUSAL", causal}},
                  4,
                  (NA + 63) / 64,
                  false,
                  {},
                  f16x4,
                  1,
                  {},
                  4e-3,
                  2e-3});
    }
    addCases(cases, "08-pytorch-integration/exercises/rmsnorm-forward/",
             {"solution.py", "bugs/mean-over-block.py", "bugs/no-eps.py", "bugs/mean-subtracted.py",
              "bugs/rstd-not-saved.py"},
             {"", "rmsnorm_fwd", "ppppiiif", {M * N, N, M * N, M}, {N, N, N}, {1e-6}, {{"BLOCK_SIZE", 1024}}, 4, M});
    addCases(cases, "08-pytorch-integration/exercises/rmsnorm-backward/",
             {"solution.py", "bugs/no-rstd-path.py", "bugs/sum-over-block.py", "bugs/rstd-squared.py"},
             {"",
              "rmsnorm_bwd",
              "ppppppiii",
              {M * N, M * N, N, M, M * N, N},
              {N, M, N},
              {},
              {{"BLOCK_SIZE", 1024}, {"ROWS_PER_PROGRAM", 4}},
              4,
              (M + 3) / 4,
              false,
              {},
              {},
              1,
              {5},
              1e-4,
              1e-4});
}

} // namespace

void courseKernels(std::vector<Kernel>& ks)
{
    const int64_t n = 98437, M = 37, N = 781, NS = 2500;
    const std::string sc = "01-programming-model/exercises/scaled-copy/";
    const std::string va = "02-vector-add/exercises/vector-add/";
    const std::string rm = "03-memory-model/exercises/row-max/";
    const std::string fs = "04-fused-softmax/exercises/fused-softmax/";
    const std::string rs = "05-autotuning/exercises/autotune-row-sum/";
    const std::string hi = "05-autotuning/exercises/histogram-reset/";
    const std::string sf = "08-pytorch-integration/exercises/silu-forward/";
    const std::string sb = "08-pytorch-integration/exercises/silu-backward/";
    const std::map<std::string, std::string> unit = {{"stride_col", "1"}};
    CourseCases cases;
    auto add = [&](const std::string& dir, std::initializer_list<const char*> files, const CourseCase& c) {
        addCases(cases, dir, files, c);
    };
    add(sc, {"solution.py", "bugs/thread-as-program.py"},
        {"", "scale_kernel", "ppfi", {n, n}, {n}, {-1.75}, {{"BLOCK_SIZE", 1024}}, 4, (n + 1023) / 1024});
    add(va, {"solution.py", "bugs/one-thread-per-element.py"},
        {"", "vector_add", "pppi", {n, n, n}, {n}, {}, {{"BLOCK_SIZE", 1024}}, 4, (n + 1023) / 1024});
    add(rm, {"solution.py", "bugs/fill-zero.py", "bugs/hardcoded-stride.py", "bugs/no-other.py"},
        {"", "row_max", "ppiiii", {M * N, M}, {M, N, N, 1}, {}, {{"BLOCK_SIZE", 256}}, 4, M, false, unit});
    add(fs, {"solution.py", "bugs/no-max-shift.py", "bugs/fill-zero.py", "bugs/max-fill-zero.py"},
        {"", "softmax_kernel", "ppiiii", {M * N, M * N}, {M, N, N, N}, {}, {{"BLOCK_SIZE", 1024}}, 8, M});
    add(rs, {"solution.py", "bugs/overwrite-acc.py", "bugs/offsets-without-start.py"},
        {"", "row_sum", "ppiii", {M * NS, M}, {M, NS, NS}, {}, {{"BLOCK_SIZE", 1024}}, 4, M});
    add(hi, {"solution.py", "bugs/padding-counted.py"},
        {"", "histogram", "ppii", {n, 64}, {n, 64}, {}, {{"BLOCK_SIZE", 1024}}, 4, (n + 1023) / 1024, true});
    add(sf, {"solution.py", "bugs/unstable-sigmoid.py"},
        {"", "silu_fwd", "ppi", {n, n}, {n}, {}, {{"BLOCK_SIZE", 1024}}, 4, (n + 1023) / 1024});
    add(sb, {"solution.py", "bugs/missing-term.py", "bugs/no-chain-rule.py", "bugs/unstable-sigmoid.py"},
        {"", "silu_bwd", "pppi", {n, n, n}, {n}, {}, {{"BLOCK_SIZE", 1024}}, 4, (n + 1023) / 1024});
    newCourseCases(cases);
    std::mt19937 rng(13);
    for (const auto& [file, c] : cases) {
        Kernel k;
        std::ifstream in(std::filesystem::path(std::getenv("TKM_CONTENT_DIR")) / file);
        k.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        k.name = "course " + file + (c.cx.count("IS_CAUSAL") ? " IS_CAUSAL=" + std::to_string(c.cx.at("IS_CAUSAL")) : "");
        k.entry = c.entry;
        for (const auto& [name, v] : c.cx) {
            k.cx[name] = ConstexprValue::ofInt(v);
        }
        k.numWarps = c.numWarps;
        k.grid = {c.grid, c.grid1, 1};
        k.order = c.order;
        k.ints = c.ints;
        k.floats = c.floats;
        k.spec = c.spec;
        for (size_t i = 0; i < c.bufSizes.size(); ++i) {
            Buf b;
            b.elem = i < c.elems.size() ? c.elems[i] : c.intBufs ? Elem::I32 : Elem::F32;
            b.n = c.bufSizes[i];
            b.fill(rng, c.intBufs);
            if (std::find(c.zeroed.begin(), c.zeroed.end(), i) != c.zeroed.end()) {
                std::fill(b.bytes.begin(), b.bytes.end(), std::byte{0});
            }
            k.bufs.push_back(std::move(b));
        }
        if (c.intBufs) {
            std::fill(k.bufs[1].bytes.begin(), k.bufs[1].bytes.end(), std::byte{0});
            for (int64_t i = 0; i < k.bufs[0].n; ++i) { // values in [-8, 72): some outside the 64 bins
                int32_t v = 0;
                std::memcpy(&v, k.bufs[0].bytes.data() + i * 4, 4);
                v = (v + 50) * 4 / 5 - 8;
                std::memcpy(k.bufs[0].bytes.data() + i * 4, &v, 4);
            }
        }
        k.rtol = c.intBufs ? 0 : c.rtol;
        k.atol = c.intBufs ? 0 : c.atol;
        ks.push_back(std::move(k));
    }
}

} // namespace tkm::triton::gputest
