// Bug: the derivative of x * s(x) treated as s(x) alone, as if x were a constant: the product rule's
// x * s * (1 - s) term is missing.
extern "C" __global__ void silu_bwd(const float* __restrict__ x, const float* __restrict__ dy,
                                    float* __restrict__ dx, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const float s = 1.0f / (1.0f + expf(-x[offset]));
            dx[offset] = dy[offset] * s;
        }
    }
}
