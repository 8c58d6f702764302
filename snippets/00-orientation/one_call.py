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
from torch.profiler import ProfilerActivity, profile

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
        self.calls.append(f"{resolve_name(func)}({', '.join(type(a).__name__ for a in args)})")
        return func(*args, **(kwargs or {}))


@contextmanager
def watched(mkl_calls):
    """The Python calls, the profiler and MKL's own log (which MKL writes to file descriptor 1) of one step."""
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved = os.dup(1)
    with tempfile.TemporaryFile() as log, profile(activities=[ProfilerActivity.CPU]) as prof:
        os.dup2(log.fileno(), 1)
        try:
            with torch.backends.mkl.verbose(torch.backends.mkl.VERBOSE_ON), PythonCalls() as calls:
                yield calls, prof
        finally:
            libc.fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        log.seek(0)
        for line in log.read().decode().splitlines():  # the routine and its first five arguments, no address
            if found := re.match(r"MKL_VERBOSE (\w+)\(((?:[^,]*,){4}[^,]*)", line):
                mkl_calls.append(f"{found[1]}({found[2]})")


def called_by(prof, caller):
    """The operators the profiler saw ``caller`` call directly."""
    event = next(e for e in prof.events() if e.name == caller)
    return ", ".join(e.name for e in prof.events() if e.cpu_parent is event)


def entry(op, key):
    """The kernel the dispatcher's computed table holds for (op, key), and the file that registered it."""
    for line in C._dispatch_dump_table(op).splitlines():
        name, _, what = line.partition(": ")
        if name == key:
            kind, where = re.search(r"\[(.*?)\]", what), re.search(r"registered at \S*/(\S+?):\d+", what)
            return f"{kind[1]} ({where[1]})"


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


mkl = []
with watched(mkl) as (calls, prof):
    y = head(x)
print(f"y = head(x)   head = {head}, x of shape {tuple(x.shape)}")
print("  function mode sees:", *calls.calls)
print("  the call's keys:", call_keys(x, head.weight, head.bias))
print("  aten::linear at AutogradCPU:", entry("aten::linear", "AutogradCPU"))
print("  profiler: aten::linear calls", called_by(prof, "aten::linear"))
print("  aten::addmm at AutogradCPU:", entry("aten::addmm", "AutogradCPU"))
inputs = ", ".join(type(fn).__name__ if fn else "None" for fn, _ in y.grad_fn.next_functions)
print("  y.grad_fn:", type(y.grad_fn).__name__, "  next_functions:", inputs)
print("  aten::addmm at CPU:", entry("aten::addmm", "CPU"))
print("  MKL's log:", ", ".join(mkl))

loss, mkl = y.sum(), []
with watched(mkl) as (calls, prof):
    loss.backward()
engine = [e.name.split(": ")[1] for e in prof.events() if e.name.startswith("autograd::engine::evaluate_function")]
print("loss = y.sum(); loss.backward()")
print("  function mode sees:", *calls.calls)
print("  profiler: engine ran", ", ".join(name.replace("torch::autograd::", "") for name in engine))
print("  profiler: AddmmBackward0 calls", called_by(prof, "AddmmBackward0"))
print("  MKL's log:", ", ".join(mkl))
print("  gradients:", f"head.weight.grad {tuple(head.weight.grad.shape)}, head.bias.grad {tuple(head.bias.grad.shape)}")
