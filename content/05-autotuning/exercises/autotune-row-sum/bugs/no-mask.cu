// Bug: no mask. When n_cols is not a multiple of BLOCK_SIZE the last step of each row reads past the row;
// on the last row that is past the end of x.
extern "C" __global__ void row_sum(const float* __restrict__ x, float* __restrict__ out,
                                   int n_rows, int n_cols, int stride_row)
{
    const long long row = blockIdx.x;
    const float* row_ptr = x + row * stride_row;
    float acc = 0.0f;
    for (int start = 0; start < n_cols; start += BLOCK_SIZE) {
        for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
            acc += row_ptr[start + i];  // no col < n_cols: the last step runs past the row
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
