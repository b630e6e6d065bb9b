// out[row] = sum of x[row, 0 .. n_cols-1], one program (thread block) per row.
// Row `row` starts at x + row * stride_row. The block has 32 * NUM_WARPS threads; BLOCK_SIZE is the tile width.
extern "C" __global__ void row_sum(const float* __restrict__ x, float* __restrict__ out,
                                   int n_rows, int n_cols, int stride_row)
{
    const long long row = blockIdx.x;  // tl.program_id(0)
    const float* row_ptr = x + row * stride_row;
    float acc = 0.0f;
    // TODO: walk the row in steps of BLOCK_SIZE; the threads share each step; mask with col < n_cols.
    // TODO: reduce acc over the whole block (warp shuffles, then one partial per warp in shared memory)
    //       and let one thread store out[row].
}
