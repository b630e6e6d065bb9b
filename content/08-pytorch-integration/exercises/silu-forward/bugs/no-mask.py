import triton
import triton.language as tl


@triton.jit
def silu_fwd(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: no mask. When n is not a multiple of BLOCK_SIZE the last program reads x and writes y past n.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets)
    tl.store(y_ptr + offsets, x / (1.0 + tl.exp(-x)))
