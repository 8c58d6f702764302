# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
x = torch.randn(2, 64, device=device)
W = torch.randn(600, 64, device=device, requires_grad=True)
b = torch.randn(600, device=device, requires_grad=True)


def call_key_set(*tensors):
    """What the dispatcher computes for a call: the union of the arguments' keys,
    plus the thread's include set, minus its exclude set."""
    keys = C._dispatch_keys(tensors[0])
    for t in tensors[1:]:
        keys = keys | C._dispatch_keys(t)
    keys = keys | C._dispatch_tls_local_include_set()
    return keys - C._dispatch_tls_local_exclude_set()


def show(label):
    keys = call_key_set(x, W, b)
    print(f"{label:<16} {keys}")
    print(f"{'':<16} highest priority: {keys.highestPriorityTypeId()}")


show("plain call")
with torch.autocast(device, dtype=torch.bfloat16):
    show("under autocast")
with torch.inference_mode():
    show("inference_mode")
