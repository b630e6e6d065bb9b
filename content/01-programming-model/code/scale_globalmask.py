@triton.jit
def scale_kernel(x_ptr, out_ptr, alpha, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    lane = tl.arange(0, BLOCK_SIZE)
    offs = pid * BLOCK_SIZE + lane
    keep = offs < n
    vals = tl.load(x_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, alpha * vals, mask=keep)


# n = 1025, BLOCK_SIZE = 1024: two programs
scale_kernel[(triton.cdiv(n, 1024),)](x, out, 2.0, n, BLOCK_SIZE=1024)
