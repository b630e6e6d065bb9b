// One block per row; tile = block_size floats of dynamic shared memory; block_max/block_sum as in the exercise.
extern "C" __global__ void softmax(const float* x, float* out, int M, int N, int stride_x, int stride_out,
                                   int block_size)
{
    extern __shared__ float tile[];
    __shared__ float scratch[32];
    const float* xr = x + static_cast<long long>(blockIdx.x) * stride_x;
    float* orow = out + static_cast<long long>(blockIdx.x) * stride_out;
    float m = NEG_INF;
    for (int i = threadIdx.x; i < block_size; i += blockDim.x) {
        tile[i] = i < N ? xr[i] : NEG_INF;
        m = fmaxf(m, tile[i]);
    }
    m = block_max(m, scratch);
    float s = 0.0f;
    for (int i = threadIdx.x; i < block_size; i += blockDim.x) {
        tile[i] = expf(tile[i] - m);
        s += tile[i];
    }
    s = block_sum(s, scratch);
    for (int i = threadIdx.x; i < N; i += blockDim.x) {
        orow[i] = tile[i] / s;
    }
}
