import triton
import triton.language as tl


@triton.jit
def attention_ref(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  stride_qn, stride_kn, stride_vn, stride_on,
                  BLOCK: tl.constexpr, HEAD_DIM: tl.constexpr, IS_CAUSAL: tl.constexpr):
    # Float64 judge: the fp16 inputs arrive widened to fp64. Two passes over every key tile (no loop bound
    # shortcut, no online rescaling): the row max first, then the weights and the weighted sum of V.
    rows = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    dims = tl.arange(0, HEAD_DIM)
    qt = tl.load(q_ptr + rows[:, None] * stride_qn + dims[None, :], mask=rows[:, None] < n_ctx, other=0.0)
    scale = sm_scale.to(tl.float64)
    top = tl.full([BLOCK], float("-inf"), tl.float64)
    for j0 in range(0, n_ctx, BLOCK):
        cols = j0 + tl.arange(0, BLOCK)
        kt = tl.load(k_ptr + cols[:, None] * stride_kn + dims[None, :], mask=cols[:, None] < n_ctx, other=0.0)
        see = cols[None, :] < n_ctx
        if IS_CAUSAL:
            see = see & (cols[None, :] <= rows[:, None])
        sc = tl.dot(qt, tl.trans(kt), input_precision="ieee", out_dtype=tl.float64) * scale
        top = tl.maximum(top, tl.max(tl.where(see, sc, float("-inf")), axis=1))
    den = tl.zeros([BLOCK], dtype=tl.float64)
    num = tl.zeros([BLOCK, HEAD_DIM], dtype=tl.float64)
    for j0 in range(0, n_ctx, BLOCK):
        cols = j0 + tl.arange(0, BLOCK)
        kt = tl.load(k_ptr + cols[:, None] * stride_kn + dims[None, :], mask=cols[:, None] < n_ctx, other=0.0)
        vt = tl.load(v_ptr + cols[:, None] * stride_vn + dims[None, :], mask=cols[:, None] < n_ctx, other=0.0)
        see = cols[None, :] < n_ctx
        if IS_CAUSAL:
            see = see & (cols[None, :] <= rows[:, None])
        sc = tl.dot(qt, tl.trans(kt), input_precision="ieee", out_dtype=tl.float64) * scale
        wt = tl.where(see, tl.exp(sc - top[:, None]), 0.0)
        den += tl.sum(wt, axis=1)
        num += tl.dot(wt, vt, input_precision="ieee", out_dtype=tl.float64)
    tl.store(o_ptr + rows[:, None] * stride_on + dims[None, :], num / den[:, None], mask=rows[:, None] < n_ctx)
