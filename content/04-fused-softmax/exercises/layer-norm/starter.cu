// Layer-norm forward, CUDA track: one thread block per row (grid M, 32 * NUM_WARPS threads).
// y[row, i] = (x[row, i] - mean) * rstd * w[i] + b[i], with mean and rstd = 1 / sqrt(var + eps) of the row,
// both stored (mean[row], rstd[row]). Rows start at x + row * stride_x and y + row * stride_y.
extern "C" __global__ void layer_norm_fwd(const float* __restrict__ x, float* __restrict__ y,
                                          const float* __restrict__ w, const float* __restrict__ b,
                                          float* __restrict__ mean, float* __restrict__ rstd, int stride_x,
                                          int stride_y, int N, float eps, int M)
{
    // TODO: threads stride over the row (i = threadIdx.x; i < N; i += blockDim.x); reduce partial sums across
    //       the block (warp shuffles, then one partial per warp in shared memory) for the mean, then for the
    //       variance; thread 0 stores mean and rstd; every thread writes its columns of y.
    (void)x; (void)y; (void)w; (void)b; (void)mean; (void)rstd; (void)stride_x; (void)stride_y; (void)N; (void)eps; (void)M;
}
