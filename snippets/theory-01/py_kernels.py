# /// snippet
# devices = ["cpu"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
from collections import Counter
from contextlib import nullcontext

import torch
import torch.nn.functional as F
from minigpt import lm_head
from torch._dispatch.python import enable_python_dispatcher
from torch.fx.experimental.proxy_tensor import make_fx
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C


def aten_overloads():
    """Every aten overload the C++ dispatcher knows, as an OpOverload."""
    for name in sorted(n for n in C._dispatch_get_all_op_names() if n.startswith("aten::")):
        base, _, overload = name[len("aten::") :].partition(".")
        yield getattr(getattr(torch.ops.aten, base), overload or "default")


ops = list(aten_overloads())
keys = Counter(k.name for op in ops for k in op.py_kernels)
print(f"aten overloads with Python kernels: {sum(bool(op.py_kernels) for op in ops)} of {len(ops)}")
print("  by key:", dict(keys.most_common()))
for op in (torch.ops.aten.addmm.default, torch.ops.aten.dropout.default):
    found = sorted((k.name, f"{f.__module__}.{f.__name__}") for k, f in op.py_kernels.items())
    print(f"  {op}.py_kernels: {dict(found)}")
cpp_kernel = C._dispatch_has_kernel_for_dispatch_key("aten::dropout", "CompositeImplicitAutograd")
print("  aten::dropout has a C++ CompositeImplicitAutograd kernel too:", cpp_kernel)

print("include set, plain:                     ", C._dispatch_tls_local_include_set())
# --8<-- [start:switch]
with enable_python_dispatcher():
    print("include set, enable_python_dispatcher():", C._dispatch_tls_local_include_set())
# --8<-- [end:switch]


class Ops(TorchDispatchMode):
    """Collect the aten ops that reach the Python key."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.__name__)
        return func(*args, **(kwargs or {}))


torch.manual_seed(0)
W, b = lm_head()  # the running example: nn.Linear(64, 600), trained
x = torch.randn(2, 64)  # an input of the head's shape
print("F.dropout(x, 0.1) in training, ops seen by a dispatch mode:")
results = []
for label, context in (("C++ kernels only", nullcontext), ("enable_python_dispatcher()", enable_python_dispatcher)):
    torch.manual_seed(1)
    # --8<-- [start:dropout]
    with Ops() as mode, context():
        results.append(F.dropout(x, 0.1, training=True))
    # --8<-- [end:dropout]
    print(f"  {label:<27} {mode.seen}")
print("  same result:", torch.equal(*results))


def nodes(graph):
    """The ops a traced graph calls, in order."""
    return [str(n.target) for n in graph.nodes if n.op == "call_function"]


def head(x, W, b):
    """The LM head; it also prints the thread's include set while it is traced."""
    print("  include set while tracing:", C._dispatch_tls_local_include_set())
    return F.linear(x, W, b)


pair = C.DispatchKeySet(C.DispatchKey.PreDispatch) | C.DispatchKeySet(C.DispatchKey.AutogradCPU)
print(f"{pair}: highest priority {pair.highestPriorityTypeId().name}")
# --8<-- [start:trace]
for label, options in (("make_fx(head)", {}), ("make_fx(head, pre_dispatch=True)", {"pre_dispatch": True})):
    print(label)
    print("  graph:", nodes(make_fx(head, **options)(x, W, b).graph))
# --8<-- [end:trace]

linear = torch.nn.Linear(64, 600)
linear.load_state_dict({"weight": W, "bias": b})
# --8<-- [start:export]
program = torch.export.export(linear, (x,))
print("torch.export.export(linear)       graph:", nodes(program.graph))
print("  .run_decompositions()            graph:", nodes(program.run_decompositions().graph))
# --8<-- [end:export]
