# /// snippet
# devices = ["cpu"]
# timeout = 300
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

W, b = lm_head()
graphs = []


# --8<-- [start:backend]
def counting(gm, example_inputs):
    """A backend that keeps, for each graph it is given, what it takes: a size stays a symbol if it is dynamic."""
    graphs.append([tuple(i.shape) if isinstance(i, torch.Tensor) else f"size {i}" for i in example_inputs])
    return gm.forward
# --8<-- [end:backend]


def head(x):
    return F.linear(x, W, b).softmax(-1)


# --8<-- [start:run]
torch._dynamo.config.recompile_limit = 3
compiled = torch.compile(head, backend=counting)  # dynamic=None, the default: automatic dynamic shapes
for batch in (1, 2, 3, 4, 5, 2):
    compiled(torch.randn(batch, 64))
    print(f"batch {batch}: graphs compiled so far {len(graphs)}")
for number, inputs in enumerate(graphs, start=1):
    print(f"graph {number} takes: {inputs}")
# --8<-- [end:run]
