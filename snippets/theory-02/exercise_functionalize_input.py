# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch.func import functionalize
from torch.fx.experimental.proxy_tensor import make_fx

W, b = lm_head()
torch.manual_seed(0)
x = torch.randn(2, 64)


# --8<-- [start:function]
def halved_scores(x, W, b):
    x.mul_(0.5)  # in place, on an input: the caller's tensor changes
    return F.linear(x, W, b)
# --8<-- [end:function]


# --8<-- [start:functionalize]
for title, program in (("as written", halved_scores), ("functionalized", functionalize(halved_scores))):
    graph = make_fx(program)(x.clone(), W, b)
    # --8<-- [end:functionalize]
    print(f"--- {title}")
    print(graph.code.strip())
    mine = x.clone()
    graph(mine, W, b)
    print("the caller's x is halved afterwards:", torch.equal(mine, x * 0.5))
