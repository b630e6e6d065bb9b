// Row sum in Triton's style, one program per row. Every config (BLOCK_SIZE, NUM_WARPS) is its own compile.
// Triton:                                          CUDA mirror:
//   row = tl.program_id(0)                           blockIdx.x
//   acc = tl.zeros((BLOCK_SIZE,), tl.float32)         one float per thread, its lanes of the tile
//   for start in range(0, n_cols, BLOCK_SIZE):        same loop; the threads walk the tile
//       acc += tl.load(..., mask=cols < n_cols, other=0.0)
//   tl.store(out_ptr + row, tl.sum(acc, axis=0))      warp shuffles, then one partial per warp
extern "C" __global__ void row_sum(const float* __restrict__ x, float* __restrict__ out,
                                   int n_rows, int n_cols, int stride_row)
{
    const long long row = blockIdx.x;
    const float* row_ptr = x + row * stride_row;
    float acc = 0.0f;
    for (int start = 0; start < n_cols; start += BLOCK_SIZE) {
        for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
            const int col = start + i;
            if (col < n_cols) {
                acc += row_ptr[col];
            }
        }
    }
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
