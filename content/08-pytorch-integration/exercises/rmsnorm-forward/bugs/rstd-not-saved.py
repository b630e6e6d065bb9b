import triton
import triton.language as tl


@triton.jit
def rmsnorm_fwd(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK_SIZE: tl.constexpr):
    # Bug: rstd is computed but never stored. y is right, but the op's second output, which setup_context
    # saves for the backward pass, is left unwritten.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(y_ptr + row * stride_y + cols, x * rstd * w, mask=mask)
