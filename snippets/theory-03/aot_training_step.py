# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS = "aot_graphs", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import re

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch._dynamo.utils import counters
from torch.profiler import profile

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(4, 64)
target = torch.tensor([3, 7, 11, 13])


# --8<-- [start:step]
def step(x, target):
    loss = F.cross_entropy(F.linear(x, W, b), target)
    loss.backward()
    return loss


compiled = torch.compile(step)
print(f"loss {compiled(x, target).item():.4f} | W.grad {tuple(W.grad.shape)} | b.grad {tuple(b.grad.shape)}")
print("(AOTAutograd's forward and backward graphs are on stderr)")

# By default (trace_autograd_ops off), Dynamo does not put loss.backward() in a graph: it breaks the graph
# there and lets Python call it.
(reason,) = counters["graph_break"]
print(f"graph break: {reason.splitlines()[0]} -- {reason.splitlines()[1].strip()}")
# --8<-- [end:step]

# --8<-- [start:second_call]
# A second call, with nothing left to compile: what runs, in order, as the profiler records it.
with profile() as prof:
    loss = compiled(x, target)
KEEP = ("Torch-Compiled Region", "CompiledFunction", "## Call CompiledFxGraph", "autograd::engine::evaluate_function")
ran = [e.name for e in sorted(prof.events(), key=lambda e: e.time_range.start) if e.name.startswith(KEEP)]
# --8<-- [end:second_call]
print("the second call, in order:")
for name in ran:
    print("   ", re.sub(r"CompiledFxGraph \w+", "CompiledFxGraph <key>", name))
print(f"loss.grad_fn: {loss.grad_fn.name()}")
