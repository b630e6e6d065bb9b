@triton.jit
def row_max_kernel(x_ptr, out_ptr, N, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    vals = tl.load(x_ptr + row * stride_row + cols, mask=cols < N, other=0.0)
    best = tl.max(vals, axis=0)
    tl.store(out_ptr + row, best)


# BLOCK_SIZE = triton.next_power_of_2(N): N = 777 → 1024, so 247 lanes of every row are masked
row_max_kernel[(M,)](x, out, N, x.stride(0), BLOCK_SIZE=triton.next_power_of_2(N))
