#include "engine/measure/detail/cublas_gemm.h"

#include "engine/common/paths.h"
#include "engine/problem/expr.h"

#include <cublas_api.h>
#include <dlfcn.h>

#include <vector>

namespace tkm::measure::detail {
namespace {

/// cublasGemmEx as the C API declares it (C++ adds an overload, so decltype cannot name it).
using GemmExFn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                                    const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                                    cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);

struct CublasApi
{
    decltype(&::cublasCreate_v2) create = nullptr;
    decltype(&::cublasDestroy_v2) destroy = nullptr;
    decltype(&::cublasSetStream_v2) setStream = nullptr;
    GemmExFn gemmEx = nullptr;
    std::string whyNot;
};

const CublasApi& cublas()
{
    static const CublasApi api = [] {
        CublasApi a;
        const std::vector<std::string> candidates{(engine::cudaRoot() / "lib64" / "libcublas.so.13").string(),
                                                  "libcublas.so.13"};
        void* h = nullptr;
        for (const std::string& c : candidates)
            if ((h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)))
                break;
        if (!h) {
            const char* err = dlerror();
            a.whyNot = "libcublas.so.13 was not found (" + std::string(err ? err : "dlopen failed") +
                       "): install the CUDA toolkit's cuBLAS to see the cuBLAS baseline.";
            return a;
        }
        a.create = reinterpret_cast<decltype(a.create)>(dlsym(h, "cublasCreate_v2"));
        a.destroy = reinterpret_cast<decltype(a.destroy)>(dlsym(h, "cublasDestroy_v2"));
        a.setStream = reinterpret_cast<decltype(a.setStream)>(dlsym(h, "cublasSetStream_v2"));
        a.gemmEx = reinterpret_cast<decltype(a.gemmEx)>(dlsym(h, "cublasGemmEx"));
        if (!a.create || !a.destroy || !a.setStream || !a.gemmEx)
            a.whyNot = "libcublas.so.13 lacks cublasCreate_v2/cublasSetStream_v2/cublasGemmEx.";
        return a;
    }();
    return api;
}

/// cuBLAS data type of a buffer dtype.
bool cudaType(engine::DType t, cudaDataType_t& out)
{
    switch (t) {
    case engine::DType::F16:
        out = CUDA_R_16F;
        return true;
    case engine::DType::BF16:
        out = CUDA_R_16BF;
        return true;
    case engine::DType::F32:
        out = CUDA_R_32F;
        return true;
    case engine::DType::F64:
        out = CUDA_R_64F;
        return true;
    default:
        return false;
    }
}

/// A row-major operand as cuBLAS sees it: pointer, type, leading dimension and whether it is transposed
/// relative to the column-major view of its row-major shape.
struct Operand
{
    CUdeviceptr ptr = 0;
    cudaDataType_t type = CUDA_R_32F;
    int64_t ld = 0;
    bool transposed = false; ///< stored column-major (strides (1, rows))
};

engine::Expected<Operand> operand(const PerfCase& pc, const std::map<std::string, std::string>& gemm, const char* key)
{
    auto it = gemm.find(key);
    if (it == gemm.end())
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 std::string("cublas_gemm baseline: missing \"") + key + "\" (a buffer name).");
    const problem::ArgInstance* a = pc.instance().find(it->second);
    if (!a || a->kind != problem::ParamKind::Buffer || a->shape.size() != 2)
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "cublas_gemm baseline: \"" + it->second + "\" is not a 2-D buffer parameter.");
    Operand o;
    o.ptr = pc.buffer(a->name);
    if (!cudaType(a->dtype, o.type))
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "cublas_gemm baseline: buffer \"" + a->name + "\" must be f16, bf16, f32 or f64.");
    if (a->strides[1] == 1) {
        o.ld = a->strides[0];
    } else if (a->strides[0] == 1) {
        o.ld = a->strides[1];
        o.transposed = true;
    } else {
        return engine::makeError(engine::ErrorKind::BadSpec,
                                 "cublas_gemm baseline: buffer \"" + a->name + "\" has no contiguous dimension.");
    }
    return o;
}

} // namespace

struct CublasGemm::State
{
    cublasHandle_t handle = nullptr;
    Operand a, b, c;
    int m = 0, n = 0, k = 0;
};

CublasGemm::CublasGemm() : m_state(std::make_unique<State>()) {}

CublasGemm::~CublasGemm()
{
    if (m_state->handle)
        cublas().destroy(m_state->handle);
}

engine::Expected<std::unique_ptr<CublasGemm>> CublasGemm::create(const std::map<std::string, std::string>& gemm,
                                                                 const PerfCase& pc)
{
    const CublasApi& api = cublas();
    if (!api.whyNot.empty())
        return engine::makeError(engine::ErrorKind::Internal, api.whyNot);
    std::unique_ptr<CublasGemm> g(new CublasGemm());
    State& s = *g->m_state;
    for (auto [key, dst] : {std::pair{"a", &s.a}, std::pair{"b", &s.b}, std::pair{"c", &s.c}}) {
        auto o = operand(pc, gemm, key);
        if (!o)
            return o.error();
        *dst = *o;
    }
    if (s.c.transposed)
        return engine::makeError(engine::ErrorKind::BadSpec, "cublas_gemm baseline: C must be row-major.");
    for (auto [key, dst] : {std::pair{"m", &s.m}, std::pair{"n", &s.n}, std::pair{"k", &s.k}}) {
        auto it = gemm.find(key);
        if (it == gemm.end())
            return engine::makeError(engine::ErrorKind::BadSpec,
                                     std::string("cublas_gemm baseline: missing \"") + key + "\" (a size expression).");
        auto v = problem::evaluateCount(it->second, pc.instance().variables, std::string("baselines/gemm/") + key);
        if (!v)
            return v.error();
        *dst = static_cast<int>(*v);
    }
    if (cublasStatus_t st = api.create(&s.handle); st != CUBLAS_STATUS_SUCCESS) {
        s.handle = nullptr;
        return engine::makeError(engine::ErrorKind::Cuda,
                                 "cuBLAS could not start (cublasCreate returned " + std::to_string(st) + ").");
    }
    return g;
}

engine::Expected<std::unique_ptr<CublasGemm>> CublasGemm::createRowMajor(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                                                                         int m, int n, int k, engine::DType dtype)
{
    const CublasApi& api = cublas();
    if (!api.whyNot.empty())
        return engine::makeError(engine::ErrorKind::Internal, api.whyNot);
    std::unique_ptr<CublasGemm> g(new CublasGemm());
    State& s = *g->m_state;
    cudaDataType_t type = CUDA_R_16F;
    if (!cudaType(dtype, type))
        return engine::makeError(engine::ErrorKind::BadInput, "cuBLAS GEMM: the dtype must be f16, bf16, f32 or f64.");
    s.a = Operand{a, type, k, false};
    s.b = Operand{b, type, n, false};
    s.c = Operand{c, type, n, false};
    s.m = m;
    s.n = n;
    s.k = k;
    if (cublasStatus_t st = api.create(&s.handle); st != CUBLAS_STATUS_SUCCESS) {
        s.handle = nullptr;
        return engine::makeError(engine::ErrorKind::Cuda,
                                 "cuBLAS could not start (cublasCreate returned " + std::to_string(st) + ").");
    }
    return g;
}

engine::Status CublasGemm::enqueue(CUstream stream) const
{
    const CublasApi& api = cublas();
    const State& s = *m_state;
    if (cublasStatus_t st = api.setStream(s.handle, reinterpret_cast<cudaStream_t>(stream));
        st != CUBLAS_STATUS_SUCCESS)
        return engine::makeError(engine::ErrorKind::Cuda, "cublasSetStream failed (" + std::to_string(st) + ").");
    const float alpha = 1.0f;
    const float beta = 0.0f;
    // Column-major view: Cᵀ (N×M, ld = C's row stride) = Bᵀ (N×K) · Aᵀ (K×M). A row-major operand already is its
    // transpose in column-major order (OP_N); a column-major one needs OP_T.
    const cublasOperation_t opB = s.b.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t opA = s.a.transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    cublasStatus_t st = api.gemmEx(s.handle, opB, opA, s.n, s.m, s.k, &alpha, reinterpret_cast<const void*>(s.b.ptr),
                                   s.b.type, static_cast<int>(s.b.ld), reinterpret_cast<const void*>(s.a.ptr), s.a.type,
                                   static_cast<int>(s.a.ld), &beta, reinterpret_cast<void*>(s.c.ptr), s.c.type,
                                   static_cast<int>(s.c.ld), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        return engine::makeError(engine::ErrorKind::Cuda, "cublasGemmEx failed (status " + std::to_string(st) + ").");
    return {};
}

} // namespace tkm::measure::detail
