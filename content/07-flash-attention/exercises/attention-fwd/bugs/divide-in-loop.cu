// Bug: acc is divided by the running l_i at the end of every tile and then updated as if it were still an
// unnormalised sum. From the second tile on, the earlier tiles' part has already been divided by the old l_i and
// is divided by the new one as well, while the new tile's part is divided once: earlier keys get too little weight.
#define THREADS (32 * NUM_WARPS)
#define ACC_PER_THREAD (BLOCK_M * HEAD_DIM / THREADS)  // this thread's share of the BLOCK_M × HEAD_DIM acc

extern "C" __global__ void attention_fwd(const float* __restrict__ q, const float* __restrict__ k,
                                         const float* __restrict__ v, float* __restrict__ o, int n_ctx,
                                         float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                                         int stride_on)
{
    static_assert((BLOCK_M * HEAD_DIM) % THREADS == 0 && BLOCK_N <= 64 && BLOCK_N % 32 == 0,
                  "BLOCK_M * HEAD_DIM must split over the threads; BLOCK_N is 32 or 64");
    __shared__ float q_tile[BLOCK_M][HEAD_DIM];
    __shared__ float kv_tile[BLOCK_N][HEAD_DIM + 1];  // K, then V, of the current tile (+1: no bank conflicts)
    __shared__ float p_tile[BLOCK_M][BLOCK_N];        // scores, then probabilities, of the current tile
    __shared__ float m_row[BLOCK_M];
    __shared__ float l_row[BLOCK_M];
    __shared__ float alpha_row[BLOCK_M];

    const float neg_inf = __int_as_float(0xff800000);
    const int m0 = blockIdx.x * BLOCK_M;
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;

    // Load the Q tile once; rows past n_ctx read as 0 and are never stored.
    for (int e = threadIdx.x; e < BLOCK_M * HEAD_DIM; e += THREADS) {
        const int i = e / HEAD_DIM;
        const int c = e % HEAD_DIM;
        q_tile[i][c] = m0 + i < n_ctx ? q[static_cast<long long>(m0 + i) * stride_qn + c] : 0.0f;
    }
    for (int i = threadIdx.x; i < BLOCK_M; i += THREADS) {
        m_row[i] = neg_inf;  // -inf, not 0: the first tile's max must win whatever its sign
        l_row[i] = 0.0f;
    }
    float acc[ACC_PER_THREAD];
#pragma unroll
    for (int t = 0; t < ACC_PER_THREAD; ++t) {
        acc[t] = 0.0f;
    }

    for (int n0 = 0; n0 < n_ctx; n0 += BLOCK_N) {
        // K tile into shared memory (keys past n_ctx: zeros, masked out of the scores below).
        for (int e = threadIdx.x; e < BLOCK_N * HEAD_DIM; e += THREADS) {
            const int j = e / HEAD_DIM;
            const int c = e % HEAD_DIM;
            kv_tile[j][c] = n0 + j < n_ctx ? k[static_cast<long long>(n0 + j) * stride_kn + c] : 0.0f;
        }
        __syncthreads();

        // S = sm_scale · Q_tile · K_tileᵀ, with -inf for keys past the end (their probability becomes 0).
        for (int e = threadIdx.x; e < BLOCK_M * BLOCK_N; e += THREADS) {
            const int i = e / BLOCK_N;
            const int j = e % BLOCK_N;
            float s = 0.0f;
#pragma unroll 16
            for (int c = 0; c < HEAD_DIM; ++c) {
                s = fmaf(q_tile[i][c], kv_tile[j][c], s);
            }
            p_tile[i][j] = n0 + j < n_ctx ? s * sm_scale : neg_inf;
        }
        __syncthreads();

        // Online softmax, one warp per query row: new max, rescale factor, probabilities, new denominator.
        for (int i = warp; i < BLOCK_M; i += NUM_WARPS) {
            float tile_max = neg_inf;
            for (int j = lane; j < BLOCK_N; j += 32) {
                tile_max = fmaxf(tile_max, p_tile[i][j]);
            }
            for (int offset = 16; offset > 0; offset >>= 1) {
                tile_max = fmaxf(tile_max, __shfl_xor_sync(0xffffffffu, tile_max, offset));
            }
            const float m_old = m_row[i];
            const float m_new = fmaxf(m_old, tile_max);  // finite: every tile holds at least one real key
            float row_sum = 0.0f;
            for (int j = lane; j < BLOCK_N; j += 32) {
                const float p = expf(p_tile[i][j] - m_new);
                p_tile[i][j] = p;
                row_sum += p;
            }
            for (int offset = 16; offset > 0; offset >>= 1) {
                row_sum += __shfl_xor_sync(0xffffffffu, row_sum, offset);
            }
            __syncwarp();
            if (lane == 0) {
                const float alpha = expf(m_old - m_new);  // exp(-inf) = 0 on the first tile
                alpha_row[i] = alpha;
                l_row[i] = l_row[i] * alpha + row_sum;
                m_row[i] = m_new;
            }
        }
        __syncthreads();  // p, alpha ready; K no longer needed

        // V tile into the same shared buffer.
        for (int e = threadIdx.x; e < BLOCK_N * HEAD_DIM; e += THREADS) {
            const int j = e / HEAD_DIM;
            const int c = e % HEAD_DIM;
            kv_tile[j][c] = n0 + j < n_ctx ? v[static_cast<long long>(n0 + j) * stride_vn + c] : 0.0f;
        }
        __syncthreads();

        // acc = acc · alpha + P · V_tile: old contributions rescaled to the new max, then this tile added.
#pragma unroll
        for (int t = 0; t < ACC_PER_THREAD; ++t) {
            const int e = threadIdx.x + t * THREADS;
            const int i = e / HEAD_DIM;
            const int c = e % HEAD_DIM;
            float sum = acc[t] * alpha_row[i];
            for (int j = 0; j < BLOCK_N; ++j) {
                sum = fmaf(p_tile[i][j], kv_tile[j][c], sum);
            }
            acc[t] = sum / l_row[i];  // normalised every tile
        }
        __syncthreads();  // before the next tile overwrites kv_tile and p_tile
    }

    // Epilogue: normalise once and store the rows that exist.
#pragma unroll
    for (int t = 0; t < ACC_PER_THREAD; ++t) {
        const int e = threadIdx.x + t * THREADS;
        const int i = e / HEAD_DIM;
        const int c = e % HEAD_DIM;
        if (m0 + i < n_ctx) {
            o[static_cast<long long>(m0 + i) * stride_on + c] = acc[t];  // already divided
        }
    }
}
