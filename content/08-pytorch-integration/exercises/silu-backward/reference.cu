// Float64 reference: the analytic gradient of x * sigmoid(x), one thread per element.
extern "C" __global__ void silu_bwd_ref(const double* x, const double* dy, double* dx, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const double s = 1.0 / (1.0 + exp(-x[i]));
        dx[i] = dy[i] * (s + x[i] * s * (1.0 - s));
    }
}
