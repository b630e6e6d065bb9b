import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    # Bug: the column offsets forget the loop's start. Every step loads the row's first tile again, so a
    # row wider than BLOCK_SIZE sums its first BLOCK_SIZE columns cdiv(n_cols, BLOCK_SIZE) times.
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = tl.arange(0, BLOCK_SIZE)
        acc += tl.load(row_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
