import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: other=0.0. Every padding lane adds exp(0 - max) to the denominator, so any row whose width is
    # not a power of two is normalised wrongly (and an all-negative row also gets the wrong max).
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0), mask=mask)
