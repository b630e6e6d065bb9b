import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: the padding lanes are filled with 0.0 and only the sum excludes them (tl.where). For ordinary rows
    # that is right; for a row of all-negative values the "max" is 0, the shift is lost, and a row far below
    # zero underflows to exp(x) = 0 everywhere: 0 / 0 = NaN.
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    num = tl.where(mask, tl.exp(x - tl.max(x, axis=0)), 0.0)
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0), mask=mask)
