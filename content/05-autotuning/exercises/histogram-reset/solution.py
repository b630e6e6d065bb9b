import triton
import triton.language as tl

# This kernel adds into hist, so it is only right on a zeroed hist. Under @triton.autotune the kernel runs
# several times on the same buffers while timing, so the output must be declared:
#   @triton.autotune(configs=[...], key=["n", "num_bins"], reset_to_zero=["hist_ptr"])
# In this exercise: tick hist under reset_to_zero (or tkm-run --reset-to-zero hist) when you tune.


@triton.jit
def histogram(x_ptr, hist_ptr, n, num_bins, BLOCK_SIZE: tl.constexpr):
    # hist[b] += number of values equal to b in this program's tile of BLOCK_SIZE values.
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_range = offsets < n
    v = tl.load(x_ptr + offsets, mask=in_range, other=0)
    # The atomic's own mask decides which lanes count. The padding lanes read 0 (other=0), and without
    # in_range here each of them would add one to bin 0. Values outside [0, num_bins) are skipped.
    valid = in_range & (v >= 0) & (v < num_bins)
    # One atomic add per value: the GPU's L2 atomics are fast, and integer adds commute, so the result does
    # not depend on the order the programs run in. Many programs hit the same bins at once, which is why a
    # plain load + store would lose updates.
    tl.atomic_add(hist_ptr + v, 1, mask=valid)
