# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 180
# ///
import re

import torch
import torch._inductor.config as inductor_config
from torch._inductor import decomposition as inductor_decompositions
from torch._inductor import lowering
from torch.profiler import profile

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
scores = torch.zeros(4, 600, device=device)
rows, cols = torch.tensor([0, 2], device=device), torch.tensor([5, 7], device=device)


def walk(op, keys):
    """Every key of the call's set that holds something for ``op``, highest first, until a backend kernel."""
    rows_ = dict(line.split(": ", 1) for line in C._dispatch_dump_table(op).splitlines() if ": " in line)
    path = []
    while (key := keys.highestPriorityTypeId()) != C.DispatchKey.Undefined:
        name = C._dispatch_key_name(key)
        entry = rows_.get(name, "")  # "fallthrough registered at ... [backend fallback]" is a fallthrough
        kind = "fallthrough" if entry.startswith("fallthrough") else entry.rsplit("[", 1)[-1].rstrip("]")
        if kind and kind != "fallthrough":
            path.append(f"{name} ({kind})")
        if kind == "kernel" and name in ("CPU", "CUDA"):
            break
        keys = keys & C._dispatch_keyset_full_after(key)
    return path


keys = (C._dispatch_keys(scores) | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()
print("aten::index_put_ on a", device.upper(), "tensor:", " -> ".join(walk("aten::index_put_", keys)))
# --8<-- [start:call]
before, one = scores._version, torch.tensor(1.0, device=device)
with profile() as prof:  # the exercise's trace: what ran inside index_put_
    scores.index_put_((rows, cols), one)
print("its version counter:", before, "->", scores._version, "(an in-place call bumps it)")
# --8<-- [end:call]
inside = [e.name for e in prof.events() if e.cpu_parent is not None and e.cpu_parent.name == "aten::index_put_"]
print("in the profiler's trace, aten::index_put_ calls", ", ".join(inside))
table = dict(line.split(": ", 1) for line in C._dispatch_dump_table("aten::_index_put_impl_").splitlines())
for key in ("CPU", "CUDA"):
    kind, where = re.search(r"(\w+\.cpp):\d+ \[(.*)\]", table[key]).group(2, 1)
    print(f"  aten::_index_put_impl_ under {key}: {kind}, {where}")
# --8<-- [start:inductor]
op = torch.ops.aten.index_put_.default
print("Inductor:", "decomposes it" if op in inductor_decompositions.decompositions else
      "falls back to the ATen kernel" if op in lowering.fallbacks else
      "lowers it" if op in lowering.lowerings else "has no rule for it")
# --8<-- [end:inductor]
functional = torch.ops.aten.index_put.default
print("its functional twin aten.index_put:", "lowered" if functional in lowering.lowerings else "not lowered",
      "| decomposed:", functional in inductor_decompositions.decompositions)

# What Inductor is handed when index_put_ is compiled: AOTAutograd's graph, functionalized.
handed = []


def keep(graph):
    handed.extend(str(node.target) for node in graph.nodes if node.op == "call_function")


def bump(scores, rows, cols):
    scores.index_put_((rows, cols), torch.tensor(1.0, device=scores.device))


with inductor_config.patch(post_grad_custom_pre_pass=keep, fx_graph_cache=False):
    torch.compile(bump)(scores, rows, cols)
print("torch.compile(bump), bump calling index_put_: Inductor receives", ", ".join(handed))
