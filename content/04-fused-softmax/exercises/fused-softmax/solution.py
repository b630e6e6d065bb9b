import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Row softmax, fused: one program per row reads its row from DRAM once, keeps it in registers, and
    # writes the result once. BLOCK_SIZE = next_power_of_2(N) (tl.arange needs a power of two), so the
    # lanes N .. BLOCK_SIZE - 1 are padding and must be masked.
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    # Padding lanes read -inf: it never wins the max, and exp(-inf - max) = 0 adds nothing to the sum.
    # The row start uses the stride, not N: the input may be a padded view.
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=float("-inf"))
    # Shift by the row max so that every exponent is <= 0: exp stays in (0, 1] instead of overflowing
    # for inputs above ~88.7 (fp32), and the max element contributes exactly 1 to the denominator.
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * stride_out + cols, num / den, mask=mask)
