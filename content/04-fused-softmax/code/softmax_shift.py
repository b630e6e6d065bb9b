@triton.jit
def softmax_kernel(out_ptr, x_ptr, x_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    inside = cols < n_cols
    v = tl.load(x_ptr + r * x_row_stride + cols, mask=inside, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    denom = tl.sum(e, axis=0)
    tl.store(out_ptr + r * out_row_stride + cols, e / denom, mask=inside)
