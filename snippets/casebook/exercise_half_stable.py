# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
"""Exercise: keep the custom softmax in float16, but subtract each row's maximum before exp."""

import torch
import torch.nn.functional as F
from minigpt import encode, load_model

model = load_model()
idx = torch.cat([encode("walk : yesterday she"), encode("eat : yesterday they")])
h = model.hidden(idx).detach()
with torch.no_grad():
    target = model.lm_head(h).argmax(-1).flatten()


# --8<-- [start:solution]
class ShiftedSoftmax(torch.autograd.Function):
    """The custom layer with one line more: exp of x - max(x), which is at most exp(0) = 1."""

    @staticmethod
    def forward(ctx, x):
        e = (x - x.amax(-1, keepdim=True)).exp()
        p = e / e.sum(-1, keepdim=True)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        return p * (g - (g * p).sum(-1, keepdim=True))


with torch.autocast("cpu", dtype=torch.float16):
    scores = model.lm_head(h)
    e = (scores - scores.amax(-1, keepdim=True)).exp()
    p = ShiftedSoftmax.apply(scores)
    loss = F.nll_loss(p.log().view(-1, 600), target)
# --8<-- [end:solution]
model.zero_grad()
loss.backward()
print(f"p {str(p.dtype)[6:]}: nan {p.isnan().sum().item()}, exactly 0 {(p == 0).sum().item()}, ", end="")
print(f"+inf after exp {e.isposinf().sum().item()}, row sums +inf {e.sum(-1).isposinf().sum().item()}")
nan_grad = model.lm_head.weight.grad.isnan().any().item()
print(f"loss is nan: {loss.isnan().item()}; head's weight gradient has nan: {nan_grad}")
reference = F.softmax(model.lm_head(h), -1)
print(f"largest difference from the float32 run < 1e-3: {(p - reference).abs().max().item() < 1e-3}")
print(f"what the layer saves for backward: {p.numel() * p.element_size()} bytes")
