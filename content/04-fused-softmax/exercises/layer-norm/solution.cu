// Layer-norm forward, CUDA track: one thread block per row (grid M, 32 * NUM_WARPS threads); the threads
// stride over the row, so its width is not limited by the block. Two-pass statistics as in the Triton track:
// the mean, then the mean of squared deviations. BLOCK_SIZE (a macro) is the Triton track's chunk width and
// is not needed here.
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

extern "C" __global__ void layer_norm_fwd(const float* __restrict__ x, float* __restrict__ y,
                                          const float* __restrict__ w, const float* __restrict__ b,
                                          float* __restrict__ mean, float* __restrict__ rstd, int stride_x,
                                          int stride_y, int N, float eps, int M)
{
    (void)M;  // the grid has exactly M programs
    __shared__ float scratch[32];
    const long long row = blockIdx.x;
    const float* xr = x + row * stride_x;
    float* yr = y + row * stride_y;

    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        s += xr[i];
    }
    const float mu = block_sum(s, scratch) / N;

    float q = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        const float d = xr[i] - mu;
        q += d * d;
    }
    const float r = rsqrtf(block_sum(q, scratch) / N + eps);
    if (threadIdx.x == 0) {
        mean[row] = mu;
        rstd[row] = r;
    }
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        yr[i] = (xr[i] - mu) * r * w[i] + b[i];
    }
}
