// out = alpha * x, one program (thread block) per tile of BLOCK_SIZE elements.
// Triton:                                         CUDA mirror:
//   pid = tl.program_id(0)                          blockIdx.x
//   offs = pid * BLOCK_SIZE + tl.arange(0, BS)      tile_start + i, the block's threads striding over the tile
//   keep = offs < n                                 if (off < n)
//   tl.store(out + offs, alpha * x, mask=keep)      out[off] = alpha * x[off]
//
// Speed, as Triton's compiled code gets it: a whole tile moves in 16-byte accesses (float4: one instruction per
// four elements), and every thread issues all its loads before its first store, so each SM keeps many bytes in
// flight. Only the last, partial tile takes the element-by-element path with the mask.
constexpr int kThreads = 32 * NUM_WARPS;
constexpr int kVecs = BLOCK_SIZE / 4;                                // float4 per tile
constexpr int kPerThread = (kVecs + kThreads - 1) / kThreads;        // float4 each thread owns
constexpr int kUnroll = kPerThread < 4 ? kPerThread : 4;             // loads in flight per thread per step

extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long tile_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    if (tile_start + BLOCK_SIZE <= n) {
        // A whole tile: tile_start is a multiple of BLOCK_SIZE (>= 128 floats) and the buffers start 16-byte
        // aligned, so every float4 is aligned. Thread t takes float4 t, t + kThreads, ...: a warp reads 512
        // consecutive bytes per instruction.
        const float4* x4 = reinterpret_cast<const float4*>(x + tile_start);
        float4* out4 = reinterpret_cast<float4*>(out + tile_start);
        for (int base = 0; base < kVecs; base += kThreads * kUnroll) {
            float4 v[kUnroll];
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    v[j] = x4[i];
                }
            }
#pragma unroll
            for (int j = 0; j < kUnroll; ++j) {
                const int i = base + j * kThreads + static_cast<int>(threadIdx.x);
                if (i < kVecs) {
                    out4[i] = make_float4(alpha * v[j].x, alpha * v[j].y, alpha * v[j].z, alpha * v[j].w);
                }
            }
        }
        return;
    }
    // The last tile runs past n: element by element, masked.
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long off = tile_start + i;
        if (off < n) {
            out[off] = alpha * x[off];
        }
    }
}
