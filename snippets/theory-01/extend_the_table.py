# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

torch.manual_seed(0)
x, W, b = torch.randn(2, 64), torch.randn(600, 64), torch.randn(600)
expected = F.linear(x, W, b)

# 1. A kernel override for one key: replace aten::addmm's CPU kernel. Every
#    CPU addmm in this process now runs this Python function.
calls = []
# --8<-- [start:library]
lib = torch.library.Library("aten", "IMPL")
# --8<-- [end:library]


def addmm_cpu(bias, mat1, mat2, *, beta=1, alpha=1):
    calls.append(tuple(mat1.shape) + tuple(mat2.shape))
    return beta * bias + alpha * torch.mm(mat1, mat2)  # mm has its own CPU kernel: no recursion


# --8<-- [start:override]
lib.impl("addmm", addmm_cpu, "CPU")
y = F.linear(x, W, b)
# --8<-- [end:override]
print("override on the CPU key, shapes seen:", calls, "| same result:", torch.allclose(y, expected, atol=1e-5))
print("a meta tensor skips it (other key):  ", F.linear(x.to("meta"), W.to("meta"), b.to("meta")).shape, calls[1:])
# --8<-- [start:remove]
del lib  # unregisters the override
# --8<-- [end:remove]
print("after removing it:", len(calls), "override call(s) in total;", torch.allclose(F.linear(x, W, b), expected))


# 2. A Python dispatch mode: intercept every op above the backends, for this
#    block only, without touching the table.
class CountOps(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    # --8<-- [start:rewrite]
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.name())
        if func is torch.ops.aten.addmm.default:  # rewrite: addmm -> mm + add
            bias, mat1, mat2 = args
            return torch.ops.aten.add.Tensor(torch.ops.aten.mm.default(mat1, mat2), bias)
    # --8<-- [end:rewrite]
        return func(*args, **(kwargs or {}))


# --8<-- [start:use]
with CountOps() as mode:
    y = F.linear(x, W, b)
# --8<-- [end:use]
print("\ndispatch mode saw:", mode.seen, "| same result:", torch.allclose(y, expected, atol=1e-5))
