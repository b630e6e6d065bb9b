#pragma once
// The kernels of the GPU differential test (test_triton_gpu.cpp): tutorials, fixed shape-op and dot kernels,
// the course's Triton solutions and bug variants, and seeded random elementwise / reduction / broadcast /
// 2-D softmax kernels. Each carries its source, constexprs, launch and host buffers.

#include "engine/compile/compiler.h"
#include "engine/triton/check/checker.h"
#include "engine/triton/ir/ir.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace tkm::triton::gputest {

namespace ir = tkm::triton::ir;
using ir::Elem;

uint16_t toHalf(float f);
double fromHalf(uint16_t h);
uint16_t toBf16(float f);
double fromBf16(uint16_t b);
using tkm::triton::ConstexprValue;


/// A buffer's host image.
struct Buf
{
    Elem elem = Elem::F32;
    std::vector<std::byte> bytes;
    int64_t n = 0;
    /// n values drawn from N(0, 1) (ints: uniform integers in [-50, 50]) in the element type.
    void fill(std::mt19937& rng, bool ints);
    /// Element i as a double.
    double at(int64_t i) const;
};

/// One generated (or tutorial) kernel with its launch.
struct Kernel
{
    std::string name;
    std::string source;
    std::string entry = "k";
    std::map<std::string, ConstexprValue> cx;
    int numWarps = 4;
    std::array<int64_t, 3> grid{1, 1, 1};
    std::vector<Buf> bufs;          ///< pointer params first, in order
    std::vector<int64_t> ints;      ///< then i32 scalars
    std::vector<double> floats;     ///< f32 scalars
    std::string order;              ///< parameter order: 'p' buffer, 'i' int, 'f' float (empty: p… then i…)
    std::map<std::string, std::string> spec; ///< Triton's jit specialisation of int params ("1" / "16")
    bool floor = false;             ///< lower with the fast paths off (LowerOptions::fastPaths = false)
    /// hint every pointer parameter 16-byte aligned, as Triton's jit does for a data_ptr() that is a multiple
    /// of 16 (the buffers here are cuMemAlloc'ed): the lowering's whole-chunk vector accesses
    bool alignedPointers = false;
    double rtol = 1e-5, atol = 1e-6;
    // filled by prepare()
    std::optional<ir::Function> fn;
    tkm::compile::CompileResult compiled;
    std::string problem;
};

Kernel elementwise(std::mt19937& rng, int id);
Kernel reduction(std::mt19937& rng, int id, bool broadcast);
/// A 2-D row softmax over [R, C] tiles (row max and sum along axis 1, `[:, None]` broadcasts).
Kernel softmax2d(std::mt19937& rng, int id);
Kernel vectorAdd(int64_t n);
Kernel softmax(int64_t rows, int64_t cols);
Kernel matmul(int64_t M, int64_t N, int64_t K, const char* activation);
/// Shape ops (trans, reshape, cumsum, join, where) and tl.dot in both precisions.
void fixedKernels(std::vector<Kernel>& ks);
/// The course's Triton solutions and their deterministic wrong-result bug variants (content/, ragged sizes).
void courseKernels(std::vector<Kernel>& ks);

} // namespace tkm::triton::gputest
