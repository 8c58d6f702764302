# /// snippet
# devices = ["cpu"]
# timeout = 120
# env = { TORCH_LOGS = "compiled_autograd", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(4, 64)
target = torch.tensor([3, 7, 11, 13])


def step(x, target):
    loss = F.cross_entropy(F.linear(x, W, b), target)
    loss.backward()
    return loss


# Eager reference gradients.
step(x, target)
expected = W.grad.clone(), b.grad.clone()
W.grad = b.grad = None

graphs = []


# --8<-- [start:backend]
def aot_eager_recording(gm, example_inputs):
    """Dynamo's graphs go through AOTAutograd without Inductor ("aot_eager"); we keep a list of them."""
    graphs.append(gm)
    return torch._dynamo.backends.debugging.aot_eager(gm, example_inputs)
# --8<-- [end:backend]


# --8<-- [start:compiled_autograd]
torch._dynamo.config.compiled_autograd = True  # capture the backward when it runs, as one more graph
torch.compile(step, backend=aot_eager_recording)(x, target)
# --8<-- [end:compiled_autograd]
print("gradients as in eager:", torch.allclose(W.grad, expected[0]), torch.allclose(b.grad, expected[1]))
print("graphs handed to the backend:", len(graphs))
for i, gm in enumerate(graphs, start=1):
    calls = [n.name for n in gm.graph.nodes if n.op == "call_function" and not n.name.startswith("getitem")]
    print(f"    graph {i}: {len(calls)} calls: {', '.join(calls)}")
print("(the graph compiled autograd captured, node by node, is on stderr)")
