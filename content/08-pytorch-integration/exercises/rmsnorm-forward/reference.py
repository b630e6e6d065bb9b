import triton
import triton.language as tl


@triton.jit
def rmsnorm_ref(x_ptr, w_ptr, y_ptr, rstd_ptr, stride_x, stride_y, N, eps, BLOCK: tl.constexpr):
    # Float64 judge: the row in one tile, the mean of squares in fp64, eps widened from the fp32 scalar.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < N
    v = tl.load(x_ptr + row * stride_x + offs, mask=inside, other=0.0)
    g = tl.load(w_ptr + offs, mask=inside, other=0.0)
    r = 1.0 / tl.sqrt(tl.sum(v * v, axis=0) / N + eps.to(tl.float64))
    tl.store(rstd_ptr + row, r)
    tl.store(y_ptr + row * stride_y + offs, v * g * r, mask=inside)
