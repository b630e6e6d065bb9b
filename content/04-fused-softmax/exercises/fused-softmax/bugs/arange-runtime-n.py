import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: tl.arange(0, N) with the run-time width N. A tile's shape is fixed when the kernel is compiled,
    # so arange's bounds must be tl.constexpr (and their difference a power of two): Triton refuses this.
    # That is why the launcher passes BLOCK_SIZE = triton.next_power_of_2(N) and the kernel masks cols < N.
    row = tl.program_id(axis=0)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + row * stride_x + cols)
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0))
