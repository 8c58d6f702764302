# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import warnings

import torch
from minigpt import lm_head
from torch.export import Dim, export

warnings.filterwarnings("ignore", message=".*LeafSpec", category=FutureWarning)  # torch's own deprecation notice
torch.manual_seed(0)
W, b = lm_head()
head = torch.nn.Linear(64, 600)  # the running example, with its trained weights
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)

# --8<-- [start:export]
# One example input, and a declaration: the batch dimension may be anything from 1 to 64.
ep = export(head, (torch.randn(2, 64),), dynamic_shapes={"input": {0: Dim("batch", min=1, max=64)}})
print(ep)
# --8<-- [end:export]

# --8<-- [start:module]
# ep.module() runs the graph again as a Python module, with the input checks export wrote for it.
module = ep.module()
x = torch.randn(5, 64)
print("batch 5, same as eager:", torch.allclose(module(x), head(x)))
for bad in (torch.randn(65, 64), torch.randn(5, 32)):
    try:
        module(bad)
    except AssertionError as error:
        print(f"input {tuple(bad.shape)}: {type(error).__name__}: {error}")
# --8<-- [end:module]

# --8<-- [start:core]
# The exported graph keeps aten.linear; the core-ATen decompositions are one call away, and AOTInductor applies them.
core = ep.run_decompositions()
# --8<-- [end:core]
print("after run_decompositions():",
      [str(node.target) for node in core.graph.nodes if node.op == "call_function"])
