# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64)
target = torch.tensor([3, 7])

# 1. An in-place edit of a tensor no node saved: allowed.
y = F.linear(x, W, b)  # AddmmBackward0 saves x and W.T, not its output y
print("y._version:", y._version, "| grad_fn:", y.grad_fn.name())
# --8<-- [start:allowed]
y.div_(2.0)  # a temperature, in place
# --8<-- [end:allowed]
print("after y.div_(2.0): y._version:", y._version, "| grad_fn:", y.grad_fn.name())

# 2. An in-place edit of a tensor a node saved: refused at backward time.
# --8<-- [start:softmax]
p = y.softmax(-1)  # SoftmaxBackward0 saves its result, p itself
row = p[0]  # a view: it shares p's version counter
# --8<-- [end:softmax]
print("\np._version:", p._version, "| saved by", p.grad_fn.name(), "at version", p.grad_fn._saved_result._version)
# --8<-- [start:clamp]
p.clamp_(min=1e-6)  # keep log() finite... in place
# --8<-- [end:clamp]
print("after p.clamp_(): p._version:", p._version, "| row._version (a view of p):", row._version)
# --8<-- [start:no_grad]
with torch.no_grad():
    p.mul_(1.0)  # no_grad stops the recording, not the counting
# --8<-- [end:no_grad]
print("after p.mul_(1.0) under no_grad: p._version:", p._version)
print("keys of p:", torch._C._dispatch_keys(p))
# --8<-- [start:below]
with torch._C._AutoDispatchBelowADInplaceOrView():
    p.mul_(1.0)  # dispatch below ADInplaceOrView: the kernel that bumps the counter is skipped
# --8<-- [end:below]
print("after p.mul_(1.0) below ADInplaceOrView: p._version:", p._version)
loss = F.nll_loss(p.log(), target)
try:
    loss.backward()
except RuntimeError as error:
    print("\nloss.backward():", error)

# 3. The fix: the out-of-place clamp returns a new tensor and leaves the saved one alone.
p = F.linear(x, W, b).div(2.0).softmax(-1)
loss = F.nll_loss(p.clamp(min=1e-6).log(), target)
loss.backward()
print("\nwith p.clamp() out of place: backward ran, W.grad", tuple(W.grad.shape), "| p._version:", p._version)
