import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    # Bug: the loads are masked but the store is not. The masked-off lanes of the last tile hold whatever the
    # loads left there (without other= Triton does not define it; in practice 0 + 0) and are written past the
    # end of out anyway: a mask guards one access, not the lanes for the rest of the program.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y)
