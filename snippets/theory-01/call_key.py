# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch
from torch.utils._python_dispatch import TorchDispatchMode

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(2, 64, device=device)
W = torch.randn(600, 64, device=device, requires_grad=True)
b = torch.randn(600, device=device, requires_grad=True)


# --8<-- [start:key-set]
def call_key_set(*tensors):
# --8<-- [end:key-set]
    """What the dispatcher computes for a call: the union of the arguments' keys,
    plus the thread's include set, minus its exclude set."""
    # --8<-- [start:union]
    keys = C._dispatch_keys(tensors[0])
    for t in tensors[1:]:
        keys = keys | C._dispatch_keys(t)
    keys = keys | C._dispatch_tls_local_include_set()
    return keys - C._dispatch_tls_local_exclude_set()
    # --8<-- [end:union]


def show(label):
    keys = call_key_set(x, W, b)
    order = []
    while (key := keys.highestPriorityTypeId()) != C.DispatchKey.Undefined:  # highest first
        order.append(C._dispatch_key_name(key))
        keys = keys & C._dispatch_keyset_full_after(key)
    print(f"{label:<16} {' > '.join(order)}")


class Silent(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


print("the call's keys, highest priority first")
show("plain call")
with torch.autocast(device, dtype=torch.bfloat16):
    show("under autocast")
with torch.inference_mode():
    show("inference_mode")
with Silent():
    show("dispatch mode")
