import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd_ref(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride_row, M, N, BLOCK: tl.constexpr):
    # Float64 judge, one program per row for dx. dw is a sum over all rows: program 0 alone walks every row
    # and sums dy * x * r in fp64, so the judge needs no atomics and adds in one fixed order.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < N
    scale = tl.load(w_ptr + offs, mask=inside, other=0.0)
    gy = tl.load(dy_ptr + row * stride_row + offs, mask=inside, other=0.0)
    v = tl.load(x_ptr + row * stride_row + offs, mask=inside, other=0.0)
    r = tl.load(rstd_ptr + row)
    proj = tl.sum(gy * scale * v, axis=0) / N
    tl.store(dx_ptr + row * stride_row + offs, r * gy * scale - v * r * r * r * proj, mask=inside)
    if row == 0:
        total = tl.zeros([BLOCK], dtype=tl.float64)
        for i in range(0, M):
            gi = tl.load(dy_ptr + i * stride_row + offs, mask=inside, other=0.0)
            vi = tl.load(x_ptr + i * stride_row + offs, mask=inside, other=0.0)
            total += gi * vi * tl.load(rstd_ptr + i)
        tl.store(dw_ptr + offs, total, mask=inside)
