// out[i] = alpha * x[i] for every i < n.
// One thread block = one Triton program that owns BLOCK_SIZE consecutive elements.
// The block has 32 * NUM_WARPS threads (blockDim.x), usually fewer than BLOCK_SIZE.
extern "C" __global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ out,
                                        float alpha, int n)
{
    const long long pid = blockIdx.x;  // tl.program_id(0): which tile is mine
    // TODO: compute where this program's tile starts (pid * BLOCK_SIZE).
    // TODO: let the block's threads walk the tile together: thread t handles t, t + blockDim.x, ...
    // TODO: mask every element with its global offset < n, then store alpha * x.
    (void)pid;
}
