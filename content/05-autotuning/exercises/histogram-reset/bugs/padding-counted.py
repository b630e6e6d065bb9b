import triton
import triton.language as tl


@triton.jit
def histogram(x_ptr, hist_ptr, n, num_bins, BLOCK_SIZE: tl.constexpr):
    # Bug: the load is masked (other=0) but the atomic only checks the bin range. The padding lanes of the
    # last tile hold the fill 0, a valid bin, so each of them adds one to hist[0]. The mask of a load does not
    # carry over to the ops that follow it.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    v = tl.load(x_ptr + offsets, mask=offsets < n, other=0)
    tl.atomic_add(hist_ptr + v, 1, mask=(v >= 0) & (v < num_bins))
