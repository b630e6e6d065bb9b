// SiLU backward: dx = dy * d/dx [x * s(x)] = dy * (s + x * s * (1 - s)), s = sigmoid(x).
// Recomputes s from the saved input x instead of saving it in the forward: one exp per element is cheaper
// than writing and re-reading another n floats.
//
// Speed: a memory-bound elementwise kernel. A whole tile moves in 16-byte accesses (float4), each thread issues
// the loads of x and dy before its first store, and only the last, partial tile takes the masked scalar path.
constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kVecs = BLOCK_SIZE / 4;                                // float4 per tile
constexpr int kPerThread = (kVecs + kThreads - 1) / kThreads;        // float4 each thread owns
constexpr int kUnroll = kPerThread < 4 ? kPerThread : 4;             // float4 of each input in flight per thread

__device__ __forceinline__ float silu_grad(float x, float dy)
{
    const float s = 1.0f / (1.0f + expf(-x));
    return dy * (s + x * s * (1.0f - s));
}

extern "C" __global__ void silu_bwd(const float* __restrict__ x, const float* __restrict__ dy,
                                    float* __restrict__ dx, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    if (block_start + BLOCK_SIZE <= n) {
        // A whole tile, 16-byte aligned (block_start is a multiple of BLOCK_SIZE, the buffers start aligned).
        const float4* x4 = reinterpret_cast<const float4*>(x + block_start);
        const float4* dy4 = reinterpret_cast<const float4*>(dy + block_start);
        float4* dx4 = reinterpret_cast<float4*>(dx + block_start);
        for (int base = 0; base < kVecs; base += kThreads * kUnroll) {
            float4 a[kUnroll];
            float4 g[kUnroll];
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    a[j] = x4[i];
                    g[j] = dy4[i];
                }
            }
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    dx4[i] = make_float4(silu_grad(a[j].x, g[j].x), silu_grad(a[j].y, g[j].y),
                                         silu_grad(a[j].z, g[j].z), silu_grad(a[j].w, g[j].w));
                }
            }
        }
        return;
    }
    // The last tile runs past n: element by element, masked.
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            dx[offset] = silu_grad(x[offset], dy[offset]);
        }
    }
}
