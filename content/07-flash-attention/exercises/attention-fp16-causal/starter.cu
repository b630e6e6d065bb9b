// Flash attention in fp16, CUDA track: grid cdiv(N, BLOCK_M), 32 * NUM_WARPS threads; block b owns query rows
// b * BLOCK_M ... (< n_ctx). o[row] = sum over visible keys j of softmax_j(sm_scale * q[row] . k[j]) * v[j], the
// visible keys being all of them, or 0..row when causal != 0. fp16 storage, fp32 arithmetic; HEAD_DIM is a macro.
#include <cuda_fp16.h>

extern "C" __global__ void attention_fp16(const __half* __restrict__ q, const __half* __restrict__ k,
                                          const __half* __restrict__ v, __half* __restrict__ o, int n_ctx,
                                          float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                                          int stride_on, int causal)
{
    // TODO: per query row, a running max, a running sum and a running output, rescaled when the max grows.
    (void)q; (void)k; (void)v; (void)o; (void)n_ctx; (void)sm_scale; (void)stride_qn; (void)stride_kn;
    (void)stride_vn; (void)stride_on; (void)causal;
}
