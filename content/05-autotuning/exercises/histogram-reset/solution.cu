// Histogram in Triton's style: program pid owns BLOCK_SIZE values, counts them privately, then accumulates
// its counts into the global output. Accumulating into `hist` is only correct on a zeroed buffer: when tuning,
// declare reset_to_zero: ["hist"], the analog of @triton.autotune(reset_to_zero=["hist_ptr"]).
extern "C" __global__ void histogram(const int* __restrict__ x, int* __restrict__ hist, int n, int num_bins)
{
    extern __shared__ int local[];  // num_bins counters, this program's private histogram
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
                atomicAdd(&local[v], 1);  // shared-memory atomic: contention stays inside the SM
            }
        }
    }
    __syncthreads();

    // One global atomic per non-empty bin per program, instead of one per value.
    for (int b = threadIdx.x; b < num_bins; b += blockDim.x) {
        const int count = local[b];
        if (count != 0) {
            atomicAdd(&hist[b], count);
        }
    }
}
