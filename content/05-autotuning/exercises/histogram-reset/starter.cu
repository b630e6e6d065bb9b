// hist[b] = number of i < n with x[i] == b, for 0 <= b < num_bins.
// Program blockIdx.x owns x[blockIdx.x * BLOCK_SIZE ...] (BLOCK_SIZE values); the block has 32 * NUM_WARPS threads
// and num_bins ints of dynamic shared memory. Several programs add into the same bins of `hist`, which starts
// at zero; when you tune, declare reset_to_zero for it so that it is zeroed before every launch.
extern "C" __global__ void histogram(const int* __restrict__ x, int* __restrict__ hist, int n, int num_bins)
{
    extern __shared__ int local[];  // this program's private histogram
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    // TODO: zero local[0 .. num_bins-1], synchronise.
    // TODO: count this program's masked values into local with shared-memory atomics, synchronise.
    // TODO: add every non-zero local[b] into hist[b] atomically.
}
