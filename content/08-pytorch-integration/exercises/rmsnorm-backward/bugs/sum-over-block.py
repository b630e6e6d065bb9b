import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride_row, M, N,
                BLOCK_SIZE: tl.constexpr, ROWS_PER_PROGRAM: tl.constexpr):
    # Bug: the correction's mean divides by BLOCK_SIZE, the tile width, instead of N.
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    dw_acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    row_start = pid * ROWS_PER_PROGRAM
    for row in range(row_start, min(row_start + ROWS_PER_PROGRAM, M)):
        dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0)
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
        r = tl.load(rstd_ptr + row)
        g = dy * w
        c = tl.sum(g * x, axis=0) / BLOCK_SIZE
        tl.store(dx_ptr + row * stride_row + cols, r * g - x * (r * r * r * c), mask=mask)
        dw_acc += dy * x * r
    tl.atomic_add(dw_ptr + cols, dw_acc, mask=mask)
