import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride_x, stride_y, N, eps,
                   BLOCK_SIZE: tl.constexpr):
    # One program per row. The row may be far wider than one tile, so it is walked in chunks of BLOCK_SIZE
    # three times: sum for the mean, sum of squared deviations for the variance, then normalise and store.
    # The second and third passes read the row again; for rows this size it comes back from L2.
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y

    # Pass 1: a tile-wide fp32 accumulator, reduced once after the loop (one tl.sum, not one per chunk).
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_row + cols, mask=cols < N, other=0.0)
    mean = tl.sum(acc, axis=0) / N

    # Pass 2: the variance from deviations (two-pass), not E[x^2] - mean^2, which cancels catastrophically
    # when the mean is large against the spread. Padding lanes would contribute (0 - mean)^2: zero them.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    # The backward pass needs both statistics: save them, one float each per row.
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    # Pass 3: normalise, scale and shift, masked like the loads.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_row + cols, (x - mean) * rstd * w + b, mask=mask)
