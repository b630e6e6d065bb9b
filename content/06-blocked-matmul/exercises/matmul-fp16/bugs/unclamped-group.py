import triton
import triton.language as tl


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K,
           stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr):
    # Bug: the pid -> (pid_m, pid_n) decomposition assumes every group has GROUP_SIZE_M tile rows. When
    # num_pid_m is not a multiple of GROUP_SIZE_M, programs of the last group land on rows past M (masked
    # away, so nothing faults) while some C tiles are never computed.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)

    # Grouped ordering. Consecutive programs run at the same time; row-major order would have them share one
    # row of A tiles and stream every B column panel. Sweeping GROUP_SIZE_M tile rows column by column
    # instead makes neighbours share both their A panels and their B panels, so more of them hit in L2.
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = GROUP_SIZE_M
    pid_m = first_pid_m + (pid % num_pid_in_group) % group_size_m
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    # 2-D blocks of pointers: [BLOCK_M, 1] rows against [1, BLOCK_K] columns broadcast to the whole tile.
    # Every address goes through both strides, so a transposed B or padded rows of A just work.
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn

    # fp32 accumulator: K products are summed without fp16 rounding; tl.dot of fp16 tiles accumulates in fp32
    # on the tensor cores.
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        # Masks on every edge, with 0.0 as the fill: a zero row, column or K slice adds nothing to the dot.
        # (Mind the parentheses: & binds tighter than <.)
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] < K - k0)
        b_mask = (offs_k[:, None] < K - k0) & (offs_n[None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        acc = tl.dot(a, b, acc)
        # Pointer blocks advance along K instead of being recomputed.
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    # Round to fp16 once, at the very end.
    c = acc.to(tl.float16)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))
