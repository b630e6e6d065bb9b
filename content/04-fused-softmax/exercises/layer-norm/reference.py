import triton
import triton.language as tl


@triton.jit
def layer_norm_ref(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride_x, stride_y, N, eps,
                   BLOCK: tl.constexpr):
    # Float64 judge: one program per row, chunks of BLOCK, two-pass mean and variance in fp64. eps arrives as
    # the fp32 scalar the learner gets and is widened, so both sides add the same number.
    row = tl.program_id(0)
    total = tl.zeros([BLOCK], dtype=tl.float64)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        total += tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0)
    mu = tl.sum(total, axis=0) / N
    total = tl.zeros([BLOCK], dtype=tl.float64)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0)
        dev = tl.where(cols < N, v - mu, 0.0)
        total += dev * dev
    r = 1.0 / tl.sqrt(tl.sum(total, axis=0) / N + eps.to(tl.float64))
    tl.store(mean_ptr + row, mu)
    tl.store(rstd_ptr + row, r)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride_x + cols, mask=cols < N, other=0.0)
        g = tl.load(w_ptr + cols, mask=cols < N, other=0.0)
        h = tl.load(b_ptr + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + row * stride_y + cols, (v - mu) * r * g + h, mask=cols < N)
