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
x = torch.randn(2, 64, requires_grad=True)
target = torch.tensor([3, 7])


def nodes(root):
    """Every node reachable from root, breadth-first."""
    seen, index = [root], 0
    while index < len(seen):
        seen += [n for n, _ in seen[index].next_functions if n is not None and n not in seen]
        index += 1
    return [n.name().split("::")[-1] for n in seen]


# A plain gradient is a constant: no graph behind it.
loss = F.cross_entropy(F.linear(x, W, b), target)
(gx,) = torch.autograd.grad(loss, x)
print("without create_graph: requires_grad", gx.requires_grad, "| grad_fn", gx.grad_fn)

# With create_graph=True the backward itself is recorded, and the gradient has a graph.
# --8<-- [start:create_graph]
loss = F.cross_entropy(F.linear(x, W, b), target)
(gx,) = torch.autograd.grad(loss, x, create_graph=True)
# --8<-- [end:create_graph]
print("with create_graph=True: requires_grad", gx.requires_grad, "| grad_fn", gx.grad_fn.name())
print("the gradient's graph:", nodes(gx.grad_fn))

# One use: a gradient penalty, the squared norm of dL/dx, added to the loss.
# --8<-- [start:penalty]
penalty = gx.pow(2).sum()
(loss + 0.1 * penalty).backward()
# --8<-- [end:penalty]
with_penalty = W.grad.clone()
W.grad = None
F.cross_entropy(F.linear(x, W, b), target).backward()
print("\nthe penalty changes W.grad:", not torch.allclose(with_penalty, W.grad))

# Its gradient is checked against finite differences, in float64 on a slice of the head.
x64 = x.detach().double().requires_grad_()


def penalty_of(W, b):
    loss = F.cross_entropy(F.linear(x64, W, b), target)
    (g,) = torch.autograd.grad(loss, x64, create_graph=True)
    return g.pow(2).sum()


print("gradcheck of the penalty:", torch.autograd.gradcheck(
    penalty_of, (W.detach()[:10].double().requires_grad_(), b.detach()[:10].double().requires_grad_())))

# Without create_graph, the penalty has nothing to go backward through.
(gx,) = torch.autograd.grad(F.cross_entropy(F.linear(x, W, b), target), x)
try:
    gx.pow(2).sum().backward()
except RuntimeError as error:
    print("penalty without create_graph:", error)
