// RMSNorm forward, CUDA track: one thread block per row (grid M, 32 * NUM_WARPS threads), threads striding
// over the columns, one block-wide sum of squares.
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

extern "C" __global__ void rmsnorm_fwd(const float* __restrict__ x, const float* __restrict__ w,
                                       float* __restrict__ y, float* __restrict__ rstd, int stride_x, int stride_y,
                                       int N, float eps, int M)
{
    (void)M;  // the grid has exactly M programs
    __shared__ float scratch[32];
    const long long row = blockIdx.x;
    const float* xr = x + row * stride_x;
    float q = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        q += xr[i] * xr[i];
    }
    const float r = rsqrtf(block_sum(q, scratch) / N + eps);
    if (threadIdx.x == 0) {
        rstd[row] = r;
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        y[row * stride_y + i] = xr[i] * r * w[i];
    }
}
