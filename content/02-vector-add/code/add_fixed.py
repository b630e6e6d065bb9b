@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_range = offs < n
    a = tl.load(x_ptr + offs, mask=in_range)
    b = tl.load(y_ptr + offs, mask=in_range)
    tl.store(out_ptr + offs, a + b, mask=in_range)


# n = 1000 elements, BLOCK_SIZE = 1024: lanes 1000 … 1023 of the only tile are masked off
add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
