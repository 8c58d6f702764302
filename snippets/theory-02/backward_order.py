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
loss = F.cross_entropy(F.linear(x, W, b), torch.tensor([3, 7]))


def shape(grads):
    return [tuple(g.shape) if g is not None else None for g in grads]


# A pre-hook runs when a node receives its gradient; a hook when it has produced
# the gradients of its inputs.
nodes, queue = [], [loss.grad_fn]
while queue:
    node = queue.pop(0)
    if node not in nodes:
        nodes.append(node)
        queue += [n for n, _ in node.next_functions if n is not None]
# --8<-- [start:hooks]
for node in nodes:
    node.register_prehook(lambda grad_out, n=node: print(f"  enter {n.name():<34} grad_output {shape(grad_out)}"))
    node.register_hook(lambda grad_in, grad_out, n=node: print(f"  leave {n.name():<34} grad_inputs {shape(grad_in)}"))
# --8<-- [end:hooks]

# --8<-- [start:tensor_hook]
W.register_hook(lambda g: print(f"  tensor hook on W: gradient {tuple(g.shape)}, norm {g.norm():.4f}"))
# --8<-- [end:tensor_hook]
print("loss.backward():")
loss.backward()
print("W.grad is set:", W.grad is not None, "| x.grad:", tuple(x.grad.shape))
