import triton
import triton.language as tl


@triton.jit
def attention_fp16(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                   stride_qn, stride_kn, stride_vn, stride_on,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                   IS_CAUSAL: tl.constexpr):
    # Flash attention forward for one head in fp16: O = softmax(sm_scale * Q K^T [+ causal mask]) V.
    # Q, K, V and O are fp16; both tl.dot calls take fp16 tiles and accumulate in fp32 (tensor cores);
    # the softmax statistics and the running output stay fp32. Program start_m owns BLOCK_M query rows.
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * stride_qn + offs_d[None, :], mask=offs_m[:, None] < n_ctx, other=0.0)

    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    # Causal: row i sees keys 0..i. This program's last row is (start_m + 1) * BLOCK_M - 1, so the tiles from
    # there on are entirely in the future: do not visit them (about half the work). IS_CAUSAL is a constexpr,
    # so this `if` is decided at compile time.
    if IS_CAUSAL:
        hi = min(n_ctx, (start_m + 1) * BLOCK_M)
    else:
        hi = n_ctx
    for start_n in range(0, hi, BLOCK_N):
        keys = start_n + offs_n
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=keys[:, None] < n_ctx, other=0.0)
        # fp16 x fp16 -> fp32 scores.
        s = tl.dot(q, tl.trans(k)) * sm_scale
        valid = keys[None, :] < n_ctx
        if IS_CAUSAL:
            # Tiles that cross the diagonal still hold some future keys: mask them per element. <=, because a
            # row sees its own key.
            valid = valid & (keys[None, :] <= offs_m[:, None])
        s = tl.where(valid, s, float("-inf"))

        # Online softmax. Key 0 is visible to every row, so after the first tile every m_i is finite; a row
        # with no visible key in a later tile keeps m_new = m_i, alpha = 1, p = 0.
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptr + keys[:, None] * stride_vn + offs_d[None, :], mask=keys[:, None] < n_ctx, other=0.0)
        # p in [0, 1] goes to fp16 for the tensor-core dot (both operands must share a dtype); acc stays fp32.
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new

    o = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * stride_on + offs_d[None, :], o.to(tl.float16), mask=offs_m[:, None] < n_ctx)
