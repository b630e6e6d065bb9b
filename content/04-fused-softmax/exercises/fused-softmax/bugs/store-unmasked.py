import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: the load is masked, the store is not. Each program writes BLOCK_SIZE - N padding lanes (zeros)
    # after its row: into the next row, which its own program overwrites later or has already written
    # (a race on the GPU), and for the last row past the end of out.
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=float("-inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + cols, num / tl.sum(num, axis=0))
