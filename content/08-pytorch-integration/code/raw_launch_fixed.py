from torch.library import triton_op, wrap_triton

@triton_op("mylib::scale_", mutates_args={"x"})
def scale_(x: torch.Tensor, alpha: float) -> None:
    n = x.numel()
    wrap_triton(scale_kernel)[(triton.cdiv(n, 1024),)](x, x, alpha, n, BLOCK_SIZE=1024)
