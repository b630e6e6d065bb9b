import triton
import triton.language as tl


@triton.jit
def silu_bwd(x_ptr, dy_ptr, dx_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: sigmoid as exp(x) / (1 + exp(x)). For x above ~88.7 both overflow to +inf and s = NaN, so the
    # gradient of large positive activations, where SiLU is the identity with slope 1, comes out NaN.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    dy = tl.load(dy_ptr + offsets, mask=mask)
    e = tl.exp(x)
    s = e / (1.0 + e)
    tl.store(dx_ptr + offsets, dy * (s + x * s * (1.0 - s)), mask=mask)
