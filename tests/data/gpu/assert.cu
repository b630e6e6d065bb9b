// One thread fails an assert (<assert.h> under NVRTC): a fault of kind `assert` on line 9, no buffer blamed.
#include <assert.h>

extern "C" __global__ void vector_add(const float* x, const float* y, float* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * BLOCK_SIZE + threadIdx.x;
    for (long long k = i; k < n && k < static_cast<long long>(blockIdx.x + 1) * BLOCK_SIZE; k += blockDim.x) {
        const float sum = x[k] + y[k];
        assert(k != 5 && "element 5 is refused");
        out[k] = sum;
    }
}
