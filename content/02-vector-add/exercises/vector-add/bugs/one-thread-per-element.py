import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr, NUM_WARPS: tl.constexpr):
    # Bug: CUDA's one-thread-per-element habit. The tile is sized by the thread count, 32 * NUM_WARPS,
    # while the grid has cdiv(n, BLOCK_SIZE) programs: each program adds only the first 32 * NUM_WARPS
    # elements of its BLOCK_SIZE tile and the rest of out is never written.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, 32 * NUM_WARPS)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
