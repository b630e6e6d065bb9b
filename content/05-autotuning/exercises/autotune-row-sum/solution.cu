// Row sum in Triton's style, one program per row. Every config (BLOCK_SIZE, NUM_WARPS) is its own compile.
// Triton:                                          CUDA mirror:
//   row = tl.program_id(0)                           blockIdx.x
//   acc = tl.zeros((BLOCK_SIZE,), tl.float32)         four floats per thread (one float4), its lanes of the tile
//   for start in range(0, n_cols, BLOCK_SIZE):        same loop; the threads walk the tile in float4
//       acc += tl.load(..., mask=cols < n_cols, other=0.0)
//   tl.store(out_ptr + row, tl.sum(acc, axis=0))      warp shuffles, then one partial per warp
//
// Speed: each element is read once, in 16-byte loads (float4) after at most three scalar elements that bring a
// padded row to a 16-byte boundary; a thread loads its BLOCK_SIZE / 4 / (32 * NUM_WARPS) float4 of a tile (at
// least four, at most eight) before adding any, so bytes stay in flight. The configs still differ the way
// Triton's do: how much of the row one step covers and how many threads share it.
constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kTileVecs = (BLOCK_SIZE / 4 + kThreads - 1) / kThreads;                  // float4 per thread per tile
constexpr int kPerThread = kTileVecs < 4 ? 4 : (kTileVecs > 8 ? 8 : kTileVecs);      // float4 in flight per thread

extern "C" __global__ void row_sum(const float* __restrict__ x, float* __restrict__ out,
                                   int n_rows, int n_cols, int stride_row)
{
    (void)n_rows;  // the grid has exactly n_rows programs
    const long long row = blockIdx.x;
    const float* row_ptr = x + row * stride_row;

    // Scalar head up to the first 16-byte boundary.
    const int head =
        min(n_cols, static_cast<int>(((16 - (reinterpret_cast<unsigned long long>(row_ptr) & 15)) & 15) / 4));
    float acc = static_cast<int>(threadIdx.x) < head ? row_ptr[threadIdx.x] : 0.0f;
    float4 acc4 = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const float4* v4 = reinterpret_cast<const float4*>(row_ptr + head);
    const int n4 = (n_cols - head) / 4;
    for (int base = 0; base < n4; base += kThreads * kPerThread) {
        float4 v[kPerThread];
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
            // other=0.0 is the identity of +: lanes past the row add nothing.
            v[j] = i < n4 ? v4[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int j = 0; j < kPerThread; ++j) {
            acc4.x += v[j].x;
            acc4.y += v[j].y;
            acc4.z += v[j].z;
            acc4.w += v[j].w;
        }
    }
    // Scalar tail: fewer than four elements after the last whole float4.
    const int tail = head + 4 * n4 + static_cast<int>(threadIdx.x);
    if (tail < n_cols) {
        acc += row_ptr[tail];
    }
    acc += (acc4.x + acc4.y) + (acc4.z + acc4.w);

    for (int offset = 16; offset > 0; offset >>= 1) {
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }
    __shared__ float warp_sums[32];
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    if (lane == 0) {
        warp_sums[warp] = acc;
    }
    __syncthreads();
    if (warp == 0) {
        acc = lane < NUM_WARPS ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset >>= 1) {
            acc += __shfl_down_sync(0xffffffffu, acc, offset);
        }
        if (lane == 0) {
            out[row] = acc;
        }
    }
}
