import triton
import triton.language as tl


@triton.jit
def vector_add_ref(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # Float64 judge: every float buffer is fp64 here.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=keep) + tl.load(y_ptr + offs, mask=keep), mask=keep)
