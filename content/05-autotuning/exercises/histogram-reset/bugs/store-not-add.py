import triton
import triton.language as tl


@triton.jit
def histogram(x_ptr, hist_ptr, n, num_bins, BLOCK_SIZE: tl.constexpr):
    # Bug: tl.store instead of tl.atomic_add. Each lane writes 1 into its bin, so every bin that occurs holds 1
    # however many times its value appears (and which lane's write wins is unspecified on the GPU).
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_range = offsets < n
    v = tl.load(x_ptr + offsets, mask=in_range, other=0)
    valid = in_range & (v >= 0) & (v < num_bins)
    tl.store(hist_ptr + v, 1, mask=valid)
