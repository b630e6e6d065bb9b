import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr):
    # Bug: the mask tests the lane index inside the tile, not the global offset. For every program but
    # the first, all lanes pass (BLOCK_SIZE <= n), so the last program reads x past its end.
    pid = tl.program_id(axis=0)
    lanes = tl.arange(0, BLOCK_SIZE)
    offs = pid * BLOCK_SIZE + lanes
    keep = lanes < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, alpha * x, mask=keep)
