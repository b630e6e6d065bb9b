// Float64 reference: one thread per row.
extern "C" __global__ void rmsnorm_ref(const double* x, const double* w, double* y, double* rstd, int stride_x,
                                       int stride_y, int N, float eps, int M)
{
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= M) {
        return;
    }
    double q = 0.0;
    for (int i = 0; i < N; ++i) {
        q += x[row * stride_x + i] * x[row * stride_x + i];
    }
    const double r = 1.0 / sqrt(q / N + static_cast<double>(eps));
    rstd[row] = r;
    for (int i = 0; i < N; ++i) {
        y[row * stride_y + i] = x[row * stride_x + i] * r * w[i];
    }
}
