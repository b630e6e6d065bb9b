import triton
import triton.language as tl


@triton.jit
def silu_bwd_ref(x_ptr, dy_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    # Float64 judge: the analytic gradient of x * sigmoid(x), in fp64.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    dy = tl.load(dy_ptr + offs, mask=keep)
    s = 1.0 / (1.0 + tl.exp(-x))
    tl.store(dx_ptr + offs, dy * (s + x * s * (1.0 - s)), mask=keep)
