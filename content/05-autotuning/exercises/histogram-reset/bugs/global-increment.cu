// Bug: no private histogram and no atomics: hist[v] = hist[v] + 1 from many threads at once. Two threads that
// read the same old count both write old + 1, and one increment is lost.
extern "C" __global__ void histogram(const int* __restrict__ x, int* __restrict__ hist, int n, int num_bins)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    for (int i = threadIdx.x; i < BLOCK_SIZE; i += blockDim.x) {
        const long long offset = block_start + i;
        if (offset < n) {
            const int v = x[offset];
            if (v >= 0 && v < num_bins) {
                hist[v] = hist[v] + 1;  // read-modify-write race
            }
        }
    }
}
