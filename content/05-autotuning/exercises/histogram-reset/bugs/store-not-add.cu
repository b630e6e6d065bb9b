// Bug: each program stores its own counts into hist. Every bin ends up holding the counts of whichever program
// wrote it last, not the sum over all programs.
extern "C" __global__ void histogram(const int* __restrict__ x, int* __restrict__ hist, int n, int num_bins)
{
    extern __shared__ int local[];
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        local[b] = 0;
    }
    __syncthreads();
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const int v = x[offset];
            if (v >= 0 && v < num_bins) {
                atomicAdd(&local[v], 1);
            }
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        const int count = local[b];
        if (count != 0) {
            hist[b] = count;  // overwrites the other programs' counts
        }
    }
}
