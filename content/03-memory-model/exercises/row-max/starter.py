import triton
import triton.language as tl


@triton.jit
def row_max(x_ptr, out_ptr, M, N, stride_row, stride_col, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)  # one program per row; the grid has M programs
    # TODO: point at the start of this row with stride_row (never assume it equals N).
    # TODO: a BLOCK_SIZE-wide running max, started at a value that can never win.
    # TODO: for each tile of BLOCK_SIZE columns: load x[row, cols] through stride_col, masked with cols < N,
    #       with a fill (other=) that can never win a max, and fold it into the running max.
    # TODO: reduce the running max to one value (tl.max over axis 0) and store it at out_ptr + row.
