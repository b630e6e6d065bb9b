// The unfused softmax, as eager PyTorch composes it from separate operations:
//   row_max = x.max(dim=1); shifted = x - row_max[:, None]; numer = exp(shifted);
//   row_sum = numer.sum(dim=1); out = numer / row_sum[:, None]
// Five kernels, every intermediate in DRAM: 5MN + 2M elements read, 3MN + 2M written.
#define NEG_INF (-__int_as_float(0x7f800000))

__device__ float block_reduce(float v, bool is_max)
{
    __shared__ float scratch[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        const float o = __shfl_xor_sync(0xffffffffu, v, lane_mask);
        v = is_max ? fmaxf(v, o) : v + o;
    }
    if (lane == 0) {
        scratch[warp] = v;
    }
    __syncthreads();
    v = lane < (int)(blockDim.x >> 5) ? scratch[lane] : (is_max ? NEG_INF : 0.0f);
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        const float o = __shfl_xor_sync(0xffffffffu, v, lane_mask);
        v = is_max ? fmaxf(v, o) : v + o;
    }
    return v;
}

// Reads M x N, writes M.
extern "C" __global__ void row_max_kernel(const float* x, float* row_max, int M, int N, int stride_x)
{
    (void)M;
    const float* xr = x + static_cast<long long>(blockIdx.x) * stride_x;
    float m = NEG_INF;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        m = fmaxf(m, xr[i]);
    }
    m = block_reduce(m, true);
    if (threadIdx.x == 0) {
        row_max[blockIdx.x] = m;
    }
}

// Reads M x N (+ M), writes M x N.
extern "C" __global__ void subtract_kernel(const float* x, const float* row_max, float* shifted, int M, int N,
                                           int stride_x)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx < static_cast<long long>(M) * N) {
        const long long r = idx / N;
        const long long c = idx % N;
        shifted[idx] = x[r * stride_x + c] - row_max[r];
    }
}

// Reads M x N, writes M x N.
extern "C" __global__ void exp_kernel(const float* shifted, float* numer, int M, int N)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx < static_cast<long long>(M) * N) {
        numer[idx] = expf(shifted[idx]);
    }
}

// Reads M x N, writes M.
extern "C" __global__ void row_sum_kernel(const float* numer, float* row_sum, int M, int N)
{
    (void)M;
    const float* nr = numer + static_cast<long long>(blockIdx.x) * N;
    float s = 0.0f;
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        s += nr[i];
    }
    s = block_reduce(s, false);
    if (threadIdx.x == 0) {
        row_sum[blockIdx.x] = s;
    }
}

// Reads M x N (+ M), writes M x N.
extern "C" __global__ void divide_kernel(const float* numer, const float* row_sum, float* out, int M, int N,
                                         int stride_out)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx < static_cast<long long>(M) * N) {
        const long long r = idx / N;
        const long long c = idx % N;
        out[r * stride_out + c] = numer[idx] / row_sum[r];
    }
}
