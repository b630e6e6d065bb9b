// Bug: the tile start is computed as if a program were blockDim.x threads with one element each
// (blockIdx.x * blockDim.x). Tiles overlap, and the grid of cdiv(n, BLOCK_SIZE) programs stops far short of n.
extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long tile_start = static_cast<long long>(blockIdx.x) * blockDim.x;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (off < n) {
            out[off] = alpha * x[off];
        }
    }
}
