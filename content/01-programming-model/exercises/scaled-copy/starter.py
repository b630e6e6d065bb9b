import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)  # which tile is mine: 0 .. cdiv(n, BLOCK_SIZE) - 1
    # TODO: offsets of this program's tile: pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE).
    # TODO: a mask that keeps only the offsets below n (the last tile is ragged).
    # TODO: load x through the mask, multiply by alpha, store to out through the same mask.
