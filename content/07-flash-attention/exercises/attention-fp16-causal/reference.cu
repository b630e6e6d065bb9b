// Float64 reference: one thread per query row, head dimension 64, two passes over the visible keys (the max,
// then the weights and the weighted sum).
extern "C" __global__ void attention_ref(const double* q, const double* k, const double* v, double* o, int n_ctx,
                                         float sm_scale, int stride_qn, int stride_kn, int stride_vn, int stride_on,
                                         int causal)
{
    const int kDim = 64;
    const long long row = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (row >= n_ctx) {
        return;
    }
    const long long last = causal ? row : n_ctx - 1;
    const double scale = static_cast<double>(sm_scale);
    double m = -1.0e308;
    for (long long j = 0; j <= last; ++j) {
        double s = 0.0;
        for (int d = 0; d < kDim; ++d) {
            s += q[row * stride_qn + d] * k[j * stride_kn + d];
        }
        m = s * scale > m ? s * scale : m;
    }
    double l = 0.0;
    double acc[kDim];
    for (int d = 0; d < kDim; ++d) {
        acc[d] = 0.0;
    }
    for (long long j = 0; j <= last; ++j) {
        double s = 0.0;
        for (int d = 0; d < kDim; ++d) {
            s += q[row * stride_qn + d] * k[j * stride_kn + d];
        }
        const double p = exp(s * scale - m);
        l += p;
        for (int d = 0; d < kDim; ++d) {
            acc[d] += p * v[j * stride_vn + d];
        }
    }
    for (int d = 0; d < kDim; ++d) {
        o[row * stride_on + d] = acc[d] / l;
    }
}
