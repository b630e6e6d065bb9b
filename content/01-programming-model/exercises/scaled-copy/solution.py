import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr):
    # out = alpha * x. One program owns one tile of BLOCK_SIZE consecutive elements; the grid has
    # cdiv(n, BLOCK_SIZE) programs. Triton spreads the tile over the program's 32 * num_warps threads
    # itself: we write what one program computes, never what one thread does.
    pid = tl.program_id(axis=0)
    # The tile starts at pid * BLOCK_SIZE whatever num_warps is: a program is a tile, not a group of threads.
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    # Compare the global offset with n. Only the last program has lanes past the end, but every program
    # evaluates the same mask: it costs one compare per element and keeps the code branch-free.
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    # alpha is an fp32 scalar argument; Triton splats it across the tile.
    tl.store(out_ptr + offs, alpha * x, mask=keep)
