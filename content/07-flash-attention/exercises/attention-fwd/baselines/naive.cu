// Standard attention as three kernels that materialise the N × N score matrix in DRAM:
//   scores  = sm_scale · Q·Kᵀ         (writes N² floats)
//   softmax over each row, in place     (reads N², writes N²)
//   O       = P · V                     (reads N²)
// HEAD_DIM comes from the exercise's meta-parameters.
extern "C" __global__ void naive_scores(const float* __restrict__ q, const float* __restrict__ k,
                                        float* __restrict__ scores, int n_ctx, float sm_scale,
                                        int stride_qn, int stride_kn)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<long long>(n_ctx) * n_ctx) {
        return;
    }
    const long long i = idx / n_ctx;
    const long long j = idx % n_ctx;
    float s = 0.0f;
    for (int c = 0; c < HEAD_DIM; ++c) {
        s = fmaf(q[i * stride_qn + c], k[j * stride_kn + c], s);
    }
    scores[idx] = s * sm_scale;
}

extern "C" __global__ void naive_softmax(float* __restrict__ scores, int n_ctx)
{
    __shared__ float red[256];
    float* row = scores + static_cast<long long>(blockIdx.x) * n_ctx;
    float m = __int_as_float(0xff800000);
    for (int j = threadIdx.x; j < n_ctx; j += blockDim.x) {
        m = fmaxf(m, row[j]);
    }
    red[threadIdx.x] = m;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) {
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + w]);
        }
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float l = 0.0f;
    for (int j = threadIdx.x; j < n_ctx; j += blockDim.x) {
        l += expf(row[j] - m);
    }
    red[threadIdx.x] = l;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) {
            red[threadIdx.x] += red[threadIdx.x + w];
        }
        __syncthreads();
    }
    const float inv_l = 1.0f / red[0];
    for (int j = threadIdx.x; j < n_ctx; j += blockDim.x) {
        row[j] = expf(row[j] - m) * inv_l;
    }
}

extern "C" __global__ void naive_pv(const float* __restrict__ probs, const float* __restrict__ v,
                                    float* __restrict__ o, int n_ctx, int stride_vn, int stride_on)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<long long>(n_ctx) * HEAD_DIM) {
        return;
    }
    const long long i = idx / HEAD_DIM;
    const int c = static_cast<int>(idx % HEAD_DIM);
    const float* p_row = probs + i * n_ctx;
    float sum = 0.0f;
    for (long long j = 0; j < n_ctx; ++j) {
        sum = fmaf(p_row[j], v[j * stride_vn + c], sum);
    }
    o[i * stride_on + c] = sum;
}
