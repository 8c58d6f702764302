# /// snippet
# devices = ["cpu"]
# timeout = 300
# env = { TORCH_LOGS = "aot_graphs", TORCH_LOGS_FORMAT = "%(message)s" }
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


compiled = torch.compile(step)
print(f"loss {compiled(x, target).item():.4f} | W.grad {tuple(W.grad.shape)} | b.grad {tuple(b.grad.shape)}")
print("(AOTAutograd's forward and backward graphs are on stderr)")
