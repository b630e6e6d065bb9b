// Bug: no mask. When n is not a multiple of BLOCK_SIZE the last program reads x and y and writes out past n.
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        out[offset] = x[offset] + y[offset];
    }
}
