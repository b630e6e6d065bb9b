import triton
import triton.language as tl


@triton.jit
def softmax_online(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK_SIZE: tl.constexpr):
    # Row softmax for rows wider than one tile. One program per row, two passes over it in chunks of
    # BLOCK_SIZE columns: pass 1 finds the row max m and the denominator l = sum(exp(x - m)) together
    # (online), pass 2 writes exp(x - m) / l. The row is read twice and written once, instead of three reads
    # for a separate max pass.
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    out_row = out_ptr + row * stride_out
    cols = tl.arange(0, BLOCK_SIZE)

    # The first chunk starts m and l, so both are tensors before the loop carries them. Padding lanes read
    # -inf: they never win the max and exp(-inf - m) = 0 adds nothing to the sum.
    x = tl.load(x_row + cols, mask=cols < N, other=float("-inf"))
    m = tl.max(x, axis=0)
    l = tl.sum(tl.exp(x - m), axis=0)
    for off in range(BLOCK_SIZE, N, BLOCK_SIZE):
        x = tl.load(x_row + off + cols, mask=off + cols < N, other=float("-inf"))
        # Every chunk has at least one real column, so m_new is finite. l was summed against the old max:
        # multiply it by exp(m - m_new) (at most 1) before adding this chunk's terms, taken against m_new.
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new

    # Pass 2: m and l are final; every exponent is <= 0.
    for off in range(0, N, BLOCK_SIZE):
        mask = off + cols < N
        x = tl.load(x_row + off + cols, mask=mask, other=float("-inf"))
        tl.store(out_row + off + cols, tl.exp(x - m) / l, mask=mask)
