// Float64 reference, grid M + cdiv(N, 128) blocks of 128 threads. Blocks 0 .. M-1 each take one row: a
// block-wide sum of dy * w * x (tree in shared memory), then dx for that row. The remaining blocks take 128
// columns each: thread j sums dy * x * r over every row for dw[j]. Each block does one of the two jobs.
extern "C" __global__ void rmsnorm_bwd_ref(const double* dy, const double* x, const double* w, const double* rstd,
                                           double* dx, double* dw, int stride_row, int M, int N)
{
    __shared__ double part[128];
    const int tid = threadIdx.x;
    if (static_cast<int>(blockIdx.x) < M) {
        const long long base = static_cast<long long>(blockIdx.x) * stride_row;
        double s = 0.0;
        for (int i = tid; i < N; i += blockDim.x) {
            s += dy[base + i] * w[i] * x[base + i];
        }
        part[tid] = s;
        __syncthreads();
        for (int h = blockDim.x / 2; h > 0; h /= 2) {
            if (tid < h) {
                part[tid] += part[tid + h];
            }
            __syncthreads();
        }
        const double c = part[0] / N;
        const double r = rstd[blockIdx.x];
        for (int i = tid; i < N; i += blockDim.x) {
            dx[base + i] = r * dy[base + i] * w[i] - x[base + i] * r * r * r * c;
        }
        return;
    }
    const int j = (static_cast<int>(blockIdx.x) - M) * blockDim.x + tid;
    if (j >= N) {
        return;
    }
    double acc = 0.0;
    for (int row = 0; row < M; ++row) {
        const long long base = static_cast<long long>(row) * stride_row;
        acc += dy[base + j] * x[base + j] * rstd[row];
    }
    dw[j] = acc;
}
