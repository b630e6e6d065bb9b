// Bug: the masked lanes are filled with 0.0 instead of -inf (other=0.0 on a max). A row whose values are all
// negative returns 0 whenever its last tile has masked lanes (N not a multiple of BLOCK_SIZE).
#define NEG_INF (-__int_as_float(0x7f800000))

__device__ __forceinline__ float warp_max(float v)
{
    // Butterfly: after 5 steps every lane holds the max of all 32 lanes.
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane_mask));
    }
    return v;
}

extern "C" __global__ void row_max(const float* __restrict__ x, float* __restrict__ out, int M, int N,
                                   int stride_row, int stride_col)
{
    (void)M;  // the grid has exactly M programs
    const long long row = blockIdx.x;
    const float* row_ptr = x + row * stride_row;  // strides are in elements, never assume N

    float m = NEG_INF;  // each thread's share of acc
    for (int c0 = 0; c0 < N; c0 += BLOCK_SIZE) {
        for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
            const int col = c0 + i;
            // other=0.0, as for a sum. Wrong for max: a masked lane beats every value of an all-negative row.
            const float v = col < N ? row_ptr[static_cast<long long>(col) * stride_col] : 0.0f;
            m = fmaxf(m, v);
        }
    }

    // tl.max(acc, axis=0): within each warp by shuffles, then across the warps through shared memory.
    __shared__ float partial[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int num_warps = blockDim.x >> 5;
    m = warp_max(m);
    if (lane == 0) {
        partial[warp] = m;
    }
    __syncthreads();
    if (warp == 0) {
        m = lane < num_warps ? partial[lane] : NEG_INF;
        m = warp_max(m);
        if (lane == 0) {
            out[row] = m;
        }
    }
}
