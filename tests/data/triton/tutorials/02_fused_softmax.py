"""Covers the constructs of Triton's tutorial 02 (fused softmax), written for this test: the one-row-per-program
kernel and the persistent kernel, whose programs stride over the rows with tl.range(..., num_stages=...) and
tl.num_programs(0)."""
import torch

import triton
import triton.language as tl
from triton.runtime import driver

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def softmax_one_row(y_ptr, x_ptr, x_row_stride, y_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    valid = cols < n_cols
    vals = tl.load(x_ptr + r * x_row_stride + cols, mask=valid, other=-float("inf"))
    shifted = vals - tl.max(vals, axis=0)
    e = tl.exp(shifted)
    out = e / tl.sum(e, axis=0)
    tl.store(y_ptr + r * y_row_stride + cols, out, mask=valid)


@triton.jit
def softmax_persistent(y_ptr, x_ptr, x_row_stride, y_row_stride, n_rows, n_cols, BLOCK_SIZE: tl.constexpr,
                       num_stages: tl.constexpr):
    first_row = tl.program_id(0)
    row_step = tl.num_programs(0)
    for r in tl.range(first_row, n_rows, row_step, num_stages=num_stages):
        src = x_ptr + r * x_row_stride
        cols = tl.arange(0, BLOCK_SIZE)
        valid = cols < n_cols
        vals = tl.load(src + cols, mask=valid, other=-float("inf"))
        shifted = vals - tl.max(vals, axis=0)
        e = tl.exp(shifted)
        total = tl.sum(e, axis=0)
        dst = y_ptr + r * y_row_stride
        tl.store(dst + cols, e / total, mask=valid)


props = driver.active.utils.get_device_properties(DEVICE.index)
SM_COUNT = props["multiprocessor_count"]


def softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    stages = 4 if n_cols <= 4096 else 2
    y = torch.empty_like(x)
    programs = min(SM_COUNT * 4, n_rows)
    softmax_persistent[(programs, 1, 1)](y, x, x.stride(0), y.stride(0), n_rows, n_cols, BLOCK_SIZE=block,
                                         num_stages=stages, num_warps=8)
    return y
