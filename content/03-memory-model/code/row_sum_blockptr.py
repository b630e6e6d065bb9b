@triton.jit
def row_sum_kernel(x_ptr, out_ptr, M, N, stride_xm, stride_xn,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    x_blk = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, stride_xn),
                              offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                              order=(1, 0))
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        tile = tl.load(x_blk, boundary_check=(0, 1), padding_option="zero")
        acc += tl.sum(tile.to(tl.float32), axis=1)
        x_blk = tl.advance(x_blk, (0, BLOCK_N))
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    tl.store(out_ptr + rows, acc, mask=rows < M)


# out[i] = sum of row i of a strided M x N matrix; grid: one program per BLOCK_M rows
row_sum_kernel[(triton.cdiv(M, 32),)](x, out, M, N, *x.stride(), BLOCK_M=32, BLOCK_N=128)
