#pragma once
// cuBLAS GEMM baseline: libcublas.so.13 from the toolkit, loaded at run time (dlopen), so the engine starts where
// cuBLAS is missing. Row-major C[M×N] = A[M×K]·B[K×N] is computed as the column-major product Cᵀ = Bᵀ·Aᵀ with
// cublasGemmEx (inputs in the buffers' dtype, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT).

#include "engine/common/error.h"
#include "engine/measure/perf_case.h"

#include <cuda.h>

#include <map>
#include <memory>
#include <string>

namespace tkm::measure::detail {

/// One configured GEMM on a performance case's buffers. Owns its cuBLAS handle.
class CublasGemm
{
public:
    /// `gemm` is the spec's {"a", "b", "c", "m", "n", "k", "dtype"} (buffer names and size expressions).
    /// Errors: libcublas missing, an unknown buffer, a layout cuBLAS cannot take (neither dimension contiguous),
    /// an unsupported dtype, cublasCreate failing.
    static engine::Expected<std::unique_ptr<CublasGemm>> create(const std::map<std::string, std::string>& gemm,
                                                                const PerfCase& pc);
    /// A GEMM on contiguous row-major buffers: C[m×n] = A[m×k]·B[k×n], all of `dtype` (f16, bf16, f32, f64), as the
    /// calibration's tensor-core figure uses. Errors: libcublas missing, an unsupported dtype, cublasCreate failing.
    static engine::Expected<std::unique_ptr<CublasGemm>> createRowMajor(CUdeviceptr a, CUdeviceptr b, CUdeviceptr c,
                                                                        int m, int n, int k, engine::DType dtype);
    ~CublasGemm();
    CublasGemm(const CublasGemm&) = delete;            ///< owns a cuBLAS handle
    CublasGemm& operator=(const CublasGemm&) = delete; ///< owns a cuBLAS handle

    /// Enqueues the GEMM on `stream` (asynchronous).
    engine::Status enqueue(CUstream stream) const;

    struct State; ///< implementation

private:
    CublasGemm();
    std::unique_ptr<State> m_state;
};

} // namespace tkm::measure::detail
