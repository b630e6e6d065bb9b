// Masked vector add in Triton's style.
// Triton:                                     CUDA mirror:
//   pid = tl.program_id(0)                      blockIdx.x
//   offsets = pid*BLOCK_SIZE + tl.arange(...)   block_start + i, threads striding over the tile
//   mask = offsets < n                          if (offset < n)
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    const long long pid = blockIdx.x;
    const long long block_start = pid * BLOCK_SIZE;
    // Consecutive threads touch consecutive addresses: every warp access is one coalesced 128-byte line.
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            out[offset] = x[offset] + y[offset];
        }
    }
}
