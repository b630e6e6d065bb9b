import triton
import triton.language as tl


@triton.jit
def silu_fwd(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: sigmoid written as exp(x) / (1 + exp(x)). For x above ~88.7, tl.exp overflows to +inf and the
    # quotient is inf / inf = NaN, although sigmoid(x) is simply 1 there and SiLU is the identity.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    e = tl.exp(x)
    tl.store(y_ptr + offsets, x * (e / (1.0 + e)), mask=mask)
