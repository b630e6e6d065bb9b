import triton
import triton.language as tl


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  stride_qn, stride_kn, stride_vn, stride_on,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    # Bug: tl.dot on fp32 tiles without input_precision. Triton's default for fp32 is "tf32": the tensor cores
    # round both inputs to 10-bit mantissas, about 1e-3 relative error per product, ten times this exercise's
    # 1e-4 tolerance. Fine for training, not for a kernel checked against float64. The fix is
    # input_precision="ieee" (exact fp32 products) or "tf32x3" (three TF32 passes, close to fp32).
    start_m = tl.program_id(axis=0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    # Q is read once and stays in registers for the whole loop. Rows past n_ctx are zeros; they are computed
    # like the others and simply never stored.
    q = tl.load(q_ptr + offs_m[:, None] * stride_qn + offs_d[None, :], mask=offs_m[:, None] < n_ctx, other=0.0)

    # m_i starts at -inf, not 0: the first tile's max must win whatever its sign. With 0, a row whose scores
    # all lie far below zero would underflow every exp to 0 and end as 0 / 0.
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    for start_n in range(0, n_ctx, BLOCK_N):
        keys = start_n + offs_n
        key_ok = keys < n_ctx
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=key_ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        # Keys past n_ctx get -inf: exp(-inf - m) = 0, so they carry no weight. Every tile starts below
        # n_ctx, so each row's tile max, and therefore m_new, is finite.
        s = tl.where(key_ok[None, :], s, float("-inf"))

        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        # Everything accumulated so far was weighted with exp(. - m_i); re-weight it to the new max.
        # On the first tile m_i = -inf and alpha = exp(-inf) = 0.
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)

        v = tl.load(v_ptr + keys[:, None] * stride_vn + offs_d[None, :], mask=key_ok[:, None], other=0.0)
        # Rescale acc by the same alpha as l_i, then add this tile's P V (fp32 accumulate on top of acc).
        acc = tl.dot(p, v, acc * alpha[:, None])
        m_i = m_new

    # Normalise once, after the last tile: dividing inside the loop would mix differently scaled terms.
    o = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * stride_on + offs_d[None, :], o, mask=offs_m[:, None] < n_ctx)
