# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# expect_error = { type = "RuntimeError", match = "modified by an inplace operation" }
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64)
target = torch.tensor([3, 7])

# The version-counter error of this page, with the hint it gives followed: anomaly mode on.
torch.autograd.set_detect_anomaly(True, check_nan=False)
y = F.linear(x, W, b).div(2.0)
p = y.softmax(-1)
p.clamp_(min=1e-6)
loss = F.nll_loss(p.log(), target)
loss.backward()
