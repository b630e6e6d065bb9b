import triton
import triton.language as tl


@triton.jit
def row_sum_ref(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK: tl.constexpr):
    # Float64 judge: one program per row, fp64 partial sums over tiles of BLOCK columns.
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float64)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
