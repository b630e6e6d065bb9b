// Matmul, CUDA track for comparison: the same 2-D grid of BLOCK_M x BLOCK_N tiles of C, each thread of the
// block computing tile elements t = threadIdx.x, + blockDim.x, ... straight from global memory with an fp32
// accumulator. Correct and simple, not fast: no shared-memory staging and no tensor cores (module 06's
// matmul-fp16 exercise does the staging by hand; the Triton track gets both from tl.dot).
#include <cuda_fp16.h>

extern "C" __global__ void matmul_bp(const __half* __restrict__ a, const __half* __restrict__ b, __half* __restrict__ c,
                                     int M, int N, int K, int stride_am, int stride_ak, int stride_bk, int stride_bn,
                                     int stride_cm, int stride_cn)
{
    for (int t = threadIdx.x; t < BLOCK_M * BLOCK_N; t += blockDim.x) {
        const int row = blockIdx.x * BLOCK_M + t / BLOCK_N;
        const int col = blockIdx.y * BLOCK_N + t % BLOCK_N;
        if (row >= M || col >= N) {
            continue;
        }
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc = fmaf(__half2float(a[static_cast<long long>(row) * stride_am + static_cast<long long>(k) * stride_ak]),
                       __half2float(b[static_cast<long long>(k) * stride_bk + static_cast<long long>(col) * stride_bn]), acc);
        }
        c[static_cast<long long>(row) * stride_cm + static_cast<long long>(col) * stride_cn] = __float2half_rn(acc);
    }
}
