// Wide-row softmax, CUDA track: one thread block per row (grid M, 32 * NUM_WARPS threads). Each thread runs
// the online update over its own columns (a running max and a sum rescaled whenever that max grows), the
// block combines the per-thread pairs, and a second sweep writes exp(x - m) / l.
#define NEG_INF (-__int_as_float(0x7f800000))

__device__ __forceinline__ float warp_max(float v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane_mask));
    }
    return v;
}

// tl.max over the thread block: every thread must call it, every thread gets the result.
__device__ float block_max(float v, float* scratch)
{
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_max(v);
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    v = lane < (int)(blockDim.x >> 5) ? scratch[lane] : NEG_INF;
    v = warp_max(v);
    __syncthreads();
    return v;
}

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

extern "C" __global__ void softmax_online(const float* __restrict__ x, float* __restrict__ out, int M, int N,
                                          int stride_x, int stride_out)
{
    (void)M;  // the grid has exactly M programs
    __shared__ float scratch[32];
    const long long row = blockIdx.x;
    const float* xr = x + row * stride_x;
    float* orow = out + row * stride_out;

    // Per thread: m starts at -inf and l at 0; the first real column makes m finite (exp(-inf - x) = 0).
    float m = NEG_INF;
    float l = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        const float v = xr[i];
        const float m_new = fmaxf(m, v);
        l = l * expf(m - m_new) + expf(v - m_new);
        m = m_new;
    }
    // Combine: a thread with no columns has l = 0 and contributes 0 * exp(-inf - mr) = 0.
    const float mr = block_max(m, scratch);
    const float lr = block_sum(m == NEG_INF ? 0.0f : l * expf(m - mr), scratch);
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        orow[i] = expf(xr[i] - mr) / lr;
    }
}
