import triton
import triton.language as tl


@triton.jit
def softmax_ref(x_ptr, out_ptr, M, N, stride_x, stride_out, BLOCK: tl.constexpr):
    # Float64 judge, three plain passes (max, sum, write) over chunks of BLOCK columns; no online update.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    big = tl.full([BLOCK], float("-inf"), tl.float64)
    for c in range(0, N, BLOCK):
        v = tl.load(x_ptr + row * stride_x + c + offs, mask=c + offs < N, other=float("-inf"))
        big = tl.maximum(big, v)
    top = tl.max(big, axis=0)
    total = tl.zeros([BLOCK], dtype=tl.float64)
    for c in range(0, N, BLOCK):
        v = tl.load(x_ptr + row * stride_x + c + offs, mask=c + offs < N, other=float("-inf"))
        total += tl.exp(v - top)
    den = tl.sum(total, axis=0)
    for c in range(0, N, BLOCK):
        v = tl.load(x_ptr + row * stride_x + c + offs, mask=c + offs < N, other=float("-inf"))
        tl.store(out_ptr + row * stride_out + c + offs, tl.exp(v - top) / den, mask=c + offs < N)
