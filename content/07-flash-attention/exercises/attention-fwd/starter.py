import triton
import triton.language as tl


@triton.jit
def attention_fwd(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                  stride_qn, stride_kn, stride_vn, stride_on,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(axis=0)  # this program owns query rows start_m * BLOCK_M ... + BLOCK_M - 1
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    # TODO: load the Q tile [BLOCK_M, HEAD_DIM] once (rows past n_ctx masked, other=0.0).
    # TODO: running state per query row: m_i (max so far), l_i (sum of exp(s - m_i)), acc [BLOCK_M, HEAD_DIM].
    # TODO: for each K/V tile of BLOCK_N keys: scores = sm_scale * Q K^T (tl.dot; mind its fp32 precision),
    #       -inf for keys past n_ctx, the new max, the rescale factor alpha, p = exp(s - m_new), then update
    #       l_i and acc with alpha and the tile's terms.
    # TODO: after the loop, O = acc / l_i, stored for the rows below n_ctx.
