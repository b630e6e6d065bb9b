// Bug: returns the local derivative d SiLU / dx and forgets to multiply by the incoming gradient dy. Only
// correct when every upstream gradient is 1 (a scalar loss that is a plain sum of y).
extern "C" __global__ void silu_bwd(const float* __restrict__ x, const float* __restrict__ dy,
                                    float* __restrict__ dx, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const float xv = x[offset];
            const float s = 1.0f / (1.0f + expf(-xv));
            dx[offset] = s + xv * s * (1.0f - s);
        }
    }
}
