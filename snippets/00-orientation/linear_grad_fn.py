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
names = {id(W): "W", id(b): "b", id(x): "x"}

# --8<-- [start:call]
y = F.linear(x, W, b)
print("y.shape:", tuple(y.shape))
print("y.grad_fn:", y.grad_fn)
# --8<-- [end:call]


# --8<-- [start:graph]
def show(node, depth=1):
    """Every node the backward will visit, each under the node that feeds it."""
    for fn, index in node.next_functions:
        if fn is None:
            continue
        leaf = f" of {names[id(fn.variable)]}" if hasattr(fn, "variable") else ""
        print(f"{'  ' * depth}{type(fn).__name__}{leaf} (output {index})")
        show(fn, depth + 1)


print("next_functions, recursively:")
show(y.grad_fn)
# --8<-- [end:graph]
