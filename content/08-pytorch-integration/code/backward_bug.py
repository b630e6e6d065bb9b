def setup_context(ctx, inputs, output):
    (x,) = inputs
    ctx.save_for_backward(x)

def backward(ctx, dy):
    (x,) = ctx.saved_tensors
    s = torch.sigmoid(x)
    return s + x * s * (1 - s)

silu.register_autograd(backward, setup_context=setup_context)
