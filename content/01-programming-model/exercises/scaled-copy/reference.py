import triton
import triton.language as tl


@triton.jit
def scale_ref(x_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    # Float64 judge: x and out arrive as fp64 pointers, so alpha * x is computed in fp64.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, alpha.to(tl.float64) * x, mask=keep)
