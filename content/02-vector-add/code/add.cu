// Built with -D BLOCK_SIZE=1024 -D NUM_WARPS=4.
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    const long long pid = blockIdx.x;
    const long long tile_start = pid * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (off < n) {
            const float a = x[off];
            const float b = y[off];
            out[off] = a + b;
        }
    }
}

// Host side: vector_add<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, 32 * NUM_WARPS, 0, stream>>>(x, y, out, n);
