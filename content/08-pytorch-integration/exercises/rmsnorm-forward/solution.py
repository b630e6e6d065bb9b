import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    # RMSNorm: y = x / sqrt(mean(x^2) + eps) * w. Unlike layer norm there is no mean to subtract and no bias.
    # One program per row; BLOCK_SIZE = next_power_of_2(N), so the whole row is one tile.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    # Padding lanes read 0.0: they add nothing to the sum of squares.
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    # The mean over the N real columns; eps bounds rstd by 1 / sqrt(eps): a row of zeros stays finite, and a row of tiny values stays tiny.
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    # Saved for the backward pass: one float per row is cheaper to read back than the row is to reduce again.
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride_y + cols, x * rstd * w, mask=mask)
