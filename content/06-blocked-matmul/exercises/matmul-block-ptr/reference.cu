// Float64 reference: one thread per element of C.
extern "C" __global__ void matmul_ref(const double* a, const double* b, double* c, int M, int N, int K, int stride_am,
                                      int stride_ak, int stride_bk, int stride_bn, int stride_cm, int stride_cn)
{
    const long long idx = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (idx >= static_cast<long long>(M) * N) {
        return;
    }
    const long long row = idx / N;
    const long long col = idx % N;
    double acc = 0.0;
    for (long long k = 0; k < K; ++k) {
        acc += a[row * stride_am + k * stride_ak] * b[k * stride_bk + col * stride_bn];
    }
    c[row * stride_cm + col * stride_cn] = acc;
}
