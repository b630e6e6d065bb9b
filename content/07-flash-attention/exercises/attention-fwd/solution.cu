// Flash-attention forward for one head: O = softmax(sm_scale · Q·Kᵀ) · V, never storing the N × N scores.
// Program blockIdx.x owns BLOCK_M query rows and streams over K/V in tiles of BLOCK_N keys, keeping per row
// m (running max), l (running denominator) and acc (running weighted sum of V, HEAD_DIM wide).
//
// Both products run on the tensor cores (mma.sync m16n8k8 with TF32 inputs, FP32 accumulation), the way Triton's
// tl.dot does for fp32. One warp owns 16 query rows (BLOCK_M = 16 · NUM_WARPS); the block's warps share each K/V
// tile, which cp.async copies into shared memory while the previous tile is being multiplied.
//
// Precision: a TF32 input keeps 10 of fp32's 23 mantissa bits (relative error up to 2^-11), which puts attention's
// error near 3.5e-3 on this exercise's cases: inside the CUDA track's TF32 tolerance (1e-2, "arithmetic": "tf32"),
// as an fp32 tl.dot is by default. Set SPLIT_TF32 to 1 for fp32's accuracy: every operand x is split into
// x_hi = tf32(x) and x_lo = tf32(x - x_hi), and each product is a_hi·b_hi + a_hi·b_lo + a_lo·b_hi ("3xTF32", as
// CUTLASS names it): three tensor-core instructions instead of one, an error near 2e-5, 1.3x the time.
//
// Warps: BLOCK_M / 16 row groups x SPLITS. With more warps than row groups (e.g. BLOCK_M 16, NUM_WARPS 4), the
// warps of a row group take different keys of each tile, each keeps its own m, l and acc, and the split results
// are merged at the end (acc and l rescaled to the larger m): more warps per SM to hide latency, as FlashAttention-2
// and flash-decoding split the keys.
//
// Layout tricks (no shuffles): the m16n8k8 accumulator of S holds, per lane (g = lane / 4, t = lane % 4), keys 2t
// and 2t + 1 of each 8-key group; read as the A operand of P·V those registers stand for keys t and t + 4, so the
// V operand is read for keys 2t and 2t + 1 instead, and the order of the sum is permuted, not its terms.
#ifndef SPLIT_TF32
#define SPLIT_TF32 0
#endif
#define THREADS (32 * NUM_WARPS)
#define KV_STRIDE (HEAD_DIM + 4)  // floats per shared-memory row: the +4 puts a fragment's 32 reads in 32 banks
#define D_STEPS (HEAD_DIM / 8)    // k-steps of Q·Kᵀ over the head dimension
#define ROW_GROUPS (BLOCK_M / 16)          // warps that share a K/V key range: 16 query rows each
#define SPLITS (NUM_WARPS / ROW_GROUPS)      // the block's key tile is split over this many warps per row group
#define KEYS_PER_WARP (BLOCK_N / SPLITS)     // keys of each tile one warp multiplies
#define KEY_GROUPS (KEYS_PER_WARP / 8)       // 8-key groups per warp and tile
#define MERGE_FLOATS (D_STEPS * 4 + 4)       // per lane: acc fragments, m and l of its two rows

struct KvTile
{
    float k[BLOCK_N * KV_STRIDE];
    float v[BLOCK_N * KV_STRIDE];
};

__device__ __forceinline__ unsigned to_tf32(float x)
{
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// x = hi + lo to about 2^-22 relative. hi keeps the 10 mantissa bits a TF32 operand has (the rest cleared: exact,
// two instructions); lo = x - hi is exact in fp32, and the tensor core reads its top bits. Without SPLIT_TF32, hi
// is x rounded to TF32 and lo is unused.
__device__ __forceinline__ void split(float x, unsigned& hi, unsigned& lo)
{
#if SPLIT_TF32
    hi = __float_as_uint(x) & 0xffffe000u;
    lo = __float_as_uint(x - __uint_as_float(hi));
#else
    hi = to_tf32(x);
    lo = 0u;
#endif
}

__device__ __forceinline__ void mma_tf32(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// d += a·b with split operands: small terms first, then the main one.
__device__ __forceinline__ void mma_3x(float (&d)[4], const unsigned (&ah)[4], const unsigned (&al)[4],
                                       unsigned bh0, unsigned bh1, unsigned bl0, unsigned bl1)
{
#if SPLIT_TF32
    mma_tf32(d, al, bh0, bh1);
    mma_tf32(d, ah, bl0, bl1);
#endif
    mma_tf32(d, ah, bh0, bh1);
}

__device__ __forceinline__ void cp_async16(float* dst, const float* src)
{
    const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src));
}

// One buffer <- rows n0 .. n0 + BLOCK_N - 1 of K and V (rows past n_ctx: zeros). 16-byte cp.async when the rows
// are 16-byte aligned, else element by element (padded rows).
__device__ void load_kv(KvTile& t, const float* k, const float* v, int n0, int n_ctx, int stride_kn, int stride_vn,
                        bool vec_k, bool vec_v)
{
    constexpr int kChunks = HEAD_DIM / 4;
    for (int e = threadIdx.x; e < BLOCK_N * kChunks; e += THREADS) {
        const int r = e / kChunks;
        const int c = (e % kChunks) * 4;
        float* dk = &t.k[r * KV_STRIDE + c];
        float* dv = &t.v[r * KV_STRIDE + c];
        const long long key = n0 + r;
        if (key >= n_ctx) {
            *reinterpret_cast<float4*>(dk) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            *reinterpret_cast<float4*>(dv) = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            continue;
        }
        const float* sk = k + key * stride_kn + c;
        const float* sv = v + key * stride_vn + c;
        if (vec_k) {
            cp_async16(dk, sk);
        } else {
            *reinterpret_cast<float4*>(dk) = make_float4(sk[0], sk[1], sk[2], sk[3]);
        }
        if (vec_v) {
            cp_async16(dv, sv);
        } else {
            *reinterpret_cast<float4*>(dv) = make_float4(sv[0], sv[1], sv[2], sv[3]);
        }
    }
    asm volatile("cp.async.commit_group;\n" ::);
}

extern "C" __global__ void __launch_bounds__(THREADS)
    attention_fwd(const float* __restrict__ q, const float* __restrict__ k, const float* __restrict__ v,
                  float* __restrict__ o, int n_ctx, float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                  int stride_on)
{
    static_assert(BLOCK_M % 16 == 0 && NUM_WARPS % ROW_GROUPS == 0 && SPLITS >= 1,
                  "each warp owns 16 query rows: NUM_WARPS must be a multiple of BLOCK_M / 16");
    static_assert(HEAD_DIM % 8 == 0 && KEYS_PER_WARP % 8 == 0 && KEYS_PER_WARP * SPLITS == BLOCK_N,
                  "HEAD_DIM and BLOCK_N / SPLITS are multiples of 8");
    constexpr int kBuffers = 2 * sizeof(KvTile) <= 49152 ? 2 : 1;  // double-buffered when two tiles fit in 48 KiB
    static_assert(sizeof(KvTile) <= 49152, "one K/V tile must fit in 48 KiB");
    __shared__ __align__(16) KvTile tiles[kBuffers];
    static_assert((NUM_WARPS - ROW_GROUPS) * MERGE_FLOATS * 32 * 4 <= sizeof(tiles), "the merge reuses the tiles");

    const float neg_inf = __int_as_float(0xff800000);
    const float log2e = 1.4426950408889634f;
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t = lane & 3;
    const int warp = threadIdx.x >> 5;
    const int split_id = warp / ROW_GROUPS;                          // which keys of each tile
    const int key0 = split_id * KEYS_PER_WARP;                       // this warp's first key in a tile
    const int row0 = blockIdx.x * BLOCK_M + (warp % ROW_GROUPS) * 16;  // this warp's first query row
    const int rows[2] = {row0 + g, row0 + g + 8};                    // the two rows this lane holds

    // Q fragments, loaded once and scaled by sm_scale · log2(e) so that exp2 gives the softmax weights.
    // Rows past n_ctx read as 0 and are never stored.
    unsigned qh[D_STEPS][4];
    unsigned ql[D_STEPS][4];
    const float qscale = sm_scale * log2e;
#pragma unroll
    for (int s = 0; s < D_STEPS; ++s) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            const int row = rows[i & 1];
            const int col = s * 8 + t + (i >> 1) * 4;
            const float x = row < n_ctx ? q[static_cast<long long>(row) * stride_qn + col] * qscale : 0.0f;
            split(x, qh[s][i], ql[s][i]);
        }
    }

    float acc[D_STEPS][4] = {};        // O fragments: columns 8j + 2t, 8j + 2t + 1 of rows g, g + 8
    float m_run[2] = {neg_inf, neg_inf};  // -inf, not 0: the first tile's max must win whatever its sign
    float l_run[2] = {0.0f, 0.0f};       // this lane's share of the row sums (the quad adds them at the end)

    const bool vec_k = stride_kn % 4 == 0 && (reinterpret_cast<unsigned long long>(k) & 15) == 0;
    const bool vec_v = stride_vn % 4 == 0 && (reinterpret_cast<unsigned long long>(v) & 15) == 0;
    const int n_tiles = (n_ctx + BLOCK_N - 1) / BLOCK_N;
    if (kBuffers == 2) {
        load_kv(tiles[0], k, v, 0, n_ctx, stride_kn, stride_vn, vec_k, vec_v);
    }

    for (int it = 0; it < n_tiles; ++it) {
        const int n0 = it * BLOCK_N;
        if (kBuffers == 1) {
            load_kv(tiles[0], k, v, n0, n_ctx, stride_kn, stride_vn, vec_k, vec_v);
            asm volatile("cp.async.wait_group 0;\n" ::);
        } else if (it + 1 < n_tiles) {
            load_kv(tiles[(it + 1) % kBuffers], k, v, n0 + BLOCK_N, n_ctx, stride_kn, stride_vn, vec_k, vec_v);
            asm volatile("cp.async.wait_group 1;\n" ::);
        } else {
            asm volatile("cp.async.wait_group 0;\n" ::);
        }
        __syncthreads();
        const KvTile& tile = tiles[it % kBuffers];

        // S = Q·Kᵀ for this warp's 16 rows and the tile's BLOCK_N keys (log2 units).
        float s[KEY_GROUPS][4] = {};
#pragma unroll
        for (int d = 0; d < D_STEPS; ++d) {
#pragma unroll
            for (int j = 0; j < KEY_GROUPS; ++j) {
                const float* kr = &tile.k[(key0 + j * 8 + g) * KV_STRIDE + d * 8 + t];
                unsigned bh0, bl0, bh1, bl1;
                split(kr[0], bh0, bl0);
                split(kr[4], bh1, bl1);
                mma_3x(s[j], qh[d], ql[d], bh0, bh1, bl0, bl1);
            }
        }

        // Online softmax: keys past n_ctx get -inf; new max per row (the quad of 4 lanes shares a row).
        float tile_max[2] = {neg_inf, neg_inf};
#pragma unroll
        for (int j = 0; j < KEY_GROUPS; ++j) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if (n0 + key0 + j * 8 + 2 * t + (i & 1) >= n_ctx) {
                    s[j][i] = neg_inf;
                }
                tile_max[i >> 1] = fmaxf(tile_max[i >> 1], s[j][i]);
            }
        }
        float alpha[2];
        float m_exp[2];
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            tile_max[h] = fmaxf(tile_max[h], __shfl_xor_sync(0xffffffffu, tile_max[h], 1));
            tile_max[h] = fmaxf(tile_max[h], __shfl_xor_sync(0xffffffffu, tile_max[h], 2));
            // A split may not have seen a real key yet (its keys all past n_ctx): then m stays -inf and the
            // exponents use 0, so that alpha and p are 0 instead of exp(-inf + inf) = NaN.
            const float m_new = fmaxf(m_run[h], tile_max[h]);
            const float m_use = m_new == neg_inf ? 0.0f : m_new;
            alpha[h] = exp2f(m_run[h] - m_use);  // exp(-inf) = 0 on the first tile
            m_run[h] = m_new;
            m_exp[h] = m_use;
            l_run[h] *= alpha[h];
        }
#pragma unroll
        for (int j = 0; j < KEY_GROUPS; ++j) {
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                s[j][i] = exp2f(s[j][i] - m_exp[i >> 1]);
                l_run[i >> 1] += s[j][i];
            }
        }
#pragma unroll
        for (int d = 0; d < D_STEPS; ++d) {
            acc[d][0] *= alpha[0];
            acc[d][1] *= alpha[0];
            acc[d][2] *= alpha[1];
            acc[d][3] *= alpha[1];
        }

        // acc += P·V. The S registers of key group j are P's A operand (keys 2t, 2t + 1 as "t" and "t + 4").
#pragma unroll
        for (int j = 0; j < KEY_GROUPS; ++j) {
            unsigned ph[4];
            unsigned pl[4];
            split(s[j][0], ph[0], pl[0]);  // row g,     key 2t
            split(s[j][2], ph[1], pl[1]);  // row g + 8, key 2t
            split(s[j][1], ph[2], pl[2]);  // row g,     key 2t + 1
            split(s[j][3], ph[3], pl[3]);  // row g + 8, key 2t + 1
            const float* v0 = &tile.v[(key0 + j * 8 + 2 * t) * KV_STRIDE + g];
            const float* v1 = v0 + KV_STRIDE;
#pragma unroll
            for (int d = 0; d < D_STEPS; ++d) {
                unsigned bh0, bl0, bh1, bl1;
                split(v0[d * 8], bh0, bl0);
                split(v1[d * 8], bh1, bl1);
                mma_3x(acc[d], ph, pl, bh0, bh1, bl0, bl1);
            }
        }
        __syncthreads();  // every warp is done with this buffer before the next prefetch overwrites it
    }

    if (SPLITS > 1) {
        // Merge the splits of each row group into its split-0 warp, through the (now free) tile memory.
        float* merge = reinterpret_cast<float*>(tiles);
        auto slot = [&](int w, int item) { return ((w - ROW_GROUPS) * MERGE_FLOATS + item) * 32 + lane; };
        if (split_id > 0) {
#pragma unroll
            for (int d = 0; d < D_STEPS; ++d) {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    merge[slot(warp, d * 4 + i)] = acc[d][i];
                }
            }
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                merge[slot(warp, D_STEPS * 4 + h)] = m_run[h];
                merge[slot(warp, D_STEPS * 4 + 2 + h)] = l_run[h];
            }
        }
        __syncthreads();
        if (split_id > 0) {
            return;
        }
        for (int sp = 1; sp < SPLITS; ++sp) {
            const int w = sp * ROW_GROUPS + warp;
            float a_own[2];
            float a_other[2];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const float m_other = merge[slot(w, D_STEPS * 4 + h)];
                const float m_new = fmaxf(m_run[h], m_other);  // finite: split 0 holds key 0
                a_own[h] = exp2f(m_run[h] - m_new);
                a_other[h] = exp2f(m_other - m_new);
                l_run[h] = l_run[h] * a_own[h] + merge[slot(w, D_STEPS * 4 + 2 + h)] * a_other[h];
                m_run[h] = m_new;
            }
#pragma unroll
            for (int d = 0; d < D_STEPS; ++d) {
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    acc[d][i] = acc[d][i] * a_own[i >> 1] + merge[slot(w, d * 4 + i)] * a_other[i >> 1];
                }
            }
        }
    }

    // Epilogue: the quad's row sums, one division per element, the rows that exist.
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        l_run[h] += __shfl_xor_sync(0xffffffffu, l_run[h], 1);
        l_run[h] += __shfl_xor_sync(0xffffffffu, l_run[h], 2);
        if (rows[h] >= n_ctx) {
            continue;
        }
        float* orow = o + static_cast<long long>(rows[h]) * stride_on;
#pragma unroll
        for (int d = 0; d < D_STEPS; ++d) {
            orow[d * 8 + 2 * t] = acc[d][2 * h] / l_run[h];
            orow[d * 8 + 2 * t + 1] = acc[d][2 * h + 1] / l_run[h];
        }
    }
}
