# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import encode, lm_head, load_model
from torch.utils._python_dispatch import TorchDispatchMode

device = "cuda" if torch.cuda.is_available() else "cpu"
model = load_model(device)
W, b = (t.clone().requires_grad_() for t in lm_head(device))
with torch.no_grad():  # the head's real input: hidden states of two prompts
    x = torch.cat([model.hidden(encode(p).to(device))[:, -1] for p in ("walk : yesterday she", "comer : ayer yo")])


class Trace(TorchDispatchMode):
    """Log every aten op that reaches the backends, with its output dtypes."""

    # --8<-- [start:mode]
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
    # --8<-- [end:mode]
        outs = out if isinstance(out, (tuple, list)) else (out,)
        dtypes = ", ".join(str(o.dtype).replace("torch.", "") for o in outs if isinstance(o, torch.Tensor))
        shapes = ", ".join(str(tuple(o.shape)) for o in outs if isinstance(o, torch.Tensor))
        print(f"  {func.name():<30} -> {shapes} {dtypes}")
        return out


for label, autocast in (("fp32", False), ("autocast bfloat16", True)):
    print(f"forward, {label}")
    # --8<-- [start:forward]
    with Trace(), torch.autocast(device, dtype=torch.bfloat16, enabled=autocast):
        y = F.linear(x, W, b)
    # --8<-- [end:forward]
    if not autocast:
        # The node alone, called by hand on the gradient the backward will give it:
        # the reduction of the bias's gradient is not among its ops.
        print("AddmmBackward0 alone, called by hand")
        upstream = torch.ones_like(y)
        # --8<-- [start:node]
        with Trace():
            grads = y.grad_fn(upstream)
        # --8<-- [end:node]
        print("  returns, in next_functions order:", [None if g is None else tuple(g.shape) for g in grads])
    print(f"backward, {label}")
    # --8<-- [start:backward]
    with Trace():
        y.float().sum().backward()
    # --8<-- [end:backward]
    W.grad = b.grad = None
