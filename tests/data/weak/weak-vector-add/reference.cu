// Float64 reference: one thread per element, no tiling, nothing clever.
extern "C" __global__ void vector_add_ref(const double* x, const double* y, double* out, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = x[i] + y[i];
    }
}
