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

print("normal call:          grad_fn =", type(F.linear(x, W, b).grad_fn).__name__)

# Remove the autograd key from this thread: the call skips the autograd kernels
# and lands on the backend kernel directly, so nothing records a graph.
with C._ExcludeDispatchKeyGuard(C.DispatchKeySet(autograd_key)):
    y = F.linear(x, W, b)
print(f"{autograd_key.name} excluded: grad_fn = {y.grad_fn}, requires_grad = {y.requires_grad}")

with torch.no_grad():
    y = F.linear(x, W, b)
print("under no_grad:        grad_fn =", y.grad_fn, "(the autograd kernel ran, and chose not to record)")
