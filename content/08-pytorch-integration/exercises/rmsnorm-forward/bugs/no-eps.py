import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    # Bug: eps is left out. A row of values near 1e-20 is scaled up to unit size instead of staying near 0 (and a
    # row of exact zeros would give rstd = 1 / sqrt(0) = inf, y = 0 * inf = NaN).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N)
    tl.store(rstd_ptr + row, rstd)
    tl.store(y_ptr + row * stride_y + cols, x * rstd * w, mask=mask)
