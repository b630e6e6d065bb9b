// C = A·B: A is M×K, B is K×N, C is M×N, all fp16 (__half), with element strides for every dimension.
// Program blockIdx.x computes one BLOCK_M × BLOCK_N tile of C; the block has 32 * NUM_WARPS threads.
extern "C" __global__ void matmul(const __half* __restrict__ a, const __half* __restrict__ b,
                                  __half* __restrict__ c, int M, int N, int K,
                                  int stride_am, int stride_ak, int stride_bk, int stride_bn,
                                  int stride_cm, int stride_cn)
{
    __shared__ __half a_tile[BLOCK_M][BLOCK_K];
    __shared__ __half b_tile[BLOCK_K][BLOCK_N];
    const int pid = blockIdx.x;
    const int tiles_m = (M + BLOCK_M - 1) / BLOCK_M;
    const int tiles_n = (N + BLOCK_N - 1) / BLOCK_N;
    // TODO: map pid to (pid_m, pid_n) with grouped ordering (GROUP_SIZE_M tile rows per group; clamp the last).
    // TODO: give each thread a part of the C tile and an fp32 accumulator for it.
    // TODO: for k0 = 0, BLOCK_K, 2*BLOCK_K, ... < K: copy the A and B tiles into shared memory with masks
    //       (rows < M, cols < N, k < K; 0 where masked), __syncthreads(), multiply-accumulate, __syncthreads().
    // TODO: convert to fp16 once (__float2half_rn) and store the elements with row < M and col < N.
}
