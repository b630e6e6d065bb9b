import triton
import triton.language as tl


@triton.jit
def matmul_ref(a_ptr, b_ptr, c_ptr, M, N, K,
               stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
               BLOCK: tl.constexpr):
    # Float64 judge with plain pointers and masks (no block pointers, so it does not share the learner's
    # mechanism): program (i, j) sums fp64 products of BLOCK x BLOCK tiles over K.
    r = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    q = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    total = tl.zeros([BLOCK, BLOCK], dtype=tl.float64)
    for s in range(0, K, BLOCK):
        kk = s + tl.arange(0, BLOCK)
        lhs = tl.load(a_ptr + r[:, None] * stride_am + kk[None, :] * stride_ak,
                      mask=(r[:, None] < M) & (kk[None, :] < K), other=0.0)
        rhs = tl.load(b_ptr + kk[:, None] * stride_bk + q[None, :] * stride_bn,
                      mask=(kk[:, None] < K) & (q[None, :] < N), other=0.0)
        total = tl.dot(lhs, rhs, total, input_precision="ieee", out_dtype=tl.float64)
    tl.store(c_ptr + r[:, None] * stride_cm + q[None, :] * stride_cn, total,
             mask=(r[:, None] < M) & (q[None, :] < N))
