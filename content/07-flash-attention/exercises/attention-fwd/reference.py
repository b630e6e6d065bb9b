import triton
import triton.language as tl


@triton.jit
def attention_ref(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  stride_qn, stride_kn, stride_vn, stride_on,
                  BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr):
    # Float64 judge: program p takes BLOCK query rows and makes two passes over the keys. Pass 1 finds each
    # row's max score; pass 2 sums exp(s - max) and exp(s - max) * v with that fixed max, and the output is
    # one division at the end. Scores are recomputed instead of stored. Every product is an fp64 tl.dot
    # (exact IEEE: no TF32 at fp64), and there is no online rescaling.
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs_d = tl.arange(0, HEAD_DIM)
    row_ok = rows < n_ctx
    q = tl.load(q_ptr + rows[:, None] * stride_qn + offs_d[None, :], mask=row_ok[:, None], other=0.0)
    scale = sm_scale.to(tl.float64)

    m = tl.full([BLOCK], float("-inf"), tl.float64)
    for start_n in range(0, n_ctx, BLOCK):
        keys = start_n + tl.arange(0, BLOCK)
        ok = keys < n_ctx
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k), input_precision="ieee", out_dtype=tl.float64) * scale
        m = tl.maximum(m, tl.max(tl.where(ok[None, :], s, float("-inf")), axis=1))

    den = tl.zeros([BLOCK], dtype=tl.float64)
    num = tl.zeros([BLOCK, HEAD_DIM], dtype=tl.float64)
    for start_n in range(0, n_ctx, BLOCK):
        keys = start_n + tl.arange(0, BLOCK)
        ok = keys < n_ctx
        k = tl.load(k_ptr + keys[:, None] * stride_kn + offs_d[None, :], mask=ok[:, None], other=0.0)
        v = tl.load(v_ptr + keys[:, None] * stride_vn + offs_d[None, :], mask=ok[:, None], other=0.0)
        s = tl.dot(q, tl.trans(k), input_precision="ieee", out_dtype=tl.float64) * scale
        w = tl.where(ok[None, :], tl.exp(s - m[:, None]), 0.0)
        den += tl.sum(w, axis=1)
        num += tl.dot(w, v, input_precision="ieee", out_dtype=tl.float64)
    tl.store(o_ptr + rows[:, None] * stride_on + offs_d[None, :], num / den[:, None], mask=row_ok[:, None])
