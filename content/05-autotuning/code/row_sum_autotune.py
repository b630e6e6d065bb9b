import torch
import triton
import triton.language as tl

@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 128}, num_warps=1),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=16),
    ],
    key=["n_rows", "n_cols"],
)
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_ptr = x_ptr + row * stride_row
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(row_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))

def row_sum(x):
    out = torch.empty(x.shape[0], device=x.device, dtype=torch.float32)
    row_sum_kernel[(x.shape[0],)](x, out, x.shape[0], x.shape[1], x.stride(0))
    return out
