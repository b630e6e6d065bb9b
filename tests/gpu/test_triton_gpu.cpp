// On a GPU (label gpu): the CUDA lowering of Triton kernels against the CPU interpreter on the same inputs —
// the tutorials' vector add, softmax and matmul, the course's Triton solutions and wrong-result bug variants,
// and ≥ 250 randomly generated elementwise / reduction / broadcast / 2-D softmax kernels (random shapes that
// are and are not block multiples, masks, dtypes f32/f16/bf16/i32, num_warps 1-8), every ninth again with the
// lowering's fast paths off (the floor).
// Kernels are compiled in parallel, then each runs on the GPU and in the interpreter; every output buffer must
// agree within the dtype's tolerance. Prints one summary line. Without a GPU: "SKIPPED: …", exit 77.
// `test_triton_gpu --compile-only` prepares every kernel without a GPU (lowering and NVRTC only).

#include "tests/gpu/triton_gpu_cases.h"
#include "tests/triton/triton_test_util.h"

#include "engine/compile/compiler.h"
#include "engine/cuda/context.h"
#include "engine/cuda/device.h"
#include "engine/cuda/driver.h"
#include "engine/cuda/module.h"
#include "engine/triton/interp/interpreter.h"
#include "engine/triton/lower/lower.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <random>
#include <string>
#include <thread>
#include <vector>


namespace {

using namespace tkm::triton::gputest;
namespace interp = tkm::triton::interp;


/// The parameter order of k: 'p' buffer, 'i' i32, 'f' f32.
std::string order(const Kernel& k)
{
    return k.order.empty() ? std::string(k.bufs.size(), 'p') + std::string(k.ints.size(), 'i') : k.order;
}

/// Parse, check, lower and NVRTC-compile (thread-safe: no GPU involved).
void prepare(Kernel& k)
{
    tkm::triton::CheckInput in;
    in.entry = k.entry;
    size_t nb = 0;
    for (char c : order(k)) {
        in.runtimeParamTypes.push_back(c == 'p'   ? ir::Type{Elem::Ptr, {}, k.bufs[nb++].elem}
                                       : c == 'i' ? ir::Type{Elem::I32, {}, Elem::F32}
                                                  : ir::Type{Elem::F32, {}, Elem::F32});
    }
    in.specialisation = k.spec;
    in.constexprs = k.cx;
    in.numWarps = k.numWarps;
    if (k.alignedPointers) {
        // the pointer parameters' names, from a first check
        const auto named = tkm::triton::test::compile(k.source, in);
        for (const auto& p : named.checked.function ? named.checked.function->params : std::vector<ir::KernelParam>{}) {
            if (p.type.isPtr()) {
                in.specialisation[p.name] = "16";
            }
        }
    }
    auto c = tkm::triton::test::compile(k.source, in);
    if (!c.checked.function) {
        k.problem = "check: " + tkm::triton::test::diagnosticsText(c);
        return;
    }
    k.fn = std::move(*c.checked.function);
    tkm::triton::lower::LowerOptions o;
    o.kernelName = "tkm_kernel";
    o.fastPaths = !k.floor;
    const auto l = tkm::triton::lower::lower(*k.fn, o);
    tkm::compile::CompileRequest req;
    req.source = l.source;
    req.sourceName = "kernel.py.cu";
    req.kernel = o.kernelName;
    req.computeCapability = 90;
    auto r = tkm::compile::compileKernel(req);
    if (!r.ok() || !r->ok) {
        k.problem = "nvrtc: " + (r.ok() ? r->firstError() : r.error().message);
        return;
    }
    k.compiled = std::move(*r);
}

/// Runs on the GPU and in the interpreter; "" when they agree.
std::string runAndCompare(Kernel& k)
{
    const auto& api = tkm::cuda::api();
    auto mod = tkm::cuda::Module::load(k.compiled.cubin);
    if (!mod.ok()) {
        return "load: " + mod.error().message;
    }
    auto fn = mod->kernel(k.compiled.loweredName);
    if (!fn.ok()) {
        return "kernel: " + fn.error().message;
    }
    std::vector<CUdeviceptr> dev(k.bufs.size(), 0);
    tkm::cuda::KernelArgs args;
    for (size_t b = 0; b < k.bufs.size(); ++b) {
        api.cuMemAlloc(&dev[b], std::max<size_t>(16, k.bufs[b].bytes.size()));
        api.cuMemcpyHtoD(dev[b], k.bufs[b].bytes.data(), k.bufs[b].bytes.size());
    }
    size_t nb = 0, ni = 0, nf = 0;
    for (char c : order(k)) {
        if (c == 'p') {
            args.addPointer(dev[nb++]);
        } else if (c == 'i') {
            args.add(static_cast<int32_t>(k.ints[ni++]));
        } else {
            args.add(static_cast<float>(k.floats[nf++]));
        }
    }
    tkm::cuda::LaunchConfig cfg;
    cfg.grid = {static_cast<unsigned>(k.grid[0]), static_cast<unsigned>(k.grid[1]), static_cast<unsigned>(k.grid[2])};
    cfg.block = {static_cast<unsigned>(32 * k.numWarps), 1, 1};
    tkm::cuda::Stream stream;
    auto st = tkm::cuda::launch(*fn, cfg, args, stream);
    std::string problem;
    if (!st.ok()) {
        problem = "launch: " + st.error().message;
    } else if (api.cuCtxSynchronize() != CUDA_SUCCESS) {
        problem = "the kernel faulted on the GPU";
    }
    std::vector<Buf> gpu = k.bufs;
    for (size_t b = 0; b < k.bufs.size(); ++b) {
        api.cuMemcpyDtoH(gpu[b].bytes.data(), dev[b], gpu[b].bytes.size());
        api.cuMemFree(dev[b]);
    }
    if (!problem.empty()) {
        return problem;
    }
    std::vector<Buf> host = k.bufs;
    std::vector<interp::HostBuffer> hb;
    std::vector<interp::ArgValue> av;
    for (size_t b = 0; b < host.size(); ++b) {
        hb.push_back({"b" + std::to_string(b), host[b].elem, host[b].bytes.data(), host[b].n});
    }
    nb = ni = nf = 0;
    for (char c : order(k)) {
        if (c == 'p') {
            av.push_back({static_cast<int>(nb++), 0, 0});
        } else if (c == 'i') {
            av.push_back({-1, k.ints[ni++], 0});
        } else {
            av.push_back({-1, 0, static_cast<double>(static_cast<float>(k.floats[nf++]))});
        }
    }
    interp::RunOptions ro;
    ro.grid = k.grid;
    const auto rr = interp::run(*k.fn, av, hb, ro);
    if (rr.fault) {
        return "interpreter fault: " + rr.fault->message;
    }
    for (size_t b = 0; b < host.size(); ++b) {
        for (int64_t i = 0; i < host[b].n; ++i) {
            const double g = gpu[b].at(i), w = host[b].at(i);
            if (!(std::fabs(g - w) <= k.atol + k.rtol * std::fabs(w)) && !(std::isnan(g) && std::isnan(w))) {
                return "buffer " + std::to_string(b) + "[" + std::to_string(i) + "]: GPU " + std::to_string(g) +
                       ", interpreter " + std::to_string(w);
            }
        }
    }
    return {};
}

/// A copy of g's inputs (source, launch, buffers, hints), not prepared.
Kernel variantOf(const Kernel& g)
{
    Kernel f;
    f.name = g.name;
    f.source = g.source;
    f.entry = g.entry;
    f.cx = g.cx;
    f.numWarps = g.numWarps;
    f.grid = g.grid;
    f.bufs = g.bufs;
    f.ints = g.ints;
    f.floats = g.floats;
    f.order = g.order;
    f.spec = g.spec;
    f.rtol = g.rtol;
    f.atol = g.atol;
    return f;
}

/// Every kernel of the test: tutorials, fixed, generated, the course's, a floor sample and the course's and a
/// sample of the generated with pointers hinted aligned (not yet prepared).
std::vector<Kernel> allKernels()
{
    std::vector<Kernel> ks;
    ks.push_back(vectorAdd(98432));
    ks.push_back(vectorAdd(1000));
    ks.push_back(softmax(37, 781));
    fixedKernels(ks);
    ks.push_back(matmul(70, 50, 45, ""));
    ks.push_back(matmul(130, 200, 77, "leaky_relu"));
    std::mt19937 rng(20261201);
    for (int i = 0; i < 100; ++i) {
        ks.push_back(elementwise(rng, i));
    }
    for (int i = 0; i < 70; ++i) {
        ks.push_back(reduction(rng, i, false));
    }
    for (int i = 0; i < 40; ++i) {
        ks.push_back(reduction(rng, i, true));
    }
    for (int i = 0; i < 40; ++i) {
        ks.push_back(softmax2d(rng, i));
    }
    const size_t course = ks.size();
    courseKernels(ks);
    // the correctness floor too, on a sample: fast paths and floor must both agree with the interpreter
    const size_t generated = ks.size();
    for (size_t i = 0; i < generated; i += 9) {
        Kernel f = variantOf(ks[i]);
        f.floor = true;
        f.name += " [floor]";
        ks.push_back(std::move(f));
    }
    // Triton's pointer hint: every course kernel (their int hints make masks uniform over a chunk) and every
    // fourth generated one, with and without it
    for (size_t i = 0; i < generated; i += i < course ? 4 : 1) {
        Kernel a = variantOf(ks[i]);
        a.alignedPointers = true;
        a.name += " [aligned]";
        ks.push_back(std::move(a));
    }
    return ks;
}

/// prepare() on every kernel, in parallel.
void prepareAll(std::vector<Kernel>& ks)
{
    const unsigned workers = std::max(2u, std::thread::hardware_concurrency());
    std::vector<std::future<void>> futs;
    std::atomic<size_t> next{0};
    for (unsigned w = 0; w < workers; ++w) {
        futs.push_back(std::async(std::launch::async, [&] {
            for (size_t i; (i = next++) < ks.size();) {
                prepare(ks[i]);
            }
        }));
    }
    for (auto& f : futs) {
        f.get();
    }
}

TEST(TritonGpu, LoweredKernelsMatchTheInterpreter)
{
    auto ctx = tkm::cuda::Context::create(0);
    ASSERT_TRUE(ctx.ok()) << ctx.error().message;
    ASSERT_TRUE(ctx->makeCurrent().ok());
    std::vector<Kernel> ks = allKernels();
    prepareAll(ks);
    int passed = 0, failed = 0;
    for (Kernel& k : ks) {
        std::string p = k.problem.empty() ? runAndCompare(k) : k.problem;
        if (p.empty()) {
            ++passed;
        } else {
            ++failed;
            ADD_FAILURE() << k.name << ": " << p << "\n" << k.source;
        }
    }
    std::cout << "[summary] triton lowering vs interpreter: " << passed << " passed, " << failed << " failed of "
              << ks.size() << " kernels\n";
    EXPECT_GE(ks.size(), 200u);
}

/// --compile-only: parse, check, lower and NVRTC-compile every kernel without a GPU; exit 1 when one fails.
int compileOnly()
{
    if (std::getenv("TKM_TEST_DATA") == nullptr || std::getenv("TKM_CONTENT_DIR") == nullptr) {
        std::cout << "--compile-only needs TKM_TEST_DATA (tests/data) and TKM_CONTENT_DIR (content) set\n";
        return 2;
    }
    std::vector<Kernel> ks = allKernels();
    prepareAll(ks);
    int failed = 0;
    for (const Kernel& k : ks) {
        if (!k.problem.empty()) {
            ++failed;
            std::cout << "FAILED " << k.name << ": " << k.problem << "\n";
        }
    }
    std::cout << "[summary] compile only: " << ks.size() - failed << " of " << ks.size() << " kernels compiled\n";
    return failed == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::string(argv[1]) == "--compile-only") {
        return compileOnly();
    }
    const auto& driver = tkm::cuda::Driver::instance();
    if (!driver.ready() || tkm::cuda::deviceCount() == 0) {
        std::cout << "SKIPPED: " << (driver.ready() ? "no NVIDIA GPU" : driver.message()) << "\n";
        return 77;
    }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}