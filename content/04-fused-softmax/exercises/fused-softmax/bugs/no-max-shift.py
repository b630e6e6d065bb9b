import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: no max subtraction. Mathematically the same softmax, numerically broken: tl.exp overflows to
    # inf for inputs above ~88.7, and inf / inf is NaN.
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=float("-inf"))
    num = tl.exp(x)
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0), mask=mask)
