# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 120
# ///
import torch
import torch.nn.functional as F
from torch._inductor import decomposition as inductor_decompositions
from torch._inductor import lowering

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
x = torch.randn(4, 64, device=device, requires_grad=True)


def first_kernel(op, keys):
    """The first key of the call's set whose table entry is not a fallthrough, and what it holds there."""
    rows = dict(line.split(": ", 1) for line in C._dispatch_dump_table(op).splitlines() if ": " in line)
    while (key := keys.highestPriorityTypeId()) != C.DispatchKey.Undefined:
        name = C._dispatch_key_name(key)
        entry = rows.get(name, "")
        if entry and "fallthrough" not in entry:
            return name, entry.rsplit("[", 1)[1].rstrip("]")
        keys = keys & C._dispatch_keyset_full_after(key)
    return None, None


keys = (C._dispatch_keys(x) | C._dispatch_tls_local_include_set()) - C._dispatch_tls_local_exclude_set()
print("aten::layer_norm is CompositeImplicitAutograd:",
      C._dispatch_has_kernel_for_dispatch_key("aten::layer_norm", "CompositeImplicitAutograd"))
for op, label in (("aten::layer_norm", "a call with requires_grad"), ("aten::native_layer_norm", "native_layer_norm")):
    key, kind = first_kernel(op, keys)
    print(f"{label} first reaches: {key} ({kind})")

# --8<-- [start:grad-fn]
eager = F.layer_norm(x, (64,))
print("eager grad_fn:", type(eager.grad_fn).__name__)
# aot_eager: AOTAutograd without Inductor (enough to see the backward it builds, and no C++ to compile)
compiled = torch.compile(lambda t: F.layer_norm(t, (64,)), backend="aot_eager")(x)
print("compiled grad_fn (aot_eager):", type(compiled.grad_fn).__name__)
# --8<-- [end:grad-fn]
op = torch.ops.aten.native_layer_norm.default
print("Inductor decomposes aten.native_layer_norm:", op in inductor_decompositions.decompositions,
      "| lowers it directly:", op in lowering.lowerings and op not in lowering.fallbacks)
