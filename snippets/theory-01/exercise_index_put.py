# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch
from torch._inductor import decomposition as inductor_decompositions
from torch._inductor import lowering

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
        kind = rows_.get(name, "").rsplit("[", 1)[-1].rstrip("]")
        if kind and kind != "fallthrough":
            path.append(f"{name} ({kind})")
        if kind == "kernel" and name in ("CPU", "CUDA"):
            break
        keys = keys & C._dispatch_keyset_full_after(key)
    return path


keys = (C._dispatch_keys(scores) | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()
print("aten::index_put_ on a", device.upper(), "tensor:", " -> ".join(walk("aten::index_put_", keys)))
before = scores._version
scores.index_put_((rows, cols), torch.tensor(1.0, device=device))
print("its version counter:", before, "->", scores._version, "(an in-place call bumps it)")
op = torch.ops.aten.index_put_.default
print("Inductor:", "decomposes it" if op in inductor_decompositions.decompositions else
      "falls back to the ATen kernel" if op in lowering.fallbacks else
      "lowers it" if op in lowering.lowerings else "has no rule for it")
functional = torch.ops.aten.index_put.default
print("its functional twin aten.index_put:", "lowered" if functional in lowering.lowerings else "not lowered",
      "| decomposed:", functional in inductor_decompositions.decompositions)
