import triton
import triton.language as tl


@triton.jit
def histogram(x_ptr, hist_ptr, n, num_bins, BLOCK_SIZE: tl.constexpr):
    # Bug: a read-modify-write without an atomic. All lanes of the tile read their bins' old counts at once
    # and write old + 1, so lanes (and programs) that share a bin overwrite each other's increments.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_range = offsets < n
    v = tl.load(x_ptr + offsets, mask=in_range, other=0)
    valid = in_range & (v >= 0) & (v < num_bins)
    old = tl.load(hist_ptr + v, mask=valid, other=0)
    tl.store(hist_ptr + v, old + 1, mask=valid)
