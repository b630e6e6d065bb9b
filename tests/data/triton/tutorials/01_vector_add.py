"""Covers the constructs of Triton's tutorial 01 (vector addition), written for this test: one tile of
BLOCK_SIZE elements per program, a ragged last tile guarded by a mask, a host wrapper with a grid lambda."""
import torch

import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def vec_add_kernel(a_ptr, b_ptr, c_ptr, numel, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    first = pid * BLOCK_SIZE
    idx = first + tl.arange(0, BLOCK_SIZE)
    inside = idx < numel
    a = tl.load(a_ptr + idx, mask=inside)
    b = tl.load(b_ptr + idx, mask=inside)
    tl.store(c_ptr + idx, a + b, mask=inside)


def vec_add(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty_like(a)
    numel = c.numel()
    grid = lambda meta: (triton.cdiv(numel, meta["BLOCK_SIZE"]), )
    vec_add_kernel[grid](a, b, c, numel, BLOCK_SIZE=1024)
    return c


if __name__ == "__main__":
    a = torch.rand(4097, device=DEVICE)
    b = torch.rand(4097, device=DEVICE)
    torch.testing.assert_close(vec_add(a, b), a + b)
