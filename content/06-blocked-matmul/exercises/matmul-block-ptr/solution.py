import triton
import triton.language as tl


@triton.jit
def matmul_bp(a_ptr, b_ptr, c_ptr, M, N, K,
              stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # C = A @ B (fp16 in, fp32 accumulate, fp16 out) with block pointers. Program (pid_m, pid_n) owns one
    # BLOCK_M x BLOCK_N tile of C. A block pointer carries the matrix's shape and strides and a window's
    # offsets; the compiler derives the addresses, and boundary_check derives the masks from the shape.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    # The A window starts at row pid_m * BLOCK_M, column 0 and slides right along K; the B window starts at
    # row 0, column pid_n * BLOCK_N and slides down along K. order=(1, 0): the last dimension is contiguous
    # in the usual row-major case (a layout hint; the strides decide the addresses).
    a_blk = tl.make_block_ptr(base=a_ptr, shape=(M, K), strides=(stride_am, stride_ak),
                              offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_K), order=(1, 0))
    b_blk = tl.make_block_ptr(base=b_ptr, shape=(K, N), strides=(stride_bk, stride_bn),
                              offsets=(0, pid_n * BLOCK_N), block_shape=(BLOCK_K, BLOCK_N), order=(1, 0))
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        # Both dimensions can leave the matrix (rows past M or columns past N, and the K tail): check both
        # and pad with zeros, which add nothing to the dot.
        a = tl.load(a_blk, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_blk, boundary_check=(0, 1), padding_option="zero")
        acc = tl.dot(a, b, acc)
        # tl.advance returns a moved copy: assign it.
        a_blk = tl.advance(a_blk, (0, BLOCK_K))
        b_blk = tl.advance(b_blk, (BLOCK_K, 0))
    c_blk = tl.make_block_ptr(base=c_ptr, shape=(M, N), strides=(stride_cm, stride_cn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    # Round to fp16 once; the store's boundary check drops the lanes outside C.
    tl.store(c_blk, acc.to(tl.float16), boundary_check=(0, 1))
