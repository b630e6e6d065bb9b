// RMSNorm backward, CUDA track: block b owns rows b * ROWS_PER_PROGRAM ... (clamped to M), threads striding over
// the columns. dx per row needs one block-wide sum of (dy * w * x); dw is summed over rows with one atomicAdd per
// element and row (simple, not fast: a faster kernel would keep per-thread column partials).
__device__ __forceinline__ float warp_sum(float v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
    }
    return v;
}

// tl.sum over the thread block: every thread must call it, every thread gets the total.
__device__ float block_sum(float v, float* scratch)
{
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    v = lane < (int)(blockDim.x >> 5) ? scratch[lane] : 0.0f;
    v = warp_sum(v);
    __syncthreads();  // scratch is reused by the next call
    return v;
}

extern "C" __global__ void rmsnorm_bwd(const float* __restrict__ dy, const float* __restrict__ x,
                                       const float* __restrict__ w, const float* __restrict__ rstd,
                                       float* __restrict__ dx, float* __restrict__ dw, int stride_row, int M, int N)
{
    __shared__ float scratch[32];
    const int row_start = blockIdx.x * ROWS_PER_PROGRAM;
    const int row_end = min(row_start + ROWS_PER_PROGRAM, M);
    for (int row = row_start; row < row_end; ++row) {
        const long long base = static_cast<long long>(row) * stride_row;
        const float r = rstd[row];
        float part = 0.0f;
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            part += dy[base + i] * w[i] * x[base + i];
        }
        const float c = block_sum(part, scratch) / N;
        for (int i = threadIdx.x; i < N; i += blockDim.x) {
            const float g = dy[base + i] * w[i];
            dx[base + i] = r * g - x[base + i] * (r * r * r * c);
            atomicAdd(&dw[i], dy[base + i] * x[base + i] * r);
        }
    }
}
