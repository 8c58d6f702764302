# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


class Ops(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        print("  op:", func.name())
        return func(*args, **(kwargs or {}))


W = torch.randn(600, 64, requires_grad=True)
b = torch.randn(600, requires_grad=True)
# --8<-- [start:inference]
with torch.inference_mode():
    x = torch.randn(2, 64)
    with Ops():
        y = F.linear(x, W, b)
# --8<-- [end:inference]
print("y.requires_grad:", y.requires_grad, "| grad_fn:", y.grad_fn, "| inference tensor:", torch.is_inference(y))
print("keys of y:", torch._C._dispatch_keys(y))
try:
    y.sum().backward()
except RuntimeError as error:
    print("backward:", error)
