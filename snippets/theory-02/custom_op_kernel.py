# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head


@torch.library.custom_op("phase25::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    return F.linear(x, W, b) / T  # the default implementation, for every device


@tempered_head.register_fake
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


def setup_context(ctx, inputs, output):
    x, W, b, T = inputs
    ctx.save_for_backward(x, W)
    ctx.T = T


def backward(ctx, grad):
    x, W = ctx.saved_tensors
    g = grad / ctx.T
    return g @ W, g.T @ x, g.sum(0), None


tempered_head.register_autograd(backward, setup_context=setup_context)


def table():
    return [k for k in ("CompositeExplicitAutograd", "CPU", "CUDA", "Meta", "Autograd")
            if torch._C._dispatch_has_kernel_for_dispatch_key("phase25::tempered_head", k)]


print("kernels for:", table())
calls = []


# --8<-- [start:kernel]
@tempered_head.register_kernel("cpu")  # a kernel for one device: one addmm that also divides by T
def _(x, W, b, T):
    calls.append("cpu kernel")
    return torch.addmm(b, x, W.T, beta=1 / T, alpha=1 / T)
# --8<-- [end:kernel]


print("after register_kernel('cpu'):", table())

torch.manual_seed(0)
W, b = (t.clone().requires_grad_() for t in lm_head())
x = torch.randn(2, 64)
y = tempered_head(x, W, b, 2.0)
print("\na CPU call runs it:", calls, "| same scores as the default, within 1e-6:",
      torch.allclose(y, F.linear(x, W, b) / 2.0, atol=1e-6))
print("a meta call does not:", tuple(tempered_head(*(t.to("meta") for t in (x, W, b)), 2.0).shape), calls)
y.sum().backward()  # the Autograd entry sits above the CPU one: the formula is the same
print("grad_fn:", y.grad_fn.name())
print("dL/db = 2 rows x 1/T = 1.0 everywhere:", torch.equal(b.grad, torch.ones(600)))

# --8<-- [start:disable]
with tempered_head.set_kernel_enabled("cpu", enabled=False):  # back to the default implementation
    tempered_head(x, W, b, 2.0)
# --8<-- [end:disable]
print("with the CPU kernel disabled:", calls)
