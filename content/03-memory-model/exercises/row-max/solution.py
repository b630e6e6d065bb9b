import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    # out[row] = max_j x[row, j] for an M x N view that may be padded (stride_row > N) or transposed
    # (stride_row = 1, stride_col = M). One program per row: the grid is M, so M itself is not needed.
    row = tl.program_id(axis=0)
    # Strides are in elements, as torch.Tensor.stride() gives them. Widen the row offset to int64 before
    # multiplying: row * stride_row overflows int32 for tensors past 2^31 elements.
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    # A tile-wide running max, one slot per lane, reduced once after the loop: the loop body stays purely
    # elementwise (no cross-thread work per step). -inf is the identity of max.
    acc = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for c0 in range(0, N, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        # other=-inf, not 0.0: a masked lane must not win, and a row of negative numbers would
        # otherwise get a max of 0.
        v = tl.load(row_ptr + cols * stride_col, mask=cols < N, other=float("-inf"))
        acc = tl.maximum(acc, v)
    tl.store(out_ptr + row, tl.max(acc, axis=0))
