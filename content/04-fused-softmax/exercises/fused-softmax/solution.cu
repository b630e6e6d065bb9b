// Fused row softmax: one program (thread block) per row; the row is read from DRAM once, kept on chip, and the
// result written once. block_size = pow2ceil(N) is Triton's BLOCK_SIZE = triton.next_power_of_2(n_cols); it arrives
// at run time here because it changes with every case, and sizes the dynamic shared-memory tile.
// Triton:
//   row = tl.load(x_ptr + row_id * stride_x + cols, mask=cols < N, other=-float("inf"))
//   z = row - tl.max(row, axis=0)
//   num = tl.exp(z)
//   tl.store(out_ptr + row_id * stride_out + cols, num / tl.sum(num, axis=0), mask=cols < N)
//
// Speed: when the row fits (N <= 32 floats per thread) and both rows start 16-byte aligned, the row lives in
// registers: each thread loads its float4 once, and max, exp, sum and the divide all work on those registers, so
// the row costs one DRAM read and one write and no shared-memory round trips. Other rows (very long, or a padded
// row that starts off a 16-byte boundary) take the shared-memory tile below.

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

constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kRegVecs = 8;  // float4 per thread held in registers: rows up to 32 * kThreads floats

// The row in registers. Returns false (having done nothing) when it does not fit or is not 16-byte aligned.
__device__ bool softmax_in_registers(const float* xr, float* orow, int N, float* scratch)
{
    const bool aligned = ((reinterpret_cast<unsigned long long>(xr) | reinterpret_cast<unsigned long long>(orow)) & 15) == 0;
    if (!aligned || N > 4 * kRegVecs * kThreads) {
        return false;  // the same for every thread of the block: no thread reaches a barrier alone
    }
    const float4* x4 = reinterpret_cast<const float4*>(xr);
    float4* o4 = reinterpret_cast<float4*>(orow);
    const int n4 = N / 4;
    const int tail = 4 * n4 + static_cast<int>(threadIdx.x);  // fewer than 4 elements after the last float4
    float4 v[kRegVecs];
    float m = NEG_INF;
#pragma unroll
    for (int j = 0; j < kRegVecs; ++j) {
        const int i = j * kThreads + static_cast<int>(threadIdx.x);
        // Lanes past N take -inf: they never win the max and exp(-inf) = 0 adds nothing to the sum.
        v[j] = i < n4 ? x4[i] : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
        m = fmaxf(m, fmaxf(fmaxf(v[j].x, v[j].y), fmaxf(v[j].z, v[j].w)));
    }
    float t = tail < N ? xr[tail] : NEG_INF;
    m = block_max(fmaxf(m, t), scratch);

    float s = 0.0f;
#pragma unroll
    for (int j = 0; j < kRegVecs; ++j) {
        if (4 * j * kThreads < N) {  // the same for the whole block: float4 slots wholly past N are skipped
            v[j] = make_float4(expf(v[j].x - m), expf(v[j].y - m), expf(v[j].z - m), expf(v[j].w - m));
            s += (v[j].x + v[j].y) + (v[j].z + v[j].w);
        }
    }
    t = expf(t - m);
    s = block_sum(s + t, scratch);

#pragma unroll
    for (int j = 0; j < kRegVecs; ++j) {
        const int i = j * kThreads + static_cast<int>(threadIdx.x);
        if (i < n4) {
            o4[i] = make_float4(v[j].x / s, v[j].y / s, v[j].z / s, v[j].w / s);
        }
    }
    if (tail < N) {
        orow[tail] = t / s;
    }
    return true;
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
    if (softmax_in_registers(xr, orow, N, scratch)) {
        return;
    }

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
