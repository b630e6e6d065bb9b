import triton
import triton.language as tl

# The tuning job lists the configs (the app's table or tkm-run --config). Written as Triton would, they are
# the decorator below; key=["n_rows", "n_cols"] caches one winner per shape. Left as a comment here because
# the exercise's table is the source of the configs.
#
# @triton.autotune(
#     configs=[
#         triton.Config({"BLOCK_SIZE": 128}, num_warps=1),
#         triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
#         triton.Config({"BLOCK_SIZE": 4096}, num_warps=16),
#     ],
#     key=["n_rows", "n_cols"],
# )


@triton.jit
def row_sum(x_ptr, out_ptr, n_rows, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    # out[row] = sum of x[row, :n_cols], one program per row (the grid is n_rows).
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row.to(tl.int64) * stride_row
    # One fp32 partial sum per lane, reduced once after the loop: each step is a plain vector add, and the
    # single tl.sum at the end is the only cross-thread work.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        # other=0.0 is the identity of +: masked lanes add nothing.
        acc += tl.load(row_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))
