import triton
import triton.language as tl


@triton.jit
def vector_add(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    # out = x + y, one tile of BLOCK_SIZE elements per program, cdiv(n, BLOCK_SIZE) programs.
    pid = tl.program_id(axis=0)
    # A block of pointers offsets: BLOCK_SIZE consecutive elements, so Triton can give each thread a run of
    # neighbouring elements and use 16-byte vector loads.
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    # n is rarely a multiple of BLOCK_SIZE: the last tile is ragged. Masked-off lanes are never read or
    # written, so their addresses may point past the end.
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    # The store needs the mask as much as the loads: without it the last program writes past out's end.
    tl.store(out_ptr + offsets, x + y, mask=mask)
