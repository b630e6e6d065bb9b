@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    inside = cols < N
    v = tl.load(x_ptr + r * stride_x + cols, mask=inside, other=-float("inf"))
    z = v - tl.max(v, axis=0)
    e = tl.exp(z)
    denom = tl.sum(e, axis=0)
    tl.store(out_ptr + r * stride_out + cols, e / denom, mask=inside)


BLOCK_SIZE = triton.next_power_of_2(n_cols)
softmax_kernel[(n_rows,)](x, out, n_rows, n_cols, x.stride(0), out.stride(0), BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
