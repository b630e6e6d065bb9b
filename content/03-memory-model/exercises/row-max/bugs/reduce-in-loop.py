import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    # Bug: the running max starts as a BLOCK_SIZE-wide tile but is reassigned a scalar (tl.max of the tile)
    # inside the loop. A loop-carried variable must keep its type and shape across iterations, so Triton
    # refuses to compile this. Either reduce after the loop or start from a scalar -inf.
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        v = tl.load(row_ptr + cols * stride_col, mask=cols < N, other=float("-inf"))
        acc = tl.max(tl.maximum(acc, v), axis=0)
    tl.store(out_ptr + row, acc)
