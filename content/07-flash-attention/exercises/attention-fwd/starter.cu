// O = softmax(sm_scale · Q·Kᵀ) · V for one head; Q, K, V, O are n_ctx × HEAD_DIM (HEAD_DIM = 64), rows at the given
// row strides (elements; the column stride is 1). Program blockIdx.x owns query rows blockIdx.x * BLOCK_M ...;
// the block has 32 * NUM_WARPS threads. Extra memory must stay O(BLOCK_M · BLOCK_N): no N × N scores.
extern "C" __global__ void attention_fwd(const float* __restrict__ q, const float* __restrict__ k,
                                         const float* __restrict__ v, float* __restrict__ o, int n_ctx,
                                         float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                                         int stride_on)
{
    __shared__ float q_tile[BLOCK_M][HEAD_DIM];
    __shared__ float kv_tile[BLOCK_N][HEAD_DIM + 1];
    __shared__ float p_tile[BLOCK_M][BLOCK_N];
    __shared__ float m_row[BLOCK_M];  // running max per query row: start at -inf
    __shared__ float l_row[BLOCK_M];  // running denominator: start at 0
    const int m0 = blockIdx.x * BLOCK_M;
    // TODO: load the Q tile (rows past n_ctx as 0); set m_row to -inf, l_row to 0, your acc registers to 0.
    // TODO: for each K/V tile of BLOCK_N keys:
    //         scores = sm_scale * q·k (-inf for keys >= n_ctx); m_new = max(m_old, row max of the tile);
    //         alpha = exp(m_old - m_new); p = exp(scores - m_new); l = l * alpha + sum(p);
    //         acc = acc * alpha + p · V_tile.   Mind the __syncthreads() between phases.
    // TODO: epilogue: o = acc / l, once, for rows < n_ctx.
}
