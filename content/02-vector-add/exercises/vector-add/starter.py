import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    # TODO: the offsets of this program's tile of BLOCK_SIZE elements.
    # TODO: the mask offsets < n.
    # TODO: load x and y with the mask, store x + y into out with the mask.
