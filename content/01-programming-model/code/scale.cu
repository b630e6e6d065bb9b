// Compiled with -D BLOCK_SIZE=1024 -D NUM_WARPS=4; launched as
// scale_kernel<<<cdiv(n, BLOCK_SIZE), 32 * NUM_WARPS>>>(x, out, alpha, n).
extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long pid = blockIdx.x;
    const long long tile_start = pid * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (off < n) {
            out[off] = alpha * x[off];
        }
    }
}
