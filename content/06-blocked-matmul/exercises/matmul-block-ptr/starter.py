import triton
import triton.language as tl


@triton.jit
def matmul_bp(a_ptr, b_ptr, c_ptr, M, N, K,
              stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # Program (pid_m, pid_n) computes the BLOCK_M x BLOCK_N tile of C at (pid_m * BLOCK_M, pid_n * BLOCK_N).
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # TODO: block pointers for the A window (BLOCK_M x BLOCK_K) and the B window (BLOCK_K x BLOCK_N) with
    #       tl.make_block_ptr(base=..., shape=..., strides=..., offsets=..., block_shape=..., order=(1, 0)).
    # TODO: loop over K: load both windows with boundary_check and zero padding, accumulate tl.dot in fp32,
    #       move the windows with tl.advance.
    # TODO: store acc as fp16 through a block pointer on C, with boundary_check.
