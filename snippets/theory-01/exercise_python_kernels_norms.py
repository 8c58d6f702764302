# /// snippet
# devices = ["cpu"]
# timeout = 120
# ///
"""Exercise: two normalizations under the Python dispatcher; which one takes a Python kernel?"""

from contextlib import nullcontext

import torch
import torch.nn.functional as F
from torch._dispatch.python import enable_python_dispatcher
from torch.utils._python_dispatch import TorchDispatchMode


class Ops(TorchDispatchMode):
    """Collect the aten ops that reach the Python key."""

    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(func.__name__)
        return func(*args, **(kwargs or {}))


torch.manual_seed(0)
x = torch.randn(2, 5, 64)  # the shape of the MiniGPT's states: 2 prompts, 5 positions, 64 features
# --8<-- [start:solution]
for name, norm in (("F.layer_norm", lambda: F.layer_norm(x, (64,))),
                   ("F.batch_norm", lambda: F.batch_norm(x, None, None, training=True))):
    results = []
    for label, context in (("C++ kernels only", nullcontext), ("enable_python_dispatcher()", enable_python_dispatcher)):
        mode = Ops()
        with context(), mode:
            results.append(norm())
        print(f"{name}, {label:<26} {mode.seen}")
    print(f"  same result: {torch.allclose(results[0], results[1], atol=1e-6)}")
for op in (torch.ops.aten.native_layer_norm.default, torch.ops.aten.native_batch_norm.default):
    print(f"{op}.py_kernels:", sorted(k.name for k in op.py_kernels))
# --8<-- [end:solution]
