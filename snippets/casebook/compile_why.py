# /// snippet
# devices = ["cpu"]
# timeout = 600
# deps = ["scripts/minigpt"]
# volatile = ["^measured"]
# ///
"""torch.compile on the MiniGPT's forward: what it changed, in counts that hold on any CPU, and what it costs."""

import collections
import re
import time

import torch
from minigpt import encode, load_model
from torch._dynamo.utils import counters
from torch._inductor.utils import run_and_get_code
from torch.profiler import profile
from torch.utils._python_dispatch import TorchDispatchMode

model = load_model().eval()
idx = torch.cat([encode("walk : yesterday she"), encode("eat : yesterday they")])


# --8<-- [start:count]
class Writes(TorchDispatchMode):
    """Every aten op that writes a new tensor (a result that shares an input's memory writes nothing), and its bytes."""

    def __init__(self):
        super().__init__()
        self.ops, self.bytes = collections.Counter(), 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        first = out[0] if isinstance(out, tuple) else out
        inputs = {a.untyped_storage().data_ptr() for a in args if isinstance(a, torch.Tensor)}
        if isinstance(first, torch.Tensor) and first.untyped_storage().data_ptr() not in inputs:
            self.ops[func.__name__.split(".")[0]] += 1
            self.bytes += first.numel() * first.element_size()
        return out


def profiled(fn):
    """The names of the profiler's events of one call, with their counts."""
    with profile() as prof:
        fn()
    return collections.Counter(e.name for e in prof.events())
# --8<-- [end:count]


# --8<-- [start:eager]
with torch.no_grad():
    writes = Writes()
    with writes:
        expected = model(idx)
    eager_events = profiled(lambda: model(idx))
print(f"eager: {sum(writes.ops.values())} aten ops write a tensor, {writes.bytes} bytes in all")
print("  " + ", ".join(f"{n} {c}" for n, c in writes.ops.most_common()))
tops = sum(c for n, c in eager_events.items() if n.startswith("aten::"))
print(f"  profiler: {tops} aten events, aten::addmm {eager_events['aten::addmm']}")
# --8<-- [end:eager]
# --8<-- [start:compiled]
compiled = torch.compile(model)
with torch.no_grad():
    got, (code,) = run_and_get_code(compiled, idx)
    compiled_events = profiled(lambda: compiled(idx))
body = code[code.index("def call(self, args)"):]
kernels = re.findall(r"^\s+(cpp_fused\w+)\(", body, re.M)
library = re.findall(r"^\s+(?:\w+ = )?(extern_kernels\.\w+|torch\.ops\.aten\.\w+)", body, re.M)
fresh = re.findall(r"empty_strided_cpu\((\([\d, ]+\)), \([\d, ]+\), torch.float32\)", body)
new_bytes = sum(4 * torch.Size(eval(shape)).numel() for shape in fresh)
print(f"compiled: {len(kernels)} calls of {len(set(kernels))} generated kernels, {len(library)} library calls")
print("  library: " + ", ".join(f"{n} {c}" for n, c in collections.Counter(library).items()))
for name in dict.fromkeys(kernels):
    print(f"  {name}")
print(f"  buffers: {len(fresh)} allocated ({new_bytes} bytes), {body.count('# reuse')} reused")
tops = sum(c for n, c in compiled_events.items() if n.startswith("aten::"))
generated = sum(c for n, c in compiled_events.items() if n.startswith("cpp_fused"))
addmm = compiled_events["aten::addmm"]
print(f"  profiler: {tops} aten events, aten::addmm {addmm}; events of generated kernels: {generated}")
print(f"  same output as eager within 1e-5: {torch.allclose(got, expected, atol=1e-5)}")
# --8<-- [end:compiled]
# --8<-- [start:cost]
for batch in (3, 4):
    with torch.no_grad():
        compiled(idx[:1].repeat(batch, 1))
print(f"cost: graphs compiled for batches 2, 3, 4: {counters['stats']['unique_graphs']}")


def median_ms(fn, n=20):
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * sorted(times)[n // 2]


with torch.no_grad():
    ratio = median_ms(lambda: compiled(idx)) / median_ms(lambda: model(idx))
print(f"measured here: a compiled forward takes {ratio:.2f} of an eager one (medians of 20 calls)")
# --8<-- [end:cost]
