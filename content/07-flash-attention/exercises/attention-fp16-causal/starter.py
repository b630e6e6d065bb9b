import triton
import triton.language as tl


@triton.jit
def attention_fp16(q_ptr, k_ptr, v_ptr, o_ptr, n_ctx, sm_scale,
                   stride_qn, stride_kn, stride_vn, stride_on,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr,
                   IS_CAUSAL: tl.constexpr):
    # Program start_m owns query rows start_m * BLOCK_M ... (rows past n_ctx are padding).
    start_m = tl.program_id(0)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    # TODO: load Q (fp16, masked rows); m_i = -inf, l_i = 0, acc = 0 (all fp32).
    # TODO: loop over key tiles; when IS_CAUSAL, stop at the last tile any of this program's rows can see.
    # TODO: per tile: fp32 scores from tl.dot(q, tl.trans(k)) * sm_scale; -inf for keys past n_ctx and, when
    #       causal, for keys after the query; online update of m_i, l_i, acc (second dot on fp16 probabilities).
    # TODO: store acc / l_i as fp16, masked.
