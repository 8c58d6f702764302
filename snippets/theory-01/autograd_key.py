# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F

C = torch._C
device = "cuda" if torch.cuda.is_available() else "cpu"
autograd_key = C.DispatchKey.AutogradCUDA if device == "cuda" else C.DispatchKey.AutogradCPU
x = torch.randn(2, 64, device=device)
W = torch.randn(600, 64, device=device, requires_grad=True)
b = torch.randn(600, device=device, requires_grad=True)


def linear_and_first_key(label):
    """Call F.linear; report the key the dispatcher starts from and what autograd recorded."""
    keys = C._dispatch_keys(x) | C._dispatch_keys(W) | C._dispatch_keys(b) | C._dispatch_tls_local_include_set()
    first = (keys - C._dispatch_tls_local_exclude_set()).highestPriorityTypeId()
    y = F.linear(x, W, b)
    recorded = type(y.grad_fn).__name__ if y.grad_fn else None
    print(f"{label:<22} first key {C._dispatch_key_name(first):<16} grad_fn = {recorded}")


linear_and_first_key("normal call")
# Remove the autograd key from this thread: the call skips the autograd kernels
# and lands on the backend kernel directly, so nothing records a graph.
# --8<-- [start:exclude]
with C._ExcludeDispatchKeyGuard(C.DispatchKeySet(autograd_key)):
    linear_and_first_key(f"{autograd_key.name} excluded")
# no_grad changes no key: the autograd kernel still runs, and records nothing.
with torch.no_grad():
    linear_and_first_key("under no_grad")
# --8<-- [end:exclude]
