// Float64 reference: one thread per element.
extern "C" __global__ void silu_fwd_ref(const double* x, double* y, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const double s = 1.0 / (1.0 + exp(-x[i]));
        y[i] = x[i] * s;
    }
}
