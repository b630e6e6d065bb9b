import triton
import triton.language as tl


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)  # one program per row
    # TODO: the row starts at x_ptr + row * stride_row (padded rows: the stride, not n_cols).
    # TODO: a BLOCK_SIZE-wide fp32 accumulator; for each tile of BLOCK_SIZE columns, add the masked load
    #       (cols < n_cols) with a fill that adds nothing.
    # TODO: reduce the accumulator with tl.sum(..., axis=0) and store it at out_ptr + row.
