import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # TODO: map pid to (pid_m, pid_n) with grouped ordering: GROUP_SIZE_M tile rows per group, swept column
    #       by column; the last group may be shorter, so clamp its height.
    # TODO: row offsets of A / C, column offsets of B / C, and tl.arange(0, BLOCK_K) for K.
    # TODO: an fp32 accumulator of BLOCK_M x BLOCK_N zeros.
    # TODO: for each BLOCK_K step: load the A tile and the B tile through their strides, masked on M / N and
    #       on the K tail with other=0.0, and accumulate with tl.dot.
    # TODO: convert to fp16 once and store the C tile through its strides, masked on M and N.
