# /// snippet
# devices = ["cpu", "cuda"]
# timeout = 120
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head


# An operator of our own: the LM head with a temperature, scores = (x W^T + b) / T.
# --8<-- [start:op]
@torch.library.custom_op("phase25::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    return F.linear(x, W, b) / T
# --8<-- [end:op]


def dispatch_table():
    """The operator's entries in the dispatcher (printed without the file and line that registered them)."""
    return torch._C._dispatch_dump("phase25::tempered_head")


def entries(dump):
    lines = [line for line in dump.splitlines() if ": registered at" in line and not line.startswith("debug")]
    return [line.split(":")[0] for line in lines]


device = "cuda" if torch.cuda.is_available() else "cpu"
W, b = lm_head(device)
x = torch.randn(2, 64, device=device)
meta = [t.to("meta") for t in (x, W, b)]

print("right after custom_op:")
table_before = dispatch_table()
print("  dispatch table:", entries(table_before))
try:
    tempered_head(*meta, 2.0)  # the Meta entry runs, and has no function to call yet
except RuntimeError as error:
    print("  on meta tensors:", str(error).split(". ")[0] + ".")
y = tempered_head(x, W.clone().requires_grad_(), b, 2.0)  # the Autograd entry runs and records a node
print("  grad_fn:", y.grad_fn.name())


# --8<-- [start:fake]
@tempered_head.register_fake  # shapes and dtypes only: what compile and meta tensors use
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])
# --8<-- [end:fake]


def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


def backward(ctx, grad):
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.T @ x, g.sum(0), None  # one gradient per input; none for the float T


# --8<-- [start:autograd]
tempered_head.register_autograd(backward, setup_context=setup_context)
# --8<-- [end:autograd]

print("after register_fake and register_autograd:")
print("  dispatch table:", entries(dispatch_table()))
print("  the whole table unchanged, registration sites included:", dispatch_table() == table_before)
print("  on meta tensors:", tempered_head(*meta, 2.0).shape)
print("kernels for:", [k for k in ("CompositeExplicitAutograd", "CPU", "CUDA", "Meta", "Autograd")
                       if torch._C._dispatch_has_kernel_for_dispatch_key("phase25::tempered_head", k)])

# opcheck: schema, fake kernel, autograd registration and dispatch consistency.
args = (x, W.clone().requires_grad_(), b.clone().requires_grad_(), 2.0)
results = torch.library.opcheck(tempered_head, args)
print("opcheck:", results)

# gradcheck compares our backward with finite differences, in float64.
args64 = tuple(t.double().requires_grad_() for t in (x[:1], W[:5], b[:5])) + (2.0,)
print("gradcheck:", torch.autograd.gradcheck(tempered_head, args64))
y = tempered_head(x, *args[1:3], 2.0)
print("grad_fn:", y.grad_fn.name())
