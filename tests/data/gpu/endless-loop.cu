// Bug: the loop condition never becomes false (clock64() keeps the compiler from removing the loop).
extern "C" __global__ void vector_add(const float* __restrict__ x, const float* __restrict__ y,
                                      float* __restrict__ out, int n)
{
    long long spins = 0;
    while (clock64() >= 0) {
        ++spins;
    }
    if (threadIdx.x == 0 && spins == -1) {
        out[0] = x[0] + y[0];
    }
}
