# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import threading

import torch
import torch.nn.functional as F
from minigpt import lm_head

W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64)
loss = F.cross_entropy(F.linear(x, W, b), torch.tensor([3, 7]))

ran_on = []


# --8<-- [start:note]
def note(node):
    """A pre-hook on every node of the graph: which thread runs it."""
    node.register_prehook(lambda grad_outputs: ran_on.append((node.name(), threading.current_thread().name)))
    for parent, _ in node.next_functions:
        if parent is not None:
            note(parent)
# --8<-- [end:note]


# --8<-- [start:thread]
note(loss.grad_fn)
worker = threading.Thread(target=loss.backward, name="my-worker")
worker.start()
worker.join()
# --8<-- [end:thread]
print("backward() called on:", worker.name, "| main thread:", threading.main_thread().name)
for name, thread in ran_on:
    print(f"  {name:<22} ran on {thread}")
print("W.grad filled:", W.grad is not None and W.grad.shape == W.shape)
