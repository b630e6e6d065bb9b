import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride_row, M, N,
                BLOCK_SIZE: tl.constexpr, ROWS_PER_PROGRAM: tl.constexpr):
    # Program pid owns rows pid * ROWS_PER_PROGRAM ... (at most ROWS_PER_PROGRAM of them, none past M).
    # BLOCK_SIZE = next_power_of_2(N): a whole row is one tile.
    pid = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    # TODO: for each of this program's rows, with r = rstd[row] and g = dy * w:
    #       dx = r * g - x * r^3 * sum(g * x) / N, stored (masked).
    # TODO: dw[j] = sum over all rows of dy * x * r: sum this program's rows in a register tile, then add it to dw
    #       so that every program's contribution survives.
