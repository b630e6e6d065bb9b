// Bug: stores one element early, out[offset - 1], so the first program writes before the start of `out`.
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            out[offset - 1] = x[offset] + y[offset];
        }
    }
}
