// The same assert with NDEBUG defined before <cassert>: compiled out, as under nvcc, so the kernel passes.
#define NDEBUG
#include <cassert>

extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + threadIdx.x;
    for (long long k = i; k < n && k < static_cast<long long>(blockIdx.x + 1) * BLOCK_SIZE; k += blockDim.x) {
        const float sum = x[k] + y[k];
        assert(k != 5 && "element 5 is refused");
        out[k] = sum;
    }
}
