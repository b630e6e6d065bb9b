import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    # Bug: the mean of squares divides by BLOCK_SIZE, the tile width, not by N. Rows whose width is not a power
    # of two get too small a mean, too large an rstd.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / BLOCK_SIZE + eps)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride_y + cols, x * rstd * w, mask=mask)
