@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    inside = cols < N
    v = tl.load(x_ptr + r * stride_x + cols, mask=inside, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    denom = tl.sum(e, axis=0)
    tl.store(out_ptr + r * stride_out + cols, e / denom, mask=inside)
