// One thread traps: the fault is a trap, not an out-of-bounds access of any buffer.
extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + threadIdx.x;
    if (blockIdx.x == 0 && threadIdx.x == 7) {
        __trap();
    }
    for (long long k = i; k < n && k < static_cast<long long>(blockIdx.x + 1) * BLOCK_SIZE; k += blockDim.x) {
        out[k] = x[k] + y[k];
    }
}
