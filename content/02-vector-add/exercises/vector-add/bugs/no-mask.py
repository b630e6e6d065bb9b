import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: no mask. When n is not a multiple of BLOCK_SIZE, the last program's tile runs past n: it reads
    # x and y and writes out beyond their ends. On a GPU that is garbage or an illegal address; here the
    # first unmasked lane past the end of x stops the run.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(out_ptr + offsets, x + y)
