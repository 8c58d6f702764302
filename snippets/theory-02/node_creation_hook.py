# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import threading

import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = lm_head()
W.requires_grad_(True)
b.requires_grad_(True)
x = torch.randn(4, 64)
target = torch.tensor([3, 1, 4, 1])
created = []


def on_creation(node):
    """Called once per node, fully wired: its inputs and saved tensors are already in place."""
    saved = [n[7:] for n in dir(node) if n.startswith("_saved_") and not n.endswith(("_sym_sizes", "_sym_strides"))]
    created.append(node)
    edges = [type(n).__name__ if n else None for n, _ in node.next_functions]
    thread = "main" if threading.current_thread() is threading.main_thread() else "other"
    print(f"{len(created):>2}. {node.name():<32} thread {thread}  next {edges}  saved {saved}")


# --8<-- [start:record]
with torch.autograd.graph.node_creation_hook(on_creation):
    logits = F.linear(x, W, b)
    loss = F.cross_entropy(logits, target)
# --8<-- [end:record]
print("loss.grad_fn is the last node created:", loss.grad_fn is created[-1])
print("nodes created:", len(created), "| reached from loss.grad_fn:", end=" ")
seen, todo = set(), [loss.grad_fn]
while todo:
    node = todo.pop()
    if node is not None and node not in seen:
        seen.add(node)
        todo += [n for n, _ in node.next_functions]
print(len(seen))
before = len(created)
# --8<-- [start:backward]
with torch.autograd.graph.node_creation_hook(on_creation):
    loss.backward(retain_graph=True)
# --8<-- [end:backward]
print("nodes created by backward():", len(created) - before)
print("-- backward with create_graph=True records the backward itself:")
before = len(created)
# --8<-- [start:create_graph]
with torch.autograd.graph.node_creation_hook(on_creation):
    (grad_W,) = torch.autograd.grad(loss, W, create_graph=True)
# --8<-- [end:create_graph]
print("nodes created by grad(create_graph=True):", len(created) - before, "| grad_W.grad_fn:", grad_W.grad_fn.name())
