// RMSNorm forward, CUDA track: one thread block per row (grid M, 32 * NUM_WARPS threads).
// rstd[row] = 1 / sqrt(mean of x[row, :]^2 + eps); y[row, i] = x[row, i] * rstd[row] * w[i].
extern "C" __global__ void rmsnorm_fwd(const float* __restrict__ x, const float* __restrict__ w,
                                       float* __restrict__ y, float* __restrict__ rstd, int stride_x, int stride_y,
                                       int N, float eps, int M)
{
    // TODO: threads stride over the row, reduce the sum of squares across the block, thread 0 stores rstd,
    //       every thread writes its columns of y.
    (void)x; (void)w; (void)y; (void)rstd; (void)stride_x; (void)stride_y; (void)N; (void)eps; (void)M;
}
