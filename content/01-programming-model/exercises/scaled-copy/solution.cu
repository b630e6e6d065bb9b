// out = alpha * x, one program (thread block) per tile of BLOCK_SIZE elements.
// Triton:                                         CUDA mirror:
//   pid = tl.program_id(0)                          blockIdx.x
//   offs = pid * BLOCK_SIZE + tl.arange(0, BS)      tile_start + i, the block's threads striding over the tile
//   keep = offs < n                                 if (off < n)
//   tl.store(out + offs, alpha * x, mask=keep)      out[off] = alpha * x[off]
extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long tile_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    // Thread t takes elements t, t + blockDim.x, t + 2 * blockDim.x, ... of the tile, so at every step the
    // 32 threads of a warp read 32 consecutive floats: one 128-byte line per warp access.
#pragma unroll 4
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (off < n) {
            out[off] = alpha * x[off];
        }
    }
}
