# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 300
# env = { TORCH_LOGS = "graph_code,guards", TORCH_LOGS_FORMAT = "%(message)s" }
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)


# --8<-- [start:compile]
def head(x):
    return F.linear(x, W, b).softmax(-1)


compiled = torch.compile(head)
x = torch.randn(2, 64, device=device)
print("same as eager:", torch.allclose(compiled(x), head(x)))
# --8<-- [end:compile]
print("(the graph Dynamo traced and the guards that protect it are on stderr)")
