// C = A·B with fp16 inputs and output and an fp32 accumulator on the tensor cores, one C tile per program, in
// Triton's style. What `tl.dot` compiles to on sm_80 and newer (Triton's MMAv2 path), written out:
// Triton:                                          CUDA mirror:
//   pid -> (pid_m, pid_n), grouped by GROUP_SIZE_M     same arithmetic on blockIdx.x
//   acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)     each warp owns a (BLOCK_M/2) x (BLOCK_N/(NUM_WARPS/2))
//                                                      part of the tile as mma.sync accumulator fragments
//   for k0 in range(0, K, BLOCK_K): tl.load(...)        cp.async copies the tiles of the next STAGES - 1 steps
//                                                      into shared memory while the tensor cores work
//       acc = tl.dot(a, b, acc)                         ldmatrix loads fragments, mma.sync m16n8k16 multiplies
//   tl.store(c_ptrs, acc.to(tl.float16), mask=...)     one fp16 rounding per element, at the very end
//
// A first step without tensor cores (shared-memory tiles, FMAs on the CUDA cores) is first-step.cu beside this
// file: the same structure, 14 times slower at 4096^3 on an H200
// (5.68 ms against 0.395 ms; cuBLAS 0.199 ms).
//
// Shared memory holds STAGES copies of the A tile (BLOCK_M x BLOCK_K) and the B tile (BLOCK_K x BLOCK_N), rows
// in 16-byte chunks whose order is XOR-swizzled with the row number, so that the eight rows one ldmatrix phase
// reads fall into eight different bank groups (no padding, so three 16 KiB stages fit in 48 KiB).
// Blocks whose tile lies inside the matrices, with K a multiple of BLOCK_K and 16-byte-aligned rows (contiguous
// k in A and n in B), take the cp.async pipeline; edge tiles and other layouts fill the same shared tiles element
// by element with the masks (other=0.0) and use the same tensor-core loop.
#define THREADS (32 * NUM_WARPS)
#define WARPS_M 2
#define WARPS_N (NUM_WARPS / WARPS_M)
#define WARP_M (BLOCK_M / WARPS_M)    // rows of C per warp
#define WARP_N (BLOCK_N / WARPS_N)    // columns of C per warp
#define MT (WARP_M / 16)              // m16 fragments per warp
#define NT (WARP_N / 8)               // n8 fragments per warp
#define A_CHUNKS (BLOCK_K / 8)        // 16-byte chunks in a row of the A tile
#define B_CHUNKS (BLOCK_N / 8)        // 16-byte chunks in a row of the B tile
#define STAGE_HALVES (BLOCK_M * BLOCK_K + BLOCK_K * BLOCK_N)
#define STAGES_FIT (49152 / (STAGE_HALVES * 2))
#define STAGES (STAGES_FIT > 4 ? 4 : STAGES_FIT)

// Physical chunk of logical chunk `c` in row `r` of a tile with `chunks` 16-byte chunks a row: the XOR spreads
// eight consecutive rows over the eight 16-byte bank groups of a 128-byte line.
__device__ __forceinline__ int swizzle(int r, int c, int chunks)
{
    const int rows_per_line = chunks >= 8 ? 1 : 8 / chunks;
    const int period = chunks >= 8 ? 8 : chunks;
    return c ^ ((r / rows_per_line) % period);
}

__device__ __forceinline__ unsigned smem_addr(const void* p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void cp_async16(void* dst, const void* src)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem_addr(dst)), "l"(src));
}

__device__ __forceinline__ void cp_async_commit()
{
    asm volatile("cp.async.commit_group;\n" ::);
}

template <int N>
__device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
}

__device__ __forceinline__ void ldmatrix_x4_trans(unsigned (&r)[4], const void* p)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(smem_addr(p)));
}

// d += a (16x16, row-major) * b (16x8, column-major), fp16 in, fp32 accumulate.
__device__ __forceinline__ void mma_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

struct Tiles
{
    __half a[STAGES][BLOCK_M * BLOCK_K];
    __half b[STAGES][BLOCK_K * BLOCK_N];
};

// The cp.async copies of the fast path. Each thread copies the same chunks of every k-tile, so their shared and
// global addresses are computed once; a k-tile moves the A pointers by BLOCK_K and the B pointers by BLOCK_K rows.
#define A_PER_THREAD ((BLOCK_M * A_CHUNKS + THREADS - 1) / THREADS)
#define B_PER_THREAD ((BLOCK_K * B_CHUNKS + THREADS - 1) / THREADS)
struct AsyncLoader
{
    const __half* a_src[A_PER_THREAD];
    int a_dst[A_PER_THREAD];  // element offset in a stage of the A tile; -1: no chunk for this thread
    const __half* b_src[B_PER_THREAD];
    int b_dst[B_PER_THREAD];
    long long b_step;         // elements between the B rows of consecutive k-tiles

    __device__ AsyncLoader(const __half* a, const __half* b, int m0, int n0, int stride_am, int stride_bk)
    {
#pragma unroll
        for (int i = 0; i < A_PER_THREAD; ++i) {
            const int e = threadIdx.x + i * THREADS;
            const int r = e / A_CHUNKS;
            const int c = e % A_CHUNKS;
            a_dst[i] = e < BLOCK_M * A_CHUNKS ? r * BLOCK_K + swizzle(r, c, A_CHUNKS) * 8 : -1;
            a_src[i] = a + static_cast<long long>(m0 + r) * stride_am + c * 8;
        }
#pragma unroll
        for (int i = 0; i < B_PER_THREAD; ++i) {
            const int e = threadIdx.x + i * THREADS;
            const int r = e / B_CHUNKS;
            const int c = e % B_CHUNKS;
            b_dst[i] = e < BLOCK_K * B_CHUNKS ? r * BLOCK_N + swizzle(r, c, B_CHUNKS) * 8 : -1;
            b_src[i] = b + static_cast<long long>(r) * stride_bk + n0 + c * 8;
        }
        b_step = static_cast<long long>(BLOCK_K) * stride_bk;
    }

    // cp.async of k-tile `kt` into `stage` (the whole tile is inside the matrices).
    __device__ __forceinline__ void load(Tiles& t, int stage, int kt) const
    {
#pragma unroll
        for (int i = 0; i < A_PER_THREAD; ++i) {
            if (a_dst[i] >= 0) {
                cp_async16(&t.a[stage][a_dst[i]], a_src[i] + kt * BLOCK_K);
            }
        }
#pragma unroll
        for (int i = 0; i < B_PER_THREAD; ++i) {
            if (b_dst[i] >= 0) {
                cp_async16(&t.b[stage][b_dst[i]], b_src[i] + kt * b_step);
            }
        }
    }
};

// Element-by-element load of k-tile `kt` into stage 0 with the masks (other=0.0): edge tiles, any strides.
__device__ void load_tile_masked(Tiles& t, const __half* a, const __half* b, int M, int N, int K, int m0, int n0,
                                 int kt, int stride_am, int stride_ak, int stride_bk, int stride_bn)
{
    const int k0 = kt * BLOCK_K;
    for (int e = threadIdx.x; e < BLOCK_M * BLOCK_K; e += THREADS) {
        const int r = e / BLOCK_K;
        const int kk = e % BLOCK_K;
        const int row = m0 + r;
        const int k = k0 + kk;
        t.a[0][r * BLOCK_K + swizzle(r, kk / 8, A_CHUNKS) * 8 + kk % 8] =
            (row < M && k < K) ? a[static_cast<long long>(row) * stride_am + static_cast<long long>(k) * stride_ak]
                               : __float2half(0.0f);
    }
    for (int e = threadIdx.x; e < BLOCK_K * BLOCK_N; e += THREADS) {
        const int kk = e / BLOCK_N;
        const int cn = e % BLOCK_N;
        const int k = k0 + kk;
        const int col = n0 + cn;
        t.b[0][kk * BLOCK_N + swizzle(kk, cn / 8, B_CHUNKS) * 8 + cn % 8] =
            (k < K && col < N) ? b[static_cast<long long>(k) * stride_bk + static_cast<long long>(col) * stride_bn]
                               : __float2half(0.0f);
    }
}

// Fragments of one k16 step for this warp: MT A fragments (16x16) and NT B fragments (16x8).
struct Frags
{
    unsigned a[MT][4];
    unsigned b[NT][2];
};

__device__ __forceinline__ void load_frags(Frags& f, const Tiles& t, int stage, int k16, int warp_m, int warp_n)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int i = 0; i < MT; ++i) {
        // Lanes 0-15 give rows 0-15 at k 0-7, lanes 16-31 the same rows at k 8-15.
        const int r = warp_m * WARP_M + i * 16 + (lane & 15);
        const int c = k16 * 2 + (lane >> 4);
        ldmatrix_x4(f.a[i], &t.a[stage][r * BLOCK_K + swizzle(r, c, A_CHUNKS) * 8]);
    }
#pragma unroll
    for (int j = 0; j < NT; j += 2) {
        // Transposed: lanes 0-7 / 8-15 give k rows 0-7 / 8-15 of n columns 0-7, lanes 16-31 of columns 8-15.
        const int r = k16 * 16 + (lane & 7) + ((lane >> 3) & 1) * 8;
        const int c = (warp_n * WARP_N + j * 8) / 8 + (lane >> 4);
        unsigned q[4];
        ldmatrix_x4_trans(q, &t.b[stage][r * BLOCK_N + swizzle(r, c, B_CHUNKS) * 8]);
        f.b[j][0] = q[0];
        f.b[j][1] = q[1];
        f.b[j + 1][0] = q[2];
        f.b[j + 1][1] = q[3];
    }
}

// acc += this warp's part of A-tile x B-tile of `stage`, BLOCK_K / 16 steps of m16n8k16. The fragments of step
// k16 + 1 are loaded before the multiplications of step k16, so shared-memory latency hides behind the tensor cores.
__device__ __forceinline__ void mma_tile(const Tiles& t, int stage, int warp_m, int warp_n, float (&acc)[MT][NT][4])
{
    Frags f[2];
    load_frags(f[0], t, stage, 0, warp_m, warp_n);
#pragma unroll
    for (int k16 = 0; k16 < BLOCK_K / 16; ++k16) {
        if (k16 + 1 < BLOCK_K / 16) {
            load_frags(f[(k16 + 1) & 1], t, stage, k16 + 1, warp_m, warp_n);
        }
        const Frags& cur = f[k16 & 1];
#pragma unroll
        for (int i = 0; i < MT; ++i) {
#pragma unroll
            for (int j = 0; j < NT; ++j) {
                mma_16816(acc[i][j], cur.a[i], cur.b[j][0], cur.b[j][1]);
            }
        }
    }
}

extern "C" __global__ void __launch_bounds__(THREADS) matmul(const __half* __restrict__ a, const __half* __restrict__ b,
                                  __half* __restrict__ c, int M, int N, int K,
                                  int stride_am, int stride_ak, int stride_bk, int stride_bn,
                                  int stride_cm, int stride_cn)
{
    static_assert(NUM_WARPS % WARPS_M == 0 && WARP_M % 16 == 0 && WARP_N % 16 == 0 && BLOCK_K % 16 == 0,
                  "this tensor-core kernel needs NUM_WARPS even, BLOCK_M/2 a multiple of 16, "
                  "BLOCK_N/(NUM_WARPS/2) a multiple of 16 and BLOCK_K a multiple of 16");
    static_assert(STAGES >= 2, "the tiles of two k-steps must fit in 48 KiB of shared memory");
    __shared__ __align__(128) Tiles tiles;

    // Grouped ordering: GROUP_SIZE_M tile rows are swept column by column, so their A panels and the B panels
    // they share stay in L2. The last group may have fewer rows: clamp it.
    const int pid = blockIdx.x;
    const int tiles_m = (M + BLOCK_M - 1) / BLOCK_M;
    const int tiles_n = (N + BLOCK_N - 1) / BLOCK_N;
    const int per_group = GROUP_SIZE_M * tiles_n;
    const int first_m = (pid / per_group) * GROUP_SIZE_M;
    const int rows_in_group = tiles_m - first_m < GROUP_SIZE_M ? tiles_m - first_m : GROUP_SIZE_M;
    const int pid_m = first_m + (pid % per_group) % rows_in_group;
    const int pid_n = (pid % per_group) / rows_in_group;
    const int m0 = pid_m * BLOCK_M;
    const int n0 = pid_n * BLOCK_N;

    const int warp = threadIdx.x >> 5;
    const int warp_m = warp % WARPS_M;
    const int warp_n = warp / WARPS_M;
    float acc[MT][NT][4] = {};  // fp32 accumulator: the sum over K never sees fp16 rounding
    const int k_tiles = (K + BLOCK_K - 1) / BLOCK_K;

    // Every thread of the block takes the same branch (the condition depends on the block and the strides).
    const bool fast = m0 + BLOCK_M <= M && n0 + BLOCK_N <= N && K % BLOCK_K == 0 && stride_ak == 1 &&
                      stride_bn == 1 && stride_am % 8 == 0 && stride_bk % 8 == 0 &&
                      (reinterpret_cast<unsigned long long>(a) & 15) == 0 &&
                      (reinterpret_cast<unsigned long long>(b) & 15) == 0;
    if (fast) {
        const AsyncLoader loader(a, b, m0, n0, stride_am, stride_bk);
        // Prologue: the first STAGES - 1 k-tiles in flight.
#pragma unroll
        for (int s = 0; s < STAGES - 1; ++s) {
            if (s < k_tiles) {
                loader.load(tiles, s, s);
            }
            cp_async_commit();
        }
        for (int kt = 0; kt < k_tiles; ++kt) {
            cp_async_wait<STAGES - 2>();  // k-tile kt has landed (for this thread) ...
            __syncthreads();              // ... for every thread, and stage (kt - 1) % STAGES is free again
            const int next = kt + STAGES - 1;
            if (next < k_tiles) {
                loader.load(tiles, next % STAGES, next);
            }
            cp_async_commit();  // an empty group at the end keeps the wait count right
            mma_tile(tiles, kt % STAGES, warp_m, warp_n, acc);
        }
        cp_async_wait<0>();
    } else {
        for (int kt = 0; kt < k_tiles; ++kt) {
            load_tile_masked(tiles, a, b, M, N, K, m0, n0, kt, stride_am, stride_ak, stride_bk, stride_bn);
            __syncthreads();
            mma_tile(tiles, 0, warp_m, warp_n, acc);
            __syncthreads();  // the next iteration overwrites the tiles
        }
    }

    // acc.to(tl.float16) once, then a masked store. Fragment layout of m16n8: lane (g = lane / 4, t = lane % 4)
    // holds rows g and g + 8, columns 2t and 2t + 1.
    const int lane = threadIdx.x & 31;
    const int g = lane >> 2;
    const int t4 = lane & 3;
    const bool pairs = stride_cn == 1 && stride_cm % 2 == 0 && (reinterpret_cast<unsigned long long>(c) & 3) == 0;
#pragma unroll
    for (int i = 0; i < MT; ++i) {
#pragma unroll
        for (int j = 0; j < NT; ++j) {
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = m0 + warp_m * WARP_M + i * 16 + g + h * 8;
                const int col = n0 + warp_n * WARP_N + j * 8 + t4 * 2;
                if (row >= M) {
                    continue;
                }
                __half* out = c + static_cast<long long>(row) * stride_cm;
                if (pairs && col + 1 < N) {
                    *reinterpret_cast<__half2*>(out + col) = __floats2half2_rn(acc[i][j][2 * h], acc[i][j][2 * h + 1]);
                } else {
                    if (col < N) {
                        out[static_cast<long long>(col) * stride_cn] = __float2half_rn(acc[i][j][2 * h]);
                    }
                    if (col + 1 < N) {
                        out[static_cast<long long>(col + 1) * stride_cn] = __float2half_rn(acc[i][j][2 * h + 1]);
                    }
                }
            }
        }
    }
}
