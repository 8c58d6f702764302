# /// snippet
# devices = ["cpu"]
# timeout = 60
# ///
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
    dispatcher = PythonDispatcher()
    dispatcher.register(registrations)
    print(f"{title}: registered {', '.join(registrations)}")
    for line in dispatcher.dispatchTable().splitlines():
        if line.split(" ", 1)[0] in KEYS:
            print("  " + line.rstrip())
    del dispatcher  # unregisters __test__::foo, so the next case starts from nothing
