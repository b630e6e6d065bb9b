// Float64 reference: one block of 128 threads per query row, three passes over the keys (max, then
// denominator and weighted sum), scores recomputed instead of stored. Plain and slow on purpose.
extern "C" __global__ void attention_ref(const double* q, const double* k, const double* v, double* o, int n_ctx,
                                         float sm_scale, int stride_qn, int stride_kn, int stride_vn,
                                         int stride_on)
{
    const int kDim = 64;
    __shared__ double red[128];
    __shared__ double q_row[kDim];
    const long long row = blockIdx.x;
    const int tid = threadIdx.x;
    if (tid < kDim) {
        q_row[tid] = q[row * stride_qn + tid];
    }
    __syncthreads();

    // Pass 1: the row max of the scores.
    double m = -1.0e308;
    for (long long j = tid; j < n_ctx; j += blockDim.x) {
        double s = 0.0;
        for (int c = 0; c < kDim; ++c) {
            s += q_row[c] * k[j * stride_kn + c];
        }
        s *= static_cast<double>(sm_scale);
        m = s > m ? s : m;
    }
    red[tid] = m;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (tid < w && red[tid + w] > red[tid]) {
            red[tid] = red[tid + w];
        }
        __syncthreads();
    }
    m = red[0];
    __syncthreads();

    // Pass 2: exp(s - m) per key; each thread keeps its own denominator and weighted sum of V.
    double l = 0.0;
    double acc[kDim];
    for (int c = 0; c < kDim; ++c) {
        acc[c] = 0.0;
    }
    for (long long j = tid; j < n_ctx; j += blockDim.x) {
        double s = 0.0;
        for (int c = 0; c < kDim; ++c) {
            s += q_row[c] * k[j * stride_kn + c];
        }
        const double p = exp(s * static_cast<double>(sm_scale) - m);
        l += p;
        for (int c = 0; c < kDim; ++c) {
            acc[c] += p * v[j * stride_vn + c];
        }
    }

    // Reduce l, then each output column, across the block.
    red[tid] = l;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (tid < w) {
            red[tid] += red[tid + w];
        }
        __syncthreads();
    }
    const double l_total = red[0];
    __syncthreads();
    for (int c = 0; c < kDim; ++c) {
        red[tid] = acc[c];
        __syncthreads();
        for (int w = blockDim.x / 2; w > 0; w /= 2) {
            if (tid < w) {
                red[tid] += red[tid + w];
            }
            __syncthreads();
        }
        if (tid == 0) {
            o[row * stride_on + c] = red[0] / l_total;
        }
        __syncthreads();
    }
}
