import triton
import triton.language as tl


@triton.jit
def attention_fp16(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                   stride_qn, stride_kn, stride_vn, stride_on,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                   IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * stride_qn + offs_d[None, :], mask=offs_m[:, None] < n_ctx, other=0.0)

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    if IS_CAUSAL:
        hi = min(n_ctx, (start_m + 1) * BLOCK_M)
    else:
        hi = n_ctx
    for start_n in range(0, hi, BLOCK_N):
        keys = start_n + offs_n
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=keys[:, None] < n_ctx, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = keys[None, :] < n_ctx
        if IS_CAUSAL:
            valid = valid & (keys[None, :] < offs_m[:, None])
        s = tl.where(valid, s, float("-inf"))

        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + keys[:, None] * stride_vn + offs_d[None, :], mask=keys[:, None] < n_ctx, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new

    o = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * stride_on + offs_d[None, :], o.to(tl.float16), mask=offs_m[:, None] < n_ctx)
