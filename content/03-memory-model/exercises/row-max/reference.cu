// Float64 reference: one thread per row walks the row through the strides. Slow and obviously right.
extern "C" __global__ void row_max_ref(const double* x, double* out, int M, int N, int stride_row, int stride_col)
{
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= M) {
        return;
    }
    const double* p = x + row * stride_row;
    double m = p[0];
    for (long long col = 1; col < N; ++col) {
        const double v = p[col * stride_col];
        m = v > m ? v : m;
    }
    out[row] = m;
}
