// -D BLOCK_M=64 -D BLOCK_N=64 -D NUM_WARPS=4; grid (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)), block 32 * NUM_WARPS.
extern "C" __global__ void copy_tile_kernel(const float* __restrict__ x, float* __restrict__ y, int M, int N,
                                            int stride_xm, int stride_xn, int stride_ym, int stride_yn)
{
    const long long row0 = static_cast<long long>(blockIdx.x) * BLOCK_M;
    const long long col0 = static_cast<long long>(blockIdx.y) * BLOCK_N;
    for (int t = threadIdx.x; t < BLOCK_M * BLOCK_N; t += blockDim.x) {
        const long long row = row0 + t / BLOCK_N;
        const long long col = col0 + t % BLOCK_N;
        if (row < M && col < N) {
            y[row * stride_ym + col * stride_yn] = x[row * stride_xm + col * stride_xn];
        }
    }
}
