@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    a = tl.load(x_ptr + offs)
    b = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, a + b)


# n = 1000 elements, BLOCK_SIZE = 1024: a single program, whose tile covers offsets 0 … 1023
add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
