import triton
import triton.language as tl


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  stride_qn, stride_kn, stride_vn, stride_on,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    # Bug: the running max starts at 0 instead of -inf. Softmax is shift-invariant, so rows whose scores come
    # anywhere near 0 are still right; but when every score of a row lies below about -104, max(0, scores)
    # stays 0, every exp(score - 0) underflows to 0 in fp32, l_i = 0 and the output is 0 / 0 = NaN.
    start_m = tl.program_id(axis=0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)

    # Q is read once and stays in registers for the whole loop. Rows past n_ctx are zeros; they are computed
    # like the others and simply never stored.
    q = tl.load(q_ptr + offs_m[:, None] * stride_qn + offs_d[None, :], mask=offs_m[:, None] < n_ctx, other=0.0)

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    for start_n in range(0, n_ctx, BLOCK_N):
        keys = start_n + offs_n
        key_ok = keys < n_ctx
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=key_ok[:, None], other=0.0)
        # tl.dot of fp32 tiles defaults to TF32 on the tensor cores (10-bit mantissa inputs): about 1e-3
        # relative error, ten times this exercise's 1e-4 tolerance. input_precision="ieee" asks for true
        # fp32 products; "tf32x3" would be a faster middle ground.
        s = tl.dot(q, tl.trans(k), input_precision="ieee") * sm_scale
        # Keys past n_ctx get -inf: exp(-inf - m) = 0, so they carry no weight. Every tile starts below
        # n_ctx, so each row's tile max, and therefore m_new, is finite.
        s = tl.where(key_ok[None, :], s, float("-inf"))

        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        # Everything accumulated so far was weighted with exp(. - m_i); re-weight it to the new max.
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)

        v = tl.load(v_ptr + keys[:, None] * stride_vn + offs_d[None, :], mask=key_ok[:, None], other=0.0)
        # Rescale acc by the same alpha as l_i, then add this tile's P V (fp32 accumulate on top of acc).
        acc = tl.dot(p, v, acc * alpha[:, None], input_precision="ieee")
        m_i = m_new

    # Normalise once, after the last tile: dividing inside the loop would mix differently scaled terms.
    o = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * stride_on + offs_d[None, :], o, mask=offs_m[:, None] < n_ctx)
