#include "engine/measure/calibration.h"

#include "engine/cuda/driver.h"
#include "engine/measure/detail/cublas_gemm.h"
#include "engine/measure/detail/measure_kernels.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace tkm::measure {
namespace {

constexpr size_t kMiB = size_t{1} << 20;

/// One streaming kernel at one block shape.
struct Shape
{
    const char* name;  ///< for the report, e.g. "copy, 4 vectors in flight"
    int kernel;        ///< 0 copy, 1 copy4, 2 copyTile, 3 addTile
    int threads;       ///< threads per block
    int blocksPerSm;   ///< grid-stride kernels: blocks per SM (0: one tile per block)
    int vectorsPerThread; ///< tile kernels: 16-byte vectors per thread and tile
};

// Grid-stride shapes fill every SM with 2048 threads; tile shapes launch one block per 2 · threads vectors, as
// Triton's BLOCK_SIZE = 1024 / 2048 fp32 programs with 4 or 8 warps do. The add at 128 threads is the shape of the
// course's elementwise solutions (BLOCK_SIZE 1024, 4 warps): on an H200 it is the fastest, and the other shapes
// keep the ceiling honest on devices where another one wins.
constexpr Shape kShapes[] = {
    {"copy, 1 vector in flight", 0, 512, 4, 0},  {"copy, 4 vectors in flight", 1, 512, 4, 0},
    {"copy, 4 vectors in flight", 1, 256, 8, 0}, {"copy, 4 vectors in flight", 1, 1024, 2, 0},
    {"copy, one tile per block", 2, 128, 0, 2},  {"copy, one tile per block", 2, 256, 0, 2},
    {"add (2 reads, 1 write), one tile per block", 3, 64, 0, 2},
    {"add (2 reads, 1 write), one tile per block", 3, 128, 0, 2},
    {"add (2 reads, 1 write), one tile per block", 3, 256, 0, 2},
    {"add (2 reads, 1 write), one tile per block", 3, 512, 0, 2},
};

struct Buffers
{
    detail::DeviceAllocation x, y, out;
};

/// Three buffers of `bytes` (x and y filled), or nullopt when the device has no room for them.
std::optional<Buffers> allocate(size_t bytes, CUstream stream)
{
    auto x = detail::DeviceAllocation::create(bytes);
    auto y = detail::DeviceAllocation::create(bytes);
    auto out = detail::DeviceAllocation::create(bytes);
    if (!x || !y || !out)
        return std::nullopt;
    cuda::api().cuMemsetD8Async(x->ptr(), 1, bytes, stream);
    cuda::api().cuMemsetD8Async(y->ptr(), 2, bytes, stream);
    return Buffers{std::move(*x), std::move(*y), std::move(*out)};
}

std::string describe(const Shape& s)
{
    std::string d = std::string(s.name) + ", " + std::to_string(s.threads) + " threads";
    if (s.blocksPerSm > 0)
        return d + " x " + std::to_string(s.blocksPerSm) + " blocks per SM";
    return d + " x " + std::to_string(s.vectorsPerThread) + " vectors";
}

/// The workload of one shape on `b` (n 16-byte vectors per buffer).
Workload streamWorkload(const StreamKernels& k, const Shape& s, Buffers& b, unsigned long long& n, int sms,
                        CUdeviceptr (&ptrs)[3])
{
    const CUfunction fns[] = {k.copy, k.copy4, k.copyTile, k.addTile};
    const CUfunction fn = fns[s.kernel];
    const bool add = s.kernel == 3;
    ptrs[0] = b.out.ptr();
    ptrs[1] = b.x.ptr();
    ptrs[2] = b.y.ptr();
    const unsigned long long perBlock = static_cast<unsigned long long>(s.threads) * std::max(1, s.vectorsPerThread);
    const unsigned grid = s.blocksPerSm > 0 ? static_cast<unsigned>(std::max(1, sms) * s.blocksPerSm)
                                            : static_cast<unsigned>((n + perBlock - 1) / perBlock);
    Workload w;
    w.label = "calibration: " + describe(s);
    w.launch = [fn, add, grid, threads = s.threads, &ptrs, &n](CUstream st) {
        void* copyArgs[] = {&ptrs[0], &ptrs[1], &n};
        void* addArgs[] = {&ptrs[0], &ptrs[1], &ptrs[2], &n};
        return cuda::check(cuda::api().cuLaunchKernel(fn, grid, 1, 1, static_cast<unsigned>(threads), 1, 1, 0, st,
                                                      add ? addArgs : copyArgs, nullptr),
                           "cuLaunchKernel");
    };
    w.idealBytes = (add ? 3.0 : 2.0) * 16.0 * static_cast<double>(n);
    return w;
}

} // namespace

engine::Expected<CopyCalibration> calibrateStreaming(const StreamKernels& kernels, int sms, long long l2Bytes,
                                                     CUstream stream, const TimeFn& time)
{
    const size_t base = std::max<size_t>(256 * kMiB, static_cast<size_t>(4 * std::max(0LL, l2Bytes)));
    TimingOptions options;
    options.stop.minSamples = 20;
    options.stop.budgetMs = 100;
    options.warmupMs = 10;
    CopyCalibration best;
    bool any = false;
    for (const size_t bytes : {base, 4 * base}) {
        auto buffers = allocate(bytes, stream);
        if (!buffers)
            continue;
        unsigned long long n = bytes / 16;
        CUdeviceptr ptrs[3] = {};
        for (const Shape& s : kShapes) {
            const Workload w = streamWorkload(kernels, s, *buffers, n, sms, ptrs);
            auto timing = time(w, stream, options);
            if (!timing)
                return timing.error();
            // A ceiling is what the device can reach: bytes over the kernel's fastest sample, not its median,
            // so that a learner's kernel of the same shape (timed by its median) sits at or under it.
            const double fastest = timing->samples.minMs;
            const double gbps = fastest > 0 ? w.idealBytes / (fastest * 1e-3) / 1e9 : timing->achievedGbps;
            if (gbps > best.copyGbps) {
                best.copyGbps = gbps;
                best.bytes = static_cast<long long>(bytes);
                best.medianMs = timing->samples.medianMs;
                best.kernel = describe(s);
            }
            any = true;
        }
    }
    if (!any)
        return engine::makeError(engine::ErrorKind::Cuda,
                                 "Could not allocate " + std::to_string(3 * base / kMiB) + " MiB for the calibration.");
    return best;
}

void calibrateTensorCores(CopyCalibration& calibration, int size, CUstream stream, const TimeFn& time)
{
    const size_t bytes = static_cast<size_t>(size) * static_cast<size_t>(size) * 2;
    auto buffers = allocate(bytes, stream);
    if (!buffers) {
        calibration.tensorNote = "no room for three " + std::to_string(size) + "^2 fp16 matrices";
        return;
    }
    // 0x2E66 is fp16 0.1: sums of `size` products stay far from fp16's range.
    cuda::api().cuMemsetD32Async(buffers->x.ptr(), 0x2E662E66u, bytes / 4, stream);
    cuda::api().cuMemsetD32Async(buffers->y.ptr(), 0x2E662E66u, bytes / 4, stream);
    auto gemm = detail::CublasGemm::createRowMajor(buffers->x.ptr(), buffers->y.ptr(), buffers->out.ptr(), size, size,
                                                   size, engine::DType::F16);
    if (!gemm) {
        calibration.tensorNote = gemm.error().message;
        return;
    }
    Workload w;
    w.label = "calibration: cuBLAS fp16 GEMM";
    w.launch = [g = gemm->get()](CUstream st) { return g->enqueue(st); };
    w.flops = 2.0 * size * static_cast<double>(size) * size;
    TimingOptions options;
    options.stop.minSamples = 10;
    options.stop.budgetMs = 150;
    options.warmupMs = 25;
    auto timing = time(w, stream, options);
    if (!timing || timing->samples.medianMs <= 0) {
        calibration.tensorNote = timing ? "the GEMM took no measurable time" : timing.error().message;
        return;
    }
    calibration.tensorSize = size;
    calibration.tensorMedianMs = timing->samples.medianMs;
    calibration.tensorGflops = w.flops / (timing->samples.medianMs * 1e-3) / 1e9;
}

} // namespace tkm::measure
