import triton
import triton.language as tl


@triton.jit
def softmax_online(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Bug: the loads fill padding lanes with 0.0 instead of -inf. In a ragged chunk each padding lane adds
    # exp(0 - m) to the sum, and for a row of negative values 0 also becomes the max.
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    cols = tl.arange(0, BLOCK_SIZE)

    x = tl.load(x_row + cols, mask=cols < N, other=0.0)
    m = tl.max(x, axis=0)
    l = tl.sum(tl.exp(x - m), axis=0)
    for off in range(BLOCK_SIZE, N, BLOCK_SIZE):
        x = tl.load(x_row + off + cols, mask=off + cols < N, other=0.0)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new

    for off in range(0, N, BLOCK_SIZE):
        mask = off + cols < N
        x = tl.load(x_row + off + cols, mask=mask, other=float("-inf"))
        tl.store(out_row + off + cols, tl.exp(x - m) / l, mask=mask)
