import triton
import triton.language as tl


@triton.jit
def silu_bwd(x_ptr, dy_ptr, dx_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: returns the local derivative d SiLU / dx and forgets to multiply by the incoming gradient dy. Only
    # right when every upstream gradient is 1 (a loss that is a plain sum of y).
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    s = 1.0 / (1.0 + tl.exp(-x))
    tl.store(dx_ptr + offsets, s + x * s * (1.0 - s), mask=mask)
