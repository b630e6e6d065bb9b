// Fused row softmax: one program (thread block) per row; the row is read from DRAM once, kept on chip, and the
// result written once. block_size = pow2ceil(N) is Triton's BLOCK_SIZE = triton.next_power_of_2(n_cols); it arrives
// at run time here because it changes with every case, and sizes the dynamic shared-memory tile.
// Triton:
//   row = tl.load(x_ptr + row_id * stride_x + cols, mask=cols < N, other=-float("inf"))
//   z = row - tl.max(row, axis=0)
//   num = tl.exp(z)
//   tl.store(out_ptr + row_id * stride_out + cols, num / tl.sum(num, axis=0), mask=cols < N)
#define NEG_INF (-__int_as_float(0x7f800000))

__device__ __forceinline__ float warp_max(float v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane_mask));
    }
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, lane_mask);
    }
    return v;
}

// tl.max over the block: every thread gets the result. `scratch` holds one partial per warp.
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
    __syncthreads();  // scratch is reused by the next reduction
    return v;
}

// tl.sum over the block: every thread gets the result.
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
    __syncthreads();
    return v;
}

extern "C" __global__ void softmax(const float* __restrict__ x, float* __restrict__ out, int M, int N,
                                   int stride_x, int stride_out, int block_size)
{
    (void)M;  // the grid has exactly M programs
    extern __shared__ float tile[];  // block_size floats: the row, on chip
    __shared__ float scratch[32];
    const long long row = blockIdx.x;
    const float* xr = x + row * stride_x;
    float* orow = out + row * stride_out;

    // Load once. Lanes past N take -inf: they never win the max and exp(-inf) = 0 adds nothing to the sum.
    float m = NEG_INF;
    for (int i = threadIdx.x; i < block_size; i += blockDim.x) {
        const float v = i < N ? xr[i] : NEG_INF;
        tile[i] = v;
        m = fmaxf(m, v);
    }
    m = block_max(m, scratch);

    // Shift by the max (every exponent <= 0, so exp <= 1), exponentiate in place, sum.
    float s = 0.0f;
    for (int i = threadIdx.x; i < block_size; i += blockDim.x) {
        const float e = expf(tile[i] - m);
        tile[i] = e;
        s += e;
    }
    s = block_sum(s, scratch);

    // One store per valid element. Each thread reads back only the tile entries it wrote itself.
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        orow[i] = tile[i] / s;
    }
}
