# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS = "recompiles", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

W, b = lm_head()


# --8<-- [start:recompiles]
def head(x):
    return F.linear(x, W, b).softmax(-1)


compiled = torch.compile(head)
for batch in (2, 3, 4, 5):
    compiled(torch.randn(batch, 64))
    print(f"batch {batch}: frames compiled so far:", torch._dynamo.utils.counters["stats"]["unique_graphs"])
compiled(torch.randn(4, 64, requires_grad=True))
print("input that requires grad: frames compiled so far:", torch._dynamo.utils.counters["stats"]["unique_graphs"])
# --8<-- [end:recompiles]
print("the reasons for each recompilation are on stderr")
