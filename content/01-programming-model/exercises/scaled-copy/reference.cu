// Float64 reference for out = alpha * x: one thread per element, no tiling.
extern "C" __global__ void scale_ref(const double* x, double* out, float alpha, int n)
{
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = static_cast<double>(alpha) * x[i];
    }
}
