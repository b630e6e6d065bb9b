// Bug: the mask compares the index inside the tile (i) with n instead of the global offset. Every tile but the
// first passes the test for all of its lanes, so the last program reads x past its end.
extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long tile_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (i < n) {
            out[off] = alpha * x[off];
        }
    }
}
