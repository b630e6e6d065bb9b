import triton
import triton.language as tl


@triton.jit
def silu_fwd(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    # y = x * sigmoid(x), one tile of BLOCK_SIZE elements per program (the vector-add skeleton).
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    # sigmoid as 1 / (1 + exp(-x)) saturates cleanly at both ends: for x << 0, exp(-x) overflows to +inf and
    # the quotient is exactly 0; for x >> 0, exp(-x) is 0 and the quotient is 1. (tl.sigmoid is the same
    # formula.) exp(x) / (1 + exp(x)) is equal on paper and inf / inf = NaN for x above ~88.7.
    y = x / (1.0 + tl.exp(-x))
    tl.store(y_ptr + offsets, y, mask=mask)
