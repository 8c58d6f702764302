# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
from minigpt import lm_head
from torch.overrides import TorchFunctionMode, resolve_name
from torch.utils._python_dispatch import TorchDispatchMode

device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)
head = torch.nn.Linear(64, 600, device=device)  # the running example, with its trained weights
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)
x = torch.randn(2, 64, device=device)


class FunctionMode(TorchFunctionMode):
    """Sees calls to torch's Python API, before the dispatcher: functions and their Python arguments."""

    # --8<-- [start:function-mode]
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kinds = ", ".join(type(a).__name__ for a in args)
        print(f"  function mode  {resolve_name(func)}({kinds})")
    # --8<-- [end:function-mode]
        return func(*args, **(kwargs or {}))


class DispatchMode(TorchDispatchMode):
    """Sees aten operators when the dispatch reaches the Python key, below the autograd keys."""

    # --8<-- [start:dispatch-mode]
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        print(f"  dispatch mode  {func}")
    # --8<-- [end:dispatch-mode]
        return func(*args, **(kwargs or {}))


for label, autocast in (("head(x)", False), ("head(x) under autocast", True)):
    print(label)
    # --8<-- [start:call]
    with torch.autocast(device, dtype=torch.bfloat16, enabled=autocast), FunctionMode(), DispatchMode():
        y = head(x)
    # --8<-- [end:call]
print("y.sum().backward()")
y = head(x)
# --8<-- [start:backward]
with FunctionMode(), DispatchMode():
    y.sum().backward()
# --8<-- [end:backward]
