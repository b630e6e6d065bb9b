acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
for k0 in range(0, K, BLOCK_K):
    a = tl.load(a_tile, mask=rm[:, None] < M, other=0.0)
    b = tl.load(b_tile, mask=rn[None, :] < N, other=0.0)
    acc = tl.dot(a, b, acc)
    a_tile += BLOCK_K * stride_ak
    b_tile += BLOCK_K * stride_bk
c = acc.to(tl.float16)
