# /// snippet
# devices = ["cpu"]
# timeout = 60
# deps = ["scripts/minigpt"]
# expect_error = { type = "RuntimeError", match = "no autograd formula was registered" }
# ///
import torch
import torch.nn.functional as F
from minigpt import lm_head


# The tempered head with a fake kernel but without register_autograd.
@torch.library.custom_op("phase25::tempered_head", mutates_args=())
def tempered_head(x: torch.Tensor, W: torch.Tensor, b: torch.Tensor, T: float) -> torch.Tensor:
    return F.linear(x, W, b) / T


@tempered_head.register_fake
def _(x, W, b, T):
    return x.new_empty(x.shape[0], W.shape[0])


print("Autograd entry in the dispatch table:",
      torch._C._dispatch_has_kernel_for_dispatch_key("phase25::tempered_head", "Autograd"))
W, b = (t.clone().requires_grad_() for t in lm_head())
torch.manual_seed(0)
x = torch.randn(2, 64)
y = tempered_head(x, W, b, 2.0)  # the forward runs, and autograd records a node
print("forward:", tuple(y.shape), "| grad_fn:", y.grad_fn.name())
y.sum().backward()  # the node has no formula to call
