@triton.jit
def softmax_kernel(out_ptr, x_ptr, x_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    inside = cols < n_cols
    v = tl.load(x_ptr + r * x_row_stride + cols, mask=inside, other=-float("inf"))
    z = v - tl.max(v, axis=0)
    e = tl.exp(z)
    denom = tl.sum(e, axis=0)
    tl.store(out_ptr + r * out_row_stride + cols, e / denom, mask=inside)


BLOCK_SIZE = triton.next_power_of_2(n_cols)
softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
