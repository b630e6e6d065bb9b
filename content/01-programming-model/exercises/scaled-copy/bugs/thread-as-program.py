import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr, NUM_WARPS: tl.constexpr):
    # Bug: the CUDA habit "a block is 32 * num_warps threads" carried into Triton. The tile start is
    # pid * (32 * NUM_WARPS), so neighbouring tiles overlap, and the grid of cdiv(n, BLOCK_SIZE)
    # programs stops long before n: the tail of out is never written.
    pid = tl.program_id(axis=0)
    offs = pid * (32 * NUM_WARPS) + tl.arange(0, BLOCK_SIZE)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, alpha * x, mask=keep)
