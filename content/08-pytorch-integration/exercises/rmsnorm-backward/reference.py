import triton
import triton.language as tl


@triton.jit
def rmsnorm_bwd_ref(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_ptr, stride_row, M, N, BLOCK: tl.constexpr):
    # Float64 judge, one program per row: dx of that row, and the row's dy * x * r added into dw. The atomic add
    # is an fp64 one; the runner starts dw at zero for the reference as for the learner.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < N
    gy = tl.load(dy_ptr + row * stride_row + offs, mask=inside, other=0.0)
    v = tl.load(x_ptr + row * stride_row + offs, mask=inside, other=0.0)
    scale = tl.load(w_ptr + offs, mask=inside, other=0.0)
    r = tl.load(rstd_ptr + row)
    proj = tl.sum(gy * scale * v, axis=0) / N
    tl.store(dx_ptr + row * stride_row + offs, r * gy * scale - v * r * r * r * proj, mask=inside)
    tl.atomic_add(dw_ptr + offs, gy * v * r, mask=inside)
