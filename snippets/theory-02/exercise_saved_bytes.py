# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())


def nbytes(tensors):
    """Bytes of the storages behind these tensors, each storage counted once."""
    return sum({t.untyped_storage().data_ptr(): t.untyped_storage().nbytes() for t in tensors}.values())


# --8<-- [start:batch]
def saved_bytes(batch):
    x = torch.randn(batch, 64, requires_grad=True)
    # --8<-- [end:batch]
    target = torch.randint(600, (batch,))
    saved = []
    # --8<-- [start:saved_bytes]
    with torch.autograd.graph.saved_tensors_hooks(lambda t: saved.append(t) or t, lambda t: t):
        y = F.linear(x, W, b)
        after_head = len(saved)
        F.cross_entropy(y, target)
    # --8<-- [end:saved_bytes]
    inputs = {x.data_ptr(), W.data_ptr(), b.data_ptr()}
    new = [t for t in saved if t.untyped_storage().data_ptr() not in inputs]
    return {
        "head": nbytes(saved[:after_head]),
        "head + loss": nbytes(saved),
        "new memory": nbytes(new),
        f"of which ({batch}, 600)": nbytes(t for t in new if tuple(t.shape) == (batch, 600)),
    }


small, large = saved_bytes(2), saved_bytes(1024)
print(f"{'saved bytes':<22} {'batch 2':>10} {'batch 1024':>12} {'growth':>8}")
for (name, a), c in zip(small.items(), large.values(), strict=True):
    print(f"{name.replace('(2,', '(batch,'):<22} {a:>10,} {c:>12,} {c / a:>7.1f}x")
