// Masked vector add in Triton's style.
// Triton:                                     CUDA mirror:
//   pid = tl.program_id(0)                      blockIdx.x
//   offsets = pid*BLOCK_SIZE + tl.arange(...)   block_start + i, threads striding over the tile
//   mask = offsets < n                          if (offset < n)
//
// Speed, as Triton's compiled code gets it: a whole tile moves in 16-byte accesses (float4), each thread issues
// the loads of both inputs before its first store (bytes in flight hide the DRAM latency), and only the last,
// partial tile takes the element-by-element path with the mask.
constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kVecs = BLOCK_SIZE / 4;                                // float4 per tile
constexpr int kPerThread = (kVecs + kThreads - 1) / kThreads;        // float4 each thread owns
constexpr int kUnroll = kPerThread < 4 ? kPerThread : 4;             // float4 of each input in flight per thread

extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    if (block_start + BLOCK_SIZE <= n) {
        // A whole tile, 16-byte aligned (block_start is a multiple of BLOCK_SIZE, the buffers start aligned).
        // Consecutive threads take consecutive float4: one warp instruction covers 512 contiguous bytes.
        const float4* x4 = reinterpret_cast<const float4*>(x + block_start);
        const float4* y4 = reinterpret_cast<const float4*>(y + block_start);
        float4* out4 = reinterpret_cast<float4*>(out + block_start);
        for (int base = 0; base < kVecs; base += kThreads * kUnroll) {
            float4 a[kUnroll];
            float4 b[kUnroll];
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    a[j] = x4[i];
                    b[j] = y4[i];
                }
            }
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    out4[i] = make_float4(a[j].x + b[j].x, a[j].y + b[j].y, a[j].z + b[j].z, a[j].w + b[j].w);
                }
            }
        }
        return;
    }
    // The last tile runs past n: element by element, masked.
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            out[offset] = x[offset] + y[offset];
        }
    }
}
