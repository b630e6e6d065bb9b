// Float64 reference: one thread per row, three passes (max, sum, write).
extern "C" __global__ void softmax_ref(const double* x, double* out, int M, int N, int stride_x, int stride_out)
{
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= M) {
        return;
    }
    const double* xr = x + row * stride_x;
    double m = xr[0];
    for (int c = 1; c < N; ++c) {
        m = xr[c] > m ? xr[c] : m;
    }
    double s = 0.0;
    for (int c = 0; c < N; ++c) {
        s += exp(xr[c] - m);
    }
    for (int c = 0; c < N; ++c) {
        out[row * stride_out + c] = exp(xr[c] - m) / s;
    }
}
