import triton
import triton.language as tl

@triton.jit
def attention_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                         stride_qn, stride_kn, stride_vn, stride_on,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    dims = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + rows[:, None] * stride_qn + dims[None, :],
                mask=rows[:, None] < n_ctx, other=0.0)

    m_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)

    for start_n in range(0, n_ctx, BLOCK_N):
        keys = start_n + tl.arange(0, BLOCK_N)
        key_ok = keys < n_ctx
        k = tl.load(k_ptr + keys[:, None] * stride_kn + dims[None, :],
                    mask=key_ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        s = tl.where(key_ok[None, :], s, float("-inf"))

        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)

        v = tl.load(v_ptr + keys[:, None] * stride_vn + dims[None, :],
                    mask=key_ok[:, None], other=0.0)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new

    out = acc / l_i[:, None]
    tl.store(o_ptr + rows[:, None] * stride_on + dims[None, :], out,
             mask=rows[:, None] < n_ctx)
