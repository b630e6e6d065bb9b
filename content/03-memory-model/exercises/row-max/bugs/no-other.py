import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    # Bug: a mask but no other=. The masked-off lanes are not loaded, but they still hold a value, and
    # Triton does not promise which one (the interpreter gives 0). Folded into the max, it beats every
    # value of an all-negative row. A masked load feeding a reduction always needs the reduction's identity.
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        v = tl.load(row_ptr + cols * stride_col, mask=cols < N)
        acc = tl.maximum(acc, v)
    tl.store(out_ptr + row, tl.max(acc, axis=0))
