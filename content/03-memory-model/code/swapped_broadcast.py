@triton.jit
def scale_rows_kernel(x_ptr, s_ptr, out_ptr, M, N, stride_m, stride_n,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[None, :] * stride_m + cols[:, None] * stride_n
    inside = (rows[None, :] < M) & (cols[:, None] < N)
    tile = tl.load(x_ptr + offs, mask=inside, other=0.0)
    scale = tl.load(s_ptr + rows, mask=rows < M, other=0.0)
    tl.store(out_ptr + offs, tile * scale[:, None], mask=inside)
