@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": 128}, num_warps=1),
             triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
             triton.Config({"BLOCK_SIZE": 4096}, num_warps=16)],
    key=["n_rows", "n_cols"],
)
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    ...

row_sum(torch.randn(65536, 2048, device="cuda"))   # tunes for (65536, 2048)
row_sum(torch.randn(16, 2048, device="cuda"))      # new key (16, 2048): tunes again
