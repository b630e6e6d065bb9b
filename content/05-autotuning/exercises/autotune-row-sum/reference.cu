// Float64 reference: one block of 256 threads per row, a plain shared-memory tree over the row.
extern "C" __global__ void row_sum_ref(const double* x, double* out, int n_rows, int n_cols, int stride_row)
{
    __shared__ double partial[256];
    const long long row = blockIdx.x;
    double s = 0.0;
    for (int col = threadIdx.x; col < n_cols; col += blockDim.x) {
        s += x[row * stride_row + col];
    }
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int width = blockDim.x / 2; width > 0; width /= 2) {
        if (threadIdx.x < width) {
            partial[threadIdx.x] += partial[threadIdx.x + width];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[row] = partial[0];
    }
}
