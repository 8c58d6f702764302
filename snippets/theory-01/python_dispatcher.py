# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
import re
import warnings

import torch
from torch._python_dispatcher import PythonDispatcher

# PythonDispatcher defines a toy operator, __test__::foo, registers a dummy kernel
# (named fn_<key>) under each key you list, and lets the C++ dispatcher compute
# the table from those registrations. It knows a few keys only: XLA stands here
# for any backend that has a kernel of its own, as NestedTensorCPU has for linear.
KEYS = ["CPU", "AutogradCPU", "XLA", "AutogradXLA"]
CASES = [
    ("like aten::linear", ["CompositeImplicitAutograd", "Autograd", "XLA"]),
    ("like aten::addmm", ["CPU", "XLA", "Autograd"]),
    ("like aten::t", ["CompositeExplicitAutograd", "Autograd"]),
    ("a CPU kernel beside a composite one", ["CPU", "CompositeImplicitAutograd"]),
]

for title, registrations in CASES:
    # --8<-- [start:toy]
    dispatcher = PythonDispatcher()
    dispatcher.register(registrations)
    # --8<-- [end:toy]
    print(f"{title}: registered {', '.join(registrations)}")
    # --8<-- [start:table]
    for line in dispatcher.dispatchTable().splitlines():
        if line.split(" ", 1)[0] in KEYS:
            print("  " + line.rstrip())
    # --8<-- [end:table]
    del dispatcher  # unregisters __test__::foo, so the next case starts from nothing

# What AutogradCPU's [backend fallback] does, on a real operator in the same position:
# a CPU kernel, and no registration for autograd.
lib = torch.library.Library("demo", "DEF")
# --8<-- [start:define]
lib.define("double(Tensor x) -> Tensor")
lib.impl("double", lambda x: x.detach() * 2, "CPU")  # computes, and records no graph itself
# --8<-- [end:define]
row = next(r for r in torch._C._dispatch_dump_table("demo::double").splitlines() if r.startswith("AutogradCPU:"))
print("demo::double: registered CPU; autograd fallback mode:", torch._C._get_autograd_fallback_mode())
print("  AutogradCPU    ", " ".join(re.search(r"(\w+\.cpp):\d+ (\[.*\])", row).group(2, 1)))
# --8<-- [start:fallback]
x = torch.ones(3, requires_grad=True)
y = torch.ops.demo.double(x)
print("  y.grad_fn      ", y.grad_fn.name())
# --8<-- [end:fallback]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    y.sum().backward()
print("  backward warns:", str(caught[0].message).split(". ")[0])
print("  x.grad         ", x.grad)
