import triton
import triton.language as tl


@triton.jit
def softmax_online(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    cols = tl.arange(0, BLOCK_SIZE)

    x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"))
    m = tl.max(x, axis=0)
    l = tl.sum(tl.exp(x - m), axis=0)
    for off in range(BLOCK_SIZE, N, BLOCK_SIZE):
        x = tl.load(x_row + off + cols, mask=off + cols < N, other=float("-inf"))
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new

    for off in range(0, N, BLOCK_SIZE):
        mask = off + cols < N
        x = tl.load(x_row + off + cols, mask=mask, other=float("-inf"))
        tl.store(out_row + off + cols, tl.exp(x - m) / l, mask=mask)
