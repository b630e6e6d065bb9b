// Bug: sigmoid as exp(x) / (1 + exp(x)). For x > 88.7 both overflow to +inf and s = NaN, so the gradient of
// large positive activations, where SiLU is simply the identity with slope 1, comes out NaN.
extern "C" __global__ void silu_bwd(const float* __restrict__ x, const float* __restrict__ dy,
                                    float* __restrict__ dx, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const float xv = x[offset];
            const float e = expf(xv);
            const float s = e / (1.0f + e);
            dx[offset] = dy[offset] * (s + xv * s * (1.0f - s));
        }
    }
}
