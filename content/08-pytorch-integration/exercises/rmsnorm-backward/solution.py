import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride_row, M, N,
                BLOCK_SIZE: tl.constexpr, ROWS_PER_PROGRAM: tl.constexpr):
    # Backward of y = x * r * w with r = 1 / sqrt(mean(x^2) + eps), given g = dy * w:
    #   dx = r * g - x * r^3 * sum(g * x) / N     (the second term: every x of the row moves r)
    #   dw = sum over rows of dy * x * r
    # Each program owns ROWS_PER_PROGRAM consecutive rows. dx is per row; dw is a sum over all M rows, so each
    # program sums its own rows in registers and adds that partial to dw with one atomic per column.
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    dw_acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    row_start = pid * ROWS_PER_PROGRAM
    # The last program may own fewer rows: clamp to M.
    for row in range(row_start, min(row_start + ROWS_PER_PROGRAM, M)):
        dy = tl.load(dy_ptr + row * stride_row + cols, mask=mask, other=0.0)
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0)
        # rstd was saved by the forward pass: one float per row, no second reduction over x^2.
        r = tl.load(rstd_ptr + row)
        g = dy * w
        c = tl.sum(g * x, axis=0) / N
        tl.store(dx_ptr + row * stride_row + cols, r * g - x * (r * r * r * c), mask=mask)
        dw_acc += dy * x * r
    # Other programs add to the same columns: an atomic add, never a store. dw starts at zero.
    tl.atomic_add(dw_ptr + cols, dw_acc, mask=mask)
