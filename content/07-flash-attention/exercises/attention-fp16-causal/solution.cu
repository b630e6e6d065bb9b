// Flash attention in fp16, CUDA track for comparison: block b owns query rows b * BLOCK_M ...; each thread takes
// one query row and streams over the keys it may see (all of them, or 0..row when causal) with the online
// softmax in fp32, one key at a time. Correct and simple, not fast: no tiles in shared memory, no tensor cores.
#include <cuda_fp16.h>

extern "C" __global__ void attention_fp16(const __half* __restrict__ q, const __half* __restrict__ k,
                                          const __half* __restrict__ v, __half* __restrict__ o, int n_ctx,
                                          float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                                          int stride_on, int causal)
{
    for (int t = threadIdx.x; t < BLOCK_M; t += blockDim.x) {
        const long long row = static_cast<long long>(blockIdx.x) * BLOCK_M + t;
        if (row >= n_ctx) {
            continue;
        }
        float qr[HEAD_DIM];
        float acc[HEAD_DIM];
        for (int d = 0; d < HEAD_DIM; ++d) {
            qr[d] = __half2float(q[row * stride_qn + d]);
            acc[d] = 0.0f;
        }
        const long long last = causal ? row : n_ctx - 1;
        float m = -__int_as_float(0x7f800000);
        float l = 0.0f;
        for (long long j = 0; j <= last; ++j) {
            float s = 0.0f;
            for (int d = 0; d < HEAD_DIM; ++d) {
                s = fmaf(qr[d], __half2float(k[j * stride_kn + d]), s);
            }
            s *= sm_scale;
            const float m_new = fmaxf(m, s);
            const float alpha = expf(m - m_new);
            const float p = expf(s - m_new);
            l = l * alpha + p;
            for (int d = 0; d < HEAD_DIM; ++d) {
                acc[d] = acc[d] * alpha + p * __half2float(v[j * stride_vn + d]);
            }
            m = m_new;
        }
        for (int d = 0; d < HEAD_DIM; ++d) {
            o[row * stride_on + d] = __float2half_rn(acc[d] / l);
        }
    }
}
