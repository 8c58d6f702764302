# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 60
# ///
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"
torch.manual_seed(0)
W = torch.randn(600, 64, device=device, requires_grad=True)
b = torch.randn(600, device=device, requires_grad=True)
x = torch.randn(2, 64, device=device, requires_grad=True)

y = F.linear(x, W, b)
print("y.shape:", tuple(y.shape))
print("y.grad_fn:", y.grad_fn)
print("next_functions:")
for fn, index in y.grad_fn.next_functions:
    print(f"  {type(fn).__name__ if fn else None} (output {index})")
