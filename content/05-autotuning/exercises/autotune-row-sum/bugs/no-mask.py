import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    # Bug: no column mask. When n_cols is not a multiple of BLOCK_SIZE the last step of every row reads past
    # the row (into the next row's values, silently), and on the last row past the end of x.
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(row_ptr + cols)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
