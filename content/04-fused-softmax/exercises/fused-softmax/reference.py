import triton
import triton.language as tl


@triton.jit
def softmax_ref(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK: tl.constexpr):
    # Float64 judge: one program per row, the whole row in one tile (BLOCK = pow2ceil(N)), max-shifted
    # softmax in fp64. The padding lanes are excluded with tl.where, not with a fill value.
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    m = tl.max(tl.where(mask, x, float("-inf")), axis=0)
    e = tl.where(mask, tl.exp(x - m), 0.0)
    tl.store(out_ptr + row * stride_out + cols, e / tl.sum(e, axis=0), mask=mask)
