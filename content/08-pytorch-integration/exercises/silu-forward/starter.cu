// y[i] = x[i] * sigmoid(x[i]) for i < n. Program blockIdx.x owns BLOCK_SIZE elements; 32 * NUM_WARPS threads.
// Some inputs are as large as ±100: pick a form of sigmoid that never computes inf / inf.
extern "C" __global__ void silu_fwd(const float* __restrict__ x, float* __restrict__ y, int n)
{
    const long long block_start = static_cast<long long>(blockIdx.x) * BLOCK_SIZE;
    // TODO: walk the tile with the block's threads, mask with offset < n, store x * sigmoid(x).
}
