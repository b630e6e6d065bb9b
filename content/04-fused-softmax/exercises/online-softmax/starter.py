import triton
import triton.language as tl


@triton.jit
def softmax_online(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # One program per row; N may be many times BLOCK_SIZE.
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    cols = tl.arange(0, BLOCK_SIZE)
    # TODO pass 1: walk the row in chunks keeping the running max m and the running sum l of exp(x - m);
    #      when a chunk raises the max, rescale l first. (Start m and l from the first chunk: a value a loop
    #      carries must be a tensor before the loop.)
    # TODO pass 2: walk the row again and store exp(x - m) / l, masked.
