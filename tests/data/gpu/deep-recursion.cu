// Recursion far deeper than the device stack: the fault must not be blamed on a buffer.
__device__ float deep(int depth, float v)
{
    volatile float frame[32];
    frame[depth & 31] = v;
    return depth == 0 ? frame[0] : deep(depth - 1, v + 1.0f) + frame[(depth * 7) & 31] * 0.0f;
}

extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + threadIdx.x;
    const float extra = deep(1 << 20, 0.0f);
    for (long long k = i; k < n && k < static_cast<long long>(blockIdx.x + 1) * BLOCK_SIZE; k += blockDim.x) {
        out[k] = x[k] + y[k] + extra * 0.0f;
    }
}
