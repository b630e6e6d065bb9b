import triton
import triton.language as tl


@triton.jit
def silu_bwd(x_ptr, dy_ptr, dx_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: the derivative of x * s(x) taken as s(x) alone, as if x were a constant: the product rule's
    # x * s * (1 - s) term is missing.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    dy = tl.load(dy_ptr + offsets, mask=mask)
    s = 1.0 / (1.0 + tl.exp(-x))
    tl.store(dx_ptr + offsets, dy * s, mask=mask)
