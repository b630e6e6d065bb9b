// Row max of a strided M x N matrix: one program per row, the row swept in tiles of BLOCK_SIZE columns.
// Triton:
//   row_ptr = x_ptr + row * stride_row
//   acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
//   for c0 in range(0, N, BLOCK_SIZE):
//       cols = c0 + tl.arange(0, BLOCK_SIZE)
//       v = tl.load(row_ptr + cols * stride_col, mask=cols < N, other=float("-inf"))
//       acc = tl.maximum(acc, v)
//   tl.store(out_ptr + row, tl.max(acc, axis=0))
//
// Speed: every element is read once, so the kernel is as fast as its loads. When the columns are contiguous
// (stride_col == 1, what Triton specialises on) the row moves in 16-byte loads (float4) after at most three
// scalar elements that bring the address to a 16-byte boundary, and each thread has at least four float4 in
// flight per step. Any other stride (a transposed view) takes the element-by-element path.
#define NEG_INF (-__int_as_float(0x7f800000))

constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kTileVecs = (BLOCK_SIZE / 4 + kThreads - 1) / kThreads;                  // float4 per thread per tile
constexpr int kPerThread = kTileVecs < 4 ? 4 : (kTileVecs > 8 ? 8 : kTileVecs);      // float4 in flight per thread

__device__ __forceinline__ float warp_max(float v)
{
    // Butterfly: after 5 steps every lane holds the max of all 32 lanes.
    for (int lane_mask = 16; lane_mask > 0; lane_mask >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, lane_mask));
    }
    return v;
}

// This thread's max over a contiguous row of n floats.
__device__ float contiguous_max(const float* row_ptr, int n)
{
    // Scalar head up to the first 16-byte boundary (a padded row can start anywhere).
    const int head = min(n, static_cast<int>(((16 - (reinterpret_cast<unsigned long long>(row_ptr) & 15)) & 15) / 4));
    float m = static_cast<int>(threadIdx.x) < head ? row_ptr[threadIdx.x] : NEG_INF;
    const float4* v4 = reinterpret_cast<const float4*>(row_ptr + head);
    const int n4 = (n - head) / 4;
    for (int base = 0; base < n4; base += kThreads * kPerThread) {
        float4 v[kPerThread];
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
            v[j] = i < n4 ? v4[i] : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
        }
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            m = fmaxf(m, fmaxf(fmaxf(v[j].x, v[j].y), fmaxf(v[j].z, v[j].w)));
        }
    }
    // Scalar tail: fewer than four elements after the last whole float4.
    const int tail = head + 4 * n4 + static_cast<int>(threadIdx.x);
    if (tail < n) {
        m = fmaxf(m, row_ptr[tail]);
    }
    return m;
}

extern "C" __global__ void row_max(const float* __restrict__ x, float* __restrict__ out, int M, int N,
                                   int stride_row, int stride_col)
{
    (void)M;  // the grid has exactly M programs
    const long long row = blockIdx.x;
    const float* row_ptr = x + row * stride_row;  // strides are in elements, never assume N

    float m = NEG_INF;  // each thread's share of acc
    if (stride_col == 1) {
        m = contiguous_max(row_ptr, N);
    } else {
        for (int c0 = 0; c0 < N; c0 += BLOCK_SIZE) {
            for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
                const int col = c0 + i;
                // mask = cols < N, other = -inf: the identity of max, so padded lanes never win.
                const float v = col < N ? row_ptr[static_cast<long long>(col) * stride_col] : NEG_INF;
                m = fmaxf(m, v);
            }
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
