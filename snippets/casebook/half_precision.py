# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
"""A hand-written softmax under float16 autocast on the CPU: the nan, where it comes from, and the fix."""

import torch
import torch.nn.functional as F
from minigpt import encode, load_model
from torch.utils._python_dispatch import TorchDispatchMode

model = load_model()
idx = torch.cat([encode("walk : yesterday she"), encode("eat : yesterday they")])
h = model.hidden(idx).detach()  # (2, 5, 64): the states the head reads
with torch.no_grad():
    target = model.lm_head(h).argmax(-1).flatten()  # the tokens the model predicts, in float32


# --8<-- [start:layer]
class NaiveSoftmax(torch.autograd.Function):
    """A custom layer: softmax written from its definition, with its own backward."""

    @staticmethod
    def forward(ctx, x):
        e = x.exp()
        p = e / e.sum(-1, keepdim=True)
        ctx.save_for_backward(p)
        return p

    @staticmethod
    def backward(ctx, g):
        (p,) = ctx.saved_tensors
        return p * (g - (g * p).sum(-1, keepdim=True))


def step(softmax):
    """The head, the layer and the loss, under float16 autocast."""
    with torch.autocast("cpu", dtype=torch.float16):
        p = softmax(model.lm_head(h))
        loss = F.nll_loss(p.log().view(-1, 600), target)
    return p, loss
# --8<-- [end:layer]


# --8<-- [start:mode]
class DtypeLog(TorchDispatchMode):
    """Each aten op as it runs: the dtypes it read, the dtype it wrote, how many +inf and nan it wrote."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, tuple) else out
        if func.__name__.split(".")[0] not in ("view", "t", "_unsafe_view", "detach"):
            read = ",".join(str(a.dtype)[6:] for a in args if isinstance(a, torch.Tensor))
            counts = f"+inf {first.isposinf().sum().item():>2}  nan {first.isnan().sum().item():>2}"
            print(f"  {func.__name__:<24} {read:<23} -> {str(first.dtype)[6:]:<8} {counts}")
        return out
# --8<-- [end:mode]


def report(name, p, loss):
    model.zero_grad()
    loss.backward()
    nan_grad = model.lm_head.weight.grad.isnan().any().item()
    print(f"{name:<26} nan in p: {p.isnan().sum().item():>2}, p exactly 0: {(p == 0).sum().item():>4}, ", end="")
    print(f"loss is nan: {loss.isnan().item()}, head's weight gradient has nan: {nan_grad}")


# --8<-- [start:symptom]
report("custom layer, float16:", *step(NaiveSoftmax.apply))
report("built-in softmax, float16:", *step(lambda s: F.softmax(s, -1)))
p = NaiveSoftmax.apply(model.lm_head(h))  # no autocast: float32 throughout
report("custom layer, float32:", p, F.nll_loss(p.log().view(-1, 600), target))
# --8<-- [end:symptom]
# --8<-- [start:where]
print("dispatch log, custom layer:")
with DtypeLog():
    step(NaiveSoftmax.apply)
print("dispatch log, built-in softmax:")
with DtypeLog():
    step(lambda s: F.softmax(s, -1))
print("dispatch log, cross_entropy on the same scores:")
with DtypeLog(), torch.autocast("cpu", dtype=torch.float16):
    F.cross_entropy(model.lm_head(h).view(-1, 600), target)
try:
    with torch.autograd.detect_anomaly():
        step(NaiveSoftmax.apply)[1].backward()
except RuntimeError as error:
    print("anomaly mode:", error)
# --8<-- [end:where]


# --8<-- [start:fix]
class CastSoftmax(NaiveSoftmax):
    """The same layer, declared to autocast: its inputs are cast to float32 before it runs."""

    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
    def forward(ctx, x):
        return NaiveSoftmax.forward(ctx, x)

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, g):
        return NaiveSoftmax.backward(ctx, g)


print("dispatch log, the fixed layer:")
with DtypeLog():
    p, loss = step(CastSoftmax.apply)
report("fixed layer, autocast:", p, loss)
reference = F.softmax(model.lm_head(h), -1)  # no autocast: the head in float32 too
print(f"largest difference from the float32 run < 1e-3: {(p - reference).abs().max().item() < 1e-3}")
p16 = step(lambda s: F.softmax(s, -1))[0]
wide, narrow = p.numel() * p.element_size(), p16.numel() * p16.element_size()
print(f"what the layer saves for backward: {wide} bytes, against {narrow} in float16")
# --8<-- [end:fix]
