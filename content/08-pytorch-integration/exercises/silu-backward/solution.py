import triton
import triton.language as tl


@triton.jit
def silu_bwd(x_ptr, dy_ptr, dx_ptr, n, BLOCK_SIZE: tl.constexpr):
    # dx = dy * d/dx [x * s(x)] = dy * (s + x * s * (1 - s)), s = sigmoid(x).
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    dy = tl.load(dy_ptr + offsets, mask=mask)
    # Recompute s from the saved input rather than saving s in the forward: one exp per element is cheaper
    # than writing and re-reading another n floats. 1 / (1 + exp(-x)) stays finite for every x.
    s = 1.0 / (1.0 + tl.exp(-x))
    # Product rule for x * s(x) with s' = s (1 - s), then the chain rule: multiply by the incoming gradient.
    dx = dy * (s + x * s * (1.0 - s))
    tl.store(dx_ptr + offsets, dx, mask=mask)
