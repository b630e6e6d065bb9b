import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    # Bug: the store has no mask. The BLOCK_SIZE - N padding lanes are written after the row: into the next
    # row, and past the end of y for the last one.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride_y + cols, x * rstd * w)
