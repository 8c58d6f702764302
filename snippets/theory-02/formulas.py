# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head(device))
x = torch.randn(2, 64, device=device, requires_grad=True)
g = torch.randn(2, 600, device=device)  # an upstream gradient dL/dy

# --8<-- [start:backward]
y = F.linear(x, W, b)
y.backward(g)
# --8<-- [end:backward]

# AddmmBackward0 for y = b + x @ W.T, and TBackward0 for W.T:
# --8<-- [start:formulas]
by_hand = {
    "dL/dx = g @ W": (g @ W, x.grad),
    "dL/dW = g.T @ x": (g.T @ x, W.grad),
    "dL/db = g.sum(0)": (g.sum(0), b.grad),
}
# --8<-- [end:formulas]
for name, (mine, torchs) in by_hand.items():
    print(f"{name:<18} shape {tuple(mine.shape)!s:<10} allclose {torch.allclose(mine, torchs)}  "
          f"bit for bit {torch.equal(mine, torchs)}")
