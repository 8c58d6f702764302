# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import ctypes
import os
import re
import tempfile
from contextlib import contextmanager

import torch
from minigpt import lm_head
from torch.overrides import TorchFunctionMode, resolve_name
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C
W, b = lm_head()
head = torch.nn.Linear(64, 600)  # the running example, with its trained weights
with torch.no_grad():
    head.weight.copy_(W)
    head.bias.copy_(b)
torch.manual_seed(0)
x = torch.randn(2, 64)


class PythonCalls(TorchFunctionMode):
    """Calls to torch's Python API, seen before the dispatcher computes any key."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls.append(f"function mode  {resolve_name(func)}({', '.join(type(a).__name__ for a in args)})")
        return func(*args, **(kwargs or {}))


class AtenOps(TorchDispatchMode):
    """The aten ops that reach the backends (below the autograd keys), with their outputs' shapes and dtypes."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        outs = [o for o in (out if isinstance(out, (tuple, list)) else (out,)) if isinstance(o, torch.Tensor)]
        shapes, dtypes = ", ".join(str(tuple(o.shape)) for o in outs), ", ".join(str(o.dtype)[6:] for o in outs)
        self.ops.append(f"{func.name():<30} -> {shapes} {dtypes}")
        return out


@contextmanager
def watched(mkl_calls):
    """The Python calls, the aten ops and MKL's own log (which MKL writes to file descriptor 1) of one step."""
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as log:
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON), PythonCalls() as calls, AtenOps() as ops:
                yield calls.calls, ops.ops
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        for line in log.read().decode().splitlines():  # the routine and its arguments, not its timing
            if found := re.match(r"MKL_VERBOSE \w+\([^)]*\)", line):
                mkl_calls.append(found[0])


def kernel(op, key):
    """The row of the dispatcher's computed table for (op, key): the kind of kernel and the file that registered it."""
    for line in C._dispatch_dump_table(op).splitlines():
        name, _, what = line.partition(": ")
        if name == key:
            kind, where = re.search(r"\[(.*?)\]", what), re.search(r"registered at \S*/(\S+?):\d+", what)
            return f"{key:<16} {kind[1]:<22} {where[1]}"


def call_keys(*tensors):
    """The call's key set as the dispatcher computes it (the arguments' keys, plus the thread's include
    set, minus its exclude set), highest priority first."""
    keys = C._dispatch_tls_local_include_set()
    for t in tensors:
        keys = keys | C._dispatch_keys(t)
    keys, order = keys - C._dispatch_tls_local_exclude_set(), []
    while (key := keys.highestPriorityTypeId()) != C.DispatchKey.Undefined:
        order.append(C._dispatch_key_name(key))
        keys = keys & C._dispatch_keyset_full_after(key)
    return " > ".join(order)


def shapes(grads):
    return [tuple(g.shape) if g is not None else None for g in grads]


weight, bias = head.weight, head.bias
print(f"set-up: x {tuple(x.shape)} requires_grad={x.requires_grad} | head.weight {tuple(weight.shape)}, head.bias "
      f"{tuple(bias.shape)} requires_grad={weight.requires_grad and bias.requires_grad} | loss = y.sum()")
mkl = []
with watched(mkl) as (calls, ops):
    y = head(x)
print("y = head(x)")
print("  " + "\n  ".join(calls))
print(f"  {'plain call':<16} {call_keys(x, weight, bias)}")
print("  aten::linear\n    " + kernel("aten::linear", "AutogradCPU"))
print("  " + "\n  ".join(ops))
print("  aten::addmm\n    " + kernel("aten::addmm", "AutogradCPU") + "\n    " + kernel("aten::addmm", "CPU"))
node = y.grad_fn
saved = [n[7:] for n in dir(node) if n.startswith("_saved_") and not n.endswith(("_sym_sizes", "_sym_strides"))]
print(f"  y.grad_fn = {node.name()}")
print(f"    next {[type(n).__name__ if n else None for n, _ in node.next_functions]}  saved {saved}")
print("  " + "\n  ".join(mkl))

loss = y.sum()
nodes, queue, engine, seen = [], [loss.grad_fn], [], []  # every node of the graph, for a pre-hook each
while queue:
    if (node := queue.pop(0)) not in nodes:
        nodes.append(node)
        queue += [n for n, _ in node.next_functions if n is not None]
for node in nodes:  # a pre-hook runs when the engine hands a node the gradient of its output
    node.register_prehook(
        lambda grad_out, n=node: engine.append(f"enter {n.name():<34} grad_output {shapes(grad_out)}")
    )
y.register_hook(seen.append)  # the gradient of y, dL/dy, as the engine passes it on
mkl = []
with watched(mkl) as (calls, ops):
    loss.backward()
print("loss = y.sum(); loss.backward()")
print("  " + "\n  ".join(calls + engine + ops + mkl))
g = seen[0]
print(f"  g = dL/dy: shape {tuple(g.shape)}, all ones {torch.equal(g, torch.ones_like(g))}")
by_hand = {"dL/dW = g.T @ x": (g.T @ x, weight.grad), "dL/db = g.sum(0)": (g.sum(0), bias.grad)}
for name, (mine, torchs) in by_hand.items():
    print(f"  {name:<18} shape {tuple(mine.shape)!s:<10} allclose {torch.allclose(mine, torchs)}  "
          f"bit for bit {torch.equal(mine, torchs)}")
