import triton
import triton.language as tl


@triton.jit
def row_max_ref(x_ptr, out_ptr, M, N, stride_row, stride_col):
    # Float64 judge: one program per row walks the row one element at a time through both strides,
    # starting from the first element itself (no fill value involved).
    row = tl.program_id(0)
    p = x_ptr + row * stride_row
    m = tl.load(p)
    for col in range(1, N):
        m = tl.maximum(m, tl.load(p + col * stride_col))
    tl.store(out_ptr + row, m)
