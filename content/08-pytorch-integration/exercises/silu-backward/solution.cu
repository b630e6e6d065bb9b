// SiLU backward: dx = dy * d/dx [x * s(x)] = dy * (s + x * s * (1 - s)), s = sigmoid(x).
// Recomputes s from the saved input x instead of saving it in the forward: one exp per element is cheaper
// than writing and re-reading another n floats.
extern "C" __global__ void silu_bwd(const float* __restrict__ x, const float* __restrict__ dy,
                                    float* __restrict__ dx, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const float xv = x[offset];
            const float s = 1.0f / (1.0f + expf(-xv));
            dx[offset] = dy[offset] * (s + xv * s * (1.0f - s));
        }
    }
}
